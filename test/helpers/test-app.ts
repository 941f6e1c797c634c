import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { clusterReleaseWriter } from '../../loaders/load/cluster-writer.js';
import { seedRelease } from '../../loaders/seed.js';
import { type Config, loadConfig } from '../../src/config.js';
import { SettableClock } from '../../src/domain/clock.js';
import { opensearchClient } from '../../src/engine/opensearch/client.js';
import { type RunningServer, startServer } from '../../src/http/server.js';
import type { Services } from '../../src/operations/types.js';
import { closeServices, openServices } from '../../src/services.js';
import { seedFromCache } from './seed-cache.js';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface TestApp {
  url: string;
  /** The metrics port's GET /metrics URL, when the app runs with CDS_METRICS_PORT. */
  metricsUrl?: string;
  dataDir: string;
  clock: SettableClock;
  services: Services;
  config: Config;
  createAccount(
    plan: string,
    opts?: { billingDay?: number | null; name?: string },
  ): Promise<{ accountId: string; apiKey: string }>;
  request<T = any>(
    method: string,
    path: string,
    opts?: {
      key?: string;
      keyHeader?: 'bearer' | 'x-api-key';
      body?: unknown;
      rawBody?: string;
      headers?: Record<string, string>;
    },
  ): Promise<ApiResponse<T>>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  contacts?: number;
  companies?: number;
  seed?: number;
  now?: string;
  env?: Record<string, string>;
  /** Reuse a data dir (for restart tests); default a fresh temp dir. */
  dataDir?: string;
  /** Skip seeding (e.g. a restart over an existing data dir). */
  noSeed?: boolean;
  /** Plans written to DATA/plans.json before the services open. */
  plans?: Record<string, unknown>;
  /**
   * Serve from the OpenSearch cluster at this URL (CDS_ENGINE=opensearch; several nodes' URLs separated by commas):
   * the seeded release is indexed into indices of a prefix of the app's own (3 shards, no replica unless asked),
   * deleted when the app closes.
   */
  opensearch?: { url: string; shards?: number; replicas?: number };
}

/** The real app on an ephemeral loopback port over a real data dir with a small seeded release. */
export async function startTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'cds-test-'));
  const ownsDir = opts.dataDir === undefined;
  const cluster = opts.opensearch ? { ...opts.opensearch, prefix: `cds-app-${randomBytes(4).toString('hex')}-` } : null;
  if (!opts.noSeed && !cluster) {
    await seedFromCache(dataDir, {
      contacts: opts.contacts ?? 2000,
      companies: opts.companies ?? 300,
      seed: opts.seed ?? 7,
      asOf: new Date('2026-11-01T00:00:00Z'),
    });
  } else if (!opts.noSeed) {
    const client = cluster ? opensearchClient({ url: cluster.url }, 120_000) : null;
    await seedRelease({
      ...(client && cluster
        ? {
            openWriter: clusterReleaseWriter({
              client,
              prefix: cluster.prefix,
              shards: cluster.shards ?? 3,
              replicas: cluster.replicas ?? 0,
            }),
          }
        : {}),
      dataDir,
      contacts: opts.contacts ?? 2000,
      companies: opts.companies ?? 300,
      seed: opts.seed ?? 7,
      asOf: new Date('2026-11-01T00:00:00Z'),
    }).finally(() => client?.close());
  }
  if (opts.plans) writeFileSync(join(dataDir, 'plans.json'), JSON.stringify(opts.plans));
  const config = loadConfig(['--data', dataDir, '--port', '0'], {
    CDS_CHECK_CONTRACTS: '1',
    ...(cluster ? { CDS_ENGINE: 'opensearch', OPENSEARCH_URL: cluster.url, CDS_ES_PREFIX: cluster.prefix } : {}),
    ...opts.env,
    CDS_LOG_LEVEL: 'silent',
    CDS_DUCKDB_THREADS: '1',
    CDS_DUCKDB_POOL: '2',
  });
  const clock = new SettableClock(opts.now ?? '2026-11-10T12:00:00.000Z');
  const services = await openServices(config, { clock, logger: pino({ level: process.env.CDS_TEST_LOG ?? 'silent' }) });
  const server: RunningServer = await startServer(services, '127.0.0.1', 0);
  // The app serves from the test's own process: a test that holds the event loop for seconds (the MCP SDK client
  // compiles every tool's outputSchema inside listTools) would otherwise return to find its idle keep-alive sockets
  // expiring on the server just as it reuses one (ECONNRESET). close() still closes idle connections at once.
  server.server.keepAliveTimeout = 60_000;
  services.config.publicUrl = server.url;
  return {
    url: server.url,
    ...(server.metricsUrl ? { metricsUrl: server.metricsUrl } : {}),
    dataDir,
    clock,
    services,
    config,
    async createAccount(plan, o = {}) {
      const now = clock.now();
      const account = await services.state.createAccount({
        name: o.name ?? 'test',
        plan,
        billingDay: o.billingDay ?? null,
        now,
      });
      const { secret } = await services.state.createKey(account.id, { name: 'test', now });
      return { accountId: account.id, apiKey: secret };
    },
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      if (o.key) {
        if (o.keyHeader === 'x-api-key') headers['X-API-Key'] = o.key;
        else headers.Authorization = `Bearer ${o.key}`;
      }
      let body: string | undefined = o.rawBody;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['Content-Type'] ??= 'application/json';
      }
      const res = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: res.status, headers: res.headers, body: parsed as any };
    },
    async close() {
      await server.close();
      await closeServices(services);
      if (cluster) {
        const client = opensearchClient({ url: cluster.url });
        const names = await client.indexNames(`${cluster.prefix}*`).catch(() => []);
        if (names.length) await client.deleteIndices(names).catch(() => undefined);
        await client.close();
      }
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
