import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRelease } from '../../loaders/seed.js';
import { type ChildServer, cds, startChildServer } from '../helpers/child-server.js';
import { parseCsv } from '../helpers/csv.js';
import { type OwnRedis, redisServerAvailable, startOwnRedis } from '../helpers/redis-server.js';

/**
 * The scale-out deployment over real HTTP: two `cds serve` processes (CDS_WORKERS=0, they only queue jobs) and
 * `cds worker` processes, all in Redis mode on one Redis and one data dir. The Redis server is the test's own (its
 * own port and folder, AOF on), so the test may stop and restart it; the machine's shared Redis is never touched.
 */
const SECRET = 'scale-out-test-secret-0123456789abcdef';
const CONTACTS = 2000;
const available = redisServerAvailable();
if (!available) console.warn('scale-out e2e skipped: redis-server is not installed');
const suite = available ? describe : describe.skip;

interface Proc {
  child: ChildProcess;
  exited: Promise<number | null>;
  err: () => string;
}

function startWorker(dataDir: string, env: Record<string, string>): Promise<Proc> {
  const child = cds(['worker', '--data', dataDir], env);
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('worker ready')) resolve({ child, exited, err: () => err });
    });
    void exited.then((c) => reject(new Error(`worker exited (${c}) before ready: ${err.slice(0, 800)}`)));
  });
}

