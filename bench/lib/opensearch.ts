import { statSync } from 'node:fs';
import { indexRelease } from '../../loaders/load/cluster-writer.js';
import { currentRelease, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { opensearchClient } from '../../src/engine/opensearch/client.js';
import { ReleaseIndexer } from '../../src/engine/search-cluster/release-writer/indexer.js';
import { readServing } from '../../src/engine/search-cluster/releases.js';

/**
 * A bench data dir's serving release on an OpenSearch cluster: the same built rows the embedded engine serves (the
 * DuckDB release file), bulk-indexed with the loader's indexer under a prefix of the bench's own, once per release
 * (a later run reuses the indices while the alias names that release). Answers the server's environment, how the
 * load went, and the cluster's heap and disk.
 */
export interface ClusterBench {
  env: Record<string, string>;
  /** Set when this run indexed the release (not when it reused one already indexed). */
  load: { rows: number; seconds: number; rows_per_second: number; bulk_rows_per_second: number } | null;
  /** The cluster's nodes and version, and its heap and the release indices' disk after the load. */
  cluster(): Promise<{ version: string; nodes: number; heap_used_mb: number; heap_max_mb: number; store_mb: number }>;
}

export async function opensearchBench(
  dataDir: string,
  url: string,
  opts: { shards: number; replicas: number; log: (s: string) => unknown },
): Promise<ClusterBench> {
  const current = currentRelease(dataDir);
  if (!current) throw new Error(`${dataDir} serves no release`);
  const prefix = `bench-s${opts.shards}r${opts.replicas}-`;
  const client = opensearchClient({ url }, 600_000);
  let load: ClusterBench['load'] = null;
  try {
    const serving = await readServing(client, prefix);
    if (serving?.info.id !== current.id) {
      const indexer = new ReleaseIndexer({ client, prefix, shards: opts.shards, replicas: opts.replicas }, current.id);
      await indexer.remove();
      const file = releaseFile(dataDir, current.id);
      opts.log(`indexing release ${current.id} (${Math.round(statSync(file).size / 2 ** 20)} MB) into ${url} …\n`);
      const t = performance.now();
      let last = 0;
      const info = await indexRelease(indexer, file, current.id, { bench: true }, (done, total, step) => {
        if (performance.now() - last > 10_000 || done === total) {
          last = performance.now();
          opts.log(`  ${step}: ${done}/${total}\n`);
        }
      });
      await indexer.publish();
      const seconds = (performance.now() - t) / 1000;
      const rows = info.contacts + info.companies;
      load = {
        rows,
        seconds: Math.round(seconds * 10) / 10,
        rows_per_second: Math.round(rows / seconds),
        bulk_rows_per_second: indexer.stats().rowsPerSecond,
      };
      opts.log(`indexed ${rows} rows in ${load.seconds} s (${load.rows_per_second} rows/s)\n`);
      // Replicas assigned before anything is timed.
      await fetch(`${url.split(',')[0]}/_cluster/health?wait_for_status=green&timeout=600s`);
    }
  } finally {
    await client.close();
  }
  const first = url.split(',')[0]!;
  return {
    env: { CDS_ENGINE: 'opensearch', OPENSEARCH_URL: url, CDS_ES_PREFIX: prefix },
    load,
    cluster: async () => {
      const get = async (path: string) => (await (await fetch(`${first}${path}`)).json()) as any;
      const nodes = await get('/_nodes/stats/jvm');
      const stats = await get(`/${prefix}*/_stats/store`);
      const info = await get('/');
      const jvm = Object.values(nodes.nodes as Record<string, any>).map((n) => n.jvm.mem);
      const mb = (b: number) => Math.round(b / 2 ** 20);
      return {
        version: info.version.number,
        nodes: jvm.length,
        heap_used_mb: mb(jvm.reduce((s, m) => s + m.heap_used_in_bytes, 0)),
        heap_max_mb: mb(jvm.reduce((s, m) => s + m.heap_max_in_bytes, 0)),
        store_mb: mb(stats._all.total.store.size_in_bytes),
      };
    },
  };
}

/** The bench options that put the service on OpenSearch (`--opensearch URL [--shards N] [--replicas N]`). */
export const OPENSEARCH_OPTIONS = {
  opensearch: { type: 'string' },
  shards: { type: 'string', default: '1' },
  replicas: { type: 'string', default: '0' },
} as const;

/**
 * The engine a bench serves from: the embedded one, or OpenSearch with `--opensearch` (indexed first if needed).
 * Answers the server's environment, a name for the results file, and what to record beside the figures.
 */
export async function benchEngine(
  dataDir: string,
  v: { opensearch?: string | undefined; shards?: string | undefined; replicas?: string | undefined },
  log: (s: string) => unknown,
): Promise<{ env: Record<string, string>; name: string; record(): Promise<Record<string, unknown>> }> {
  if (!v.opensearch) return { env: {}, name: '', record: async () => ({ engine: 'duckdb' }) };
  const shards = Number(v.shards ?? 1);
  const replicas = Number(v.replicas ?? 0);
  const b = await opensearchBench(dataDir, v.opensearch, { shards, replicas, log });
  return {
    env: b.env,
    name: `opensearch-${(await b.cluster()).nodes}n`,
    record: async () => ({ engine: 'opensearch', shards, replicas, load: b.load, cluster: await b.cluster() }),
  };
}