async function runCli(args: string[], env: Record<string, string>): Promise<string> {
  const child = cds(args, env);
  let out = '';
  let err = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  if (code !== 0) throw new Error(`cds ${args.join(' ')} exited ${code}: ${err}`);
  return out;
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

async function call(base: string, key: string, method: string, path: string, body?: unknown, headers = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers } as Answer;
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

suite('scale-out: two API processes and workers on one Redis', () => {
  let redis: OwnRedis;
  let dataDir: string;
  let env: Record<string, string>;
  let a: ChildServer;
  let b: ChildServer;
  let slow: ChildServer;
  const workers: Proc[] = [];

  const newAccount = async (plan: string) =>
    JSON.parse(await runCli(['accounts', 'create', '--plan', plan, '--data', dataDir], env)) as {
      account_id: string;
      api_key: string;
    };

  beforeAll(async () => {
    redis = await startOwnRedis();
    dataDir = mkdtempSync(join(tmpdir(), 'cds-scale-out-'));
    await seedRelease({
      dataDir,
      contacts: CONTACTS,
      companies: 200,
      seed: 11,
      asOf: new Date('2026-11-01T00:00:00Z'),
    });
    env = {
      CDS_STATE: 'redis',
      REDIS_URL: redis.url,
      CDS_SECRET: SECRET,
      CDS_LOG_LEVEL: 'error',
      CDS_DUCKDB_THREADS: '1',
      CDS_DUCKDB_POOL: '2',
      CDS_JOB_HEARTBEAT_MS: '300',
      CDS_JOB_STALE_MS: '3000',
    };
    // API processes only queue jobs. A third one holds every answer for a second, so that requests of one key are
    // surely in flight together when the test needs them to be.
    const apiEnv = { ...env, CDS_WORKERS: '0' };
    [a, b, slow] = await Promise.all([
      startChildServer(dataDir, apiEnv),
      startChildServer(dataDir, apiEnv),
      startChildServer(dataDir, { ...apiEnv, CDS_TEST_ANSWER_DELAY_MS: '1000' }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.kill('SIGTERM'), b?.kill('SIGTERM'), slow?.kill('SIGTERM')]);
    for (const w of workers) {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await w.exited;
    }
    await redis?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it('refuses to start in Redis mode without CDS_SECRET (every process must share it)', async () => {
    const child = cds(['serve', '--data', dataDir, '--port', '0'], { ...env, CDS_SECRET: '' });
    let err = '';
    child.stderr!.on('data', (b: Buffer) => (err += b.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    expect(code).toBe(2);
    expect(err).toMatch(/CDS_STATE=redis needs CDS_SECRET/);
  });

  it('(a) one key over both processes: exactly 300 accepted in 60 s, then 429 with Retry-After; 3 in flight: one 429', async () => {
    const { api_key: key } = await newAccount('pro');
    const statuses: number[] = [];
    const retryAfter: string[] = [];
    // Two lanes, one per process, one request in flight each: 400 requests in all, well inside 60 seconds.
    const lane = async (base: string) => {
      for (let i = 0; i < 200; i++) {
        const r = await call(base, key, 'GET', '/v1/credits');
        statuses.push(r.status);
        if (r.status === 429) {
          retryAfter.push(r.headers.get('retry-after') ?? '');
          expect(r.body.error.code).toBe('rate.limited');
        }
      }
    };
    const started = Date.now();
    await Promise.all([lane(a.url), lane(b.url)]);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses.filter((s) => s === 200)).toHaveLength(300);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    expect(retryAfter.every((s) => Number(s) >= 1 && Number(s) <= 60)).toBe(true);

    // Three at once: two held in flight by one process (its answers take a second), the third sent to another.
    const { api_key: other } = await newAccount('pro');
    const held = [call(slow.url, other, 'GET', '/v1/credits'), call(slow.url, other, 'GET', '/v1/credits')];
    await new Promise((r) => setTimeout(r, 300));
    const third = await call(a.url, other, 'GET', '/v1/credits');
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('rate.limited');
    expect(third.headers.get('retry-after')).toBe('1');
    expect((await Promise.all(held)).map((r) => r.status)).toEqual([200, 200]);
  }, 120_000);

  it('(b) parallel spending near the cap from both processes never passes it; charge == rows delivered', async () => {
    const { api_key: key } = await newAccount('free'); // a pool of 100 contact credits
    let delivered = 0;
    let refused = 0;
    for (let round = 0; round < 20 && refused < 2; round++) {
      const pair = await Promise.all(
        [a.url, b.url].map((base) => call(base, key, 'POST', '/v1/contacts/search', { filter: {}, limit: 7 })),
      );
      for (const r of pair) {
        if (r.status === 200) delivered += r.body.data.length;
        else {
          expect(r.status).toBe(402);
          expect(r.body.error.code).toBe('contact_credits.exhausted');
          refused++;
        }
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect(delivered).toBe(100);
    const credits = await call(b.url, key, 'GET', '/v1/credits');
    expect(credits.body.data.contact.pool).toMatchObject({ used: 100, held: 0, cap: 100 });
  }, 120_000);

  it('(c) an export started on one process is polled and downloaded on the other; (d) a killed worker is taken over', async () => {
    const slow = { ...env, CDS_WORKERS: '2', CDS_EXPORT_BATCH_ROWS: '100', CDS_EXPORT_BATCH_DELAY_MS: '150' };
    const first = await startWorker(dataDir, slow);
    workers.push(first);
    const { api_key: key } = await newAccount('pro');
    const started = await call(a.url, key, 'POST', '/v1/exports', { filter: {}, columns: ['name', 'company_domain'] });
    expect(started.status).toBe(202);
    const id: string = started.body.data.export_id;

    const midway = await until('the export to be running past 300 rows', async () => {
      const r = await call(b.url, key, 'GET', `/v1/exports/${id}`);
      return r.body.data.status === 'running' && r.body.data.rows_exported >= 300 ? r.body.data : undefined;
    });
    expect(midway.rows_exported).toBeLessThan(CONTACTS);
    first.child.kill('SIGKILL');
    await first.exited;

    // Nothing charged yet; the hold stays until the job ends.
    const held = await call(a.url, key, 'GET', '/v1/credits');
    expect(held.body.data.contact.day).toMatchObject({ used: 0, held: CONTACTS });

    const second = await startWorker(dataDir, { ...env, CDS_WORKERS: '2', CDS_EXPORT_BATCH_ROWS: '500' });
    workers.push(second);
    const done = await until('the export to end', async () => {
      const r = await call(b.url, key, 'GET', `/v1/exports/${id}`);
      return ['completed', 'failed'].includes(r.body.data.status) ? r.body.data : undefined;
    });
    expect(done).toMatchObject({ status: 'completed', rows_exported: CONTACTS, error: null });

    const file = await fetch(done.url);
    expect(file.status).toBe(200);
    const lines = parseCsv(await file.text());
    expect(lines.length - 1).toBe(CONTACTS);
    expect(new Set(lines.slice(1).map((l) => l[0])).size).toBe(CONTACTS);
    const after = await call(a.url, key, 'GET', '/v1/credits');
    expect(after.body.data.contact.day).toMatchObject({ used: CONTACTS, held: 0 });
  }, 180_000);

  it('(e) an idempotent retry sent to the other process replays and spends nothing', async () => {
    const { api_key: key } = await newAccount('pro');
    const body = { filter: {}, limit: 5 };
    const idem = { 'Idempotency-Key': 'retry-0001' };
    const first = await call(a.url, key, 'POST', '/v1/contacts/search', body, idem);
    expect(first.status).toBe(200);
    const spent = (await call(a.url, key, 'GET', '/v1/credits')).body.data.contact.day.used;
    expect(spent).toBe(5);
    const retry = await call(b.url, key, 'POST', '/v1/contacts/search', body, idem);
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.data.map((c: { id: string }) => c.id)).toEqual(first.body.data.map((c: { id: string }) => c.id));
    expect((await call(b.url, key, 'GET', '/v1/credits')).body.data.contact.day.used).toBe(5);
  }, 60_000);

  it('(f) Redis stopped mid-load: 503s, never a 500, no crash; restarted: answers again and balances add up', async () => {
    const { api_key: key } = await newAccount('pro');
    let delivered = 0;
    const seen = new Map<number, number>();
    let stop = false;
    const lane = async (base: string) => {
      while (!stop) {
        const r = await call(base, key, 'POST', '/v1/contacts/search', { filter: {}, limit: 3 }).catch(() => null);
        if (!r) continue;
        seen.set(r.status, (seen.get(r.status) ?? 0) + 1);
        if (r.status === 200) delivered += r.body.data.length;
        if (r.status === 503) expect(r.body.error.code).toBe('data.unavailable');
        // About 12 requests a second over both lanes: under the key's 300 a minute for the whole test.
        await new Promise((res) => setTimeout(res, r.status === 429 ? 500 : 100));
      }
    };
    const load = Promise.all([lane(a.url), lane(b.url)]);
    await new Promise((r) => setTimeout(r, 1500));
    await redis.stop();
    await until('503 answers while Redis is down', async () => ((seen.get(503) ?? 0) >= 4 ? true : undefined));
    const health = await fetch(`${a.url}/health`);
    const report = (await health.json()) as { data: { state: { ok: boolean; error?: string } } };
    expect(report.data.state.ok).toBe(false);
    expect(report.data.state.error).toMatch(/Redis/);
    await redis.start();
    const okBefore = seen.get(200) ?? 0;
    await until('200 answers again after Redis is back', async () =>
      (seen.get(200) ?? 0) > okBefore + 4 ? true : undefined,
    );
    stop = true;
    await load;
    expect(seen.get(500) ?? 0).toBe(0);
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
    // Every delivered row is charged once and nothing stays held: a charge that met the outage lands on a retry, and
    // a hold whose reserve reply was lost to the outage is released by the orphan sweep once its lease (60 s) passed.
    let last: unknown;
    const balance = await until(
      'the balances to settle',
      async () => {
        const r = await call(a.url, key, 'GET', '/v1/credits');
        last = { status: r.status, day: r.body?.data?.contact?.day, delivered, seen: [...seen] };
        if (r.status !== 200) return undefined;
        const day = r.body.data.contact.day;
        return day.held === 0 && day.used === delivered ? day : undefined;
      },
      150_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}: ${JSON.stringify(last)}`);
    });
    expect(balance).toMatchObject({ used: delivered, held: 0 });
  }, 300_000);
});
