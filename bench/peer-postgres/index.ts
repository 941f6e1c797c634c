/**
 * The PostgreSQL peer: the query suite answered by the service (over HTTP) and by the machine's PostgreSQL holding
 * the same release (./load.ts: one table, ordinary indexes), interleaved in one run. Counts and first-page ids must
 * be identical, or the bench fails. Prints per-query p50/p95 and the speed-up (PostgreSQL time / service time), and
 * writes bench/results/peer-postgres-<size>[-<tag>].json.
 *
 *   node dist/bench/peer-postgres/index.js --contacts 1000000 [--data DIR] [--runs 15] [--pg URL] [--tag T] [--cold]
 *        [--client node|fetch] [--interleave sides|calls] [--opensearch URL[,URL...] [--shards N] [--replicas N]]
 *
 * `--client fetch` calls the service with `fetch` (what a Node user's script uses) instead of node:http over one
 * kept-alive connection; the file's name then carries `-fetch`.
 *
 * With --opensearch the service serves the same release from that OpenSearch cluster (bench/lib/opensearch.ts) and
 * the file is peer-postgres-<size>-opensearch-<N>n[-<tag>].json.
 *
 * `--interleave` orders each run's calls. `sides` (the default): each side answers a query's count and then its first
 * page, as a client asking for a count and a page does, the two sides taking turns per query, and which side goes
 * first swaps every run (A B, then B A), so neither always follows the other. `calls` (the order before 2026-11-29):
 * service count, PostgreSQL count, service page, PostgreSQL page; the service's page then always follows
 * PostgreSQL's count (a parallel scan of up to the whole table on both cores, 37 ms to 1.4 s at 1 M) and PostgreSQL's page
 * its own count of the same filter: the order is in the figures (docs/performance.md).
 *
 * The service keeps what it answered (page totals, the rows of a filter: a release never changes), so every timed
 * call after the check pass is one it has answered before. `--cold` serves with both caches off
 * (CDS_QUERY_CACHE_MB=0, CDS_SEARCH_TOTALS_CACHE=0): every call plans its filter and counts again.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { benchDataDir, benchKey } from '../lib/bench-data.js';
import { benchClient, poster } from '../lib/http.js';
import { machine } from '../lib/machine.js';
import { benchEngine, OPENSEARCH_OPTIONS } from '../lib/opensearch.js';
import { querySuite } from '../lib/query-suite.js';
import { COLD_CACHES_ENV, startBenchServer } from '../lib/server.js';
import { percentile, round, timed } from '../lib/stats.js';
import { suiteClient } from '../lib/suite-client.js';
import { peerSql } from './compile.js';
import { connectPeer, TABLE } from './load.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    runs: { type: 'string', default: '15' },
    pg: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    tag: { type: 'string' },
    cold: { type: 'boolean', default: false },
    /** The service's HTTP client: node (node:http, one kept-alive connection) or fetch (what a user's script uses). */
    client: { type: 'string', default: 'node' },
    /** sides: each side's count then page, sides alternating who goes first per run; calls: the order before. */
    interleave: { type: 'string', default: 'sides' },
    ...OPENSEARCH_OPTIONS,
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const runs = Number(values.runs);
const log = (s: string): boolean => process.stdout.write(s);

const dir = benchDataDir(root, contacts, values.data);
const key = benchKey(root, dir);
const suite = await querySuite(dir);
const db = await connectPeer(values.pg, dir, log);
// The machine is shared: its load average beside the figures (1, 5 and 15 minutes, at the start and at the end).
const loadAtStart = loadavg().map((l) => round(l, 2));

const peer = {
  count: async (sql: [string, unknown[]]): Promise<number> => Number((await db.query(...sql)).rows[0].n),
  firstPage: async (sql: [string, unknown[]]): Promise<string[]> => (await db.query(...sql)).rows.map((r) => r.id),
};

const cold = values.cold === true;
const interleave = values.interleave;
if (interleave !== 'sides' && interleave !== 'calls') throw new Error('--interleave is sides or calls');
const engine = await benchEngine(dir, values, log);
const server = await startBenchServer(dir, {
  ...engine.env,
  ...(cold ? COLD_CACHES_ENV : {}),
});
const client = benchClient(values.client);
const service = suiteClient(poster(server.url, key, client));
const queries = suite.map((q) => ({ q, sql: peerSql(TABLE, q.filter) }));
const mismatches: string[] = [];
const samples = new Map(queries.map(({ q }) => [q.name, { sc: [0], pc: [0], sf: [0], pf: [0] }]));
const matches = new Map<string, number>();
try {
  log(`checking that both answer the same (${queries.length} queries) …\n`);
  for (const { q, sql } of queries) {
    const [sc, pc] = [await service.count(q), await peer.count(sql.count)];
    const [sf, pf] = [await service.firstPage(q), await peer.firstPage(sql.first)];
    matches.set(q.name, pc);
    if (sc !== pc) mismatches.push(`${q.name}: count ${sc} (service) vs ${pc} (PostgreSQL)`);
    if (sf.join() !== pf.join()) mismatches.push(`${q.name}: first page differs (${sf.length} vs ${pf.length} rows)`);
  }
  for (const s of samples.values()) for (const k of ['sc', 'pc', 'sf', 'pf'] as const) s[k] = [];
  // Interleaved: every run times each query on both sides back to back, so drift hits both alike.
  for (let i = 0; i < runs; i++) {
    for (const { q, sql } of queries) {
      const s = samples.get(q.name);
      if (!s) continue;
      const call: Record<'sc' | 'pc' | 'sf' | 'pf', () => Promise<unknown>> = {
        sc: () => service.count(q),
        pc: () => peer.count(sql.count),
        sf: () => service.firstPage(q),
        pf: () => peer.firstPage(sql.first),
      };
      const order =
        interleave === 'calls'
          ? (['sc', 'pc', 'sf', 'pf'] as const)
          : i % 2 === 0
            ? (['sc', 'sf', 'pc', 'pf'] as const)
            : (['pc', 'pf', 'sc', 'sf'] as const);
      for (const k of order) s[k].push((await timed(call[k])).ms);
    }
    log(`run ${i + 1}/${runs}\n`);
  }
} finally {
  await server.stop();
  await db.end();
}

const median = (xs: number[]): number => percentile(xs, 50);
const rows = queries.map(({ q }) => {
  const s = samples.get(q.name) ?? { sc: [], pc: [], sf: [], pf: [] };
  const row = {
    query: q.name,
    matches: matches.get(q.name) ?? null,
    service_count_p50: round(median(s.sc)),
    service_count_p95: round(percentile(s.sc, 95)),
    postgres_count_p50: round(median(s.pc)),
    postgres_count_p95: round(percentile(s.pc, 95)),
    count_speedup: round(median(s.pc) / median(s.sc), 2),
    service_first_page_p50: round(median(s.sf)),
    service_first_page_p95: round(percentile(s.sf, 95)),
    postgres_first_page_p50: round(median(s.pf)),
    postgres_first_page_p95: round(percentile(s.pf, 95)),
    first_page_speedup: round(median(s.pf) / median(s.sf), 2),
  };
  log(
    `${q.name.padEnd(34)} ${String(row.matches).padStart(8)}  count ${String(row.service_count_p50).padStart(6)} vs ` +
      `${String(row.postgres_count_p50).padStart(6)} ms (x${row.count_speedup})  first ` +
      `${String(row.service_first_page_p50).padStart(6)} vs ${String(row.postgres_first_page_p50).padStart(6)} ms ` +
      `(x${row.first_page_speedup})\n`,
  );
  return row;
});
const pooled = (k: 'sc' | 'pc' | 'sf' | 'pf'): number[] => [...samples.values()].flatMap((s) => s[k]);
const summary = {
  contacts,
  runs,
  tag: values.tag ?? null,
  client,
  interleave,
  service_caches: cold ? 'off' : 'on',
  ...(await engine.record()),
  machine: machine(),
  load_average: { start: loadAtStart, end: loadavg().map((l) => round(l, 2)) },
  at: new Date().toISOString(),
  postgres: (await versionOf(values.pg)) ?? 'unknown',
  identical_answers: mismatches.length === 0,
  mismatches,
  suite_count_speedup_median: round(median(rows.map((r) => r.count_speedup)), 2),
  suite_first_page_speedup_median: round(median(rows.map((r) => r.first_page_speedup)), 2),
  queries_where_postgres_counts_faster: rows.filter((r) => r.count_speedup < 1).map((r) => r.query),
  service_count_p50_ms: round(median(pooled('sc'))),
  service_count_p95_ms: round(percentile(pooled('sc'), 95)),
  postgres_count_p50_ms: round(median(pooled('pc'))),
  postgres_count_p95_ms: round(percentile(pooled('pc'), 95)),
  service_first_page_p50_ms: round(median(pooled('sf'))),
  service_first_page_p95_ms: round(percentile(pooled('sf'), 95)),
  postgres_first_page_p50_ms: round(median(pooled('pf'))),
  postgres_first_page_p95_ms: round(percentile(pooled('pf'), 95)),
  queries: rows,
};
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const tag = [engine.name, client === 'node' ? undefined : client, values.tag, cold ? 'cold' : undefined]
  .filter(Boolean)
  .join('-');
const out = join(root, 'bench', 'results', `peer-postgres-${contacts}${tag ? `-${tag}` : ''}.json`);
writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
log(
  `\nsuite: count p50/p95 ${summary.service_count_p50_ms}/${summary.service_count_p95_ms} ms (service) vs ` +
    `${summary.postgres_count_p50_ms}/${summary.postgres_count_p95_ms} ms (PostgreSQL), median speed-up ` +
    `x${summary.suite_count_speedup_median}; first page p50/p95 ${summary.service_first_page_p50_ms}/` +
    `${summary.service_first_page_p95_ms} vs ${summary.postgres_first_page_p50_ms}/` +
    `${summary.postgres_first_page_p95_ms} ms, median speed-up x${summary.suite_first_page_speedup_median}\n` +
    `PostgreSQL counts faster on ${summary.queries_where_postgres_counts_faster.length} of ${rows.length} queries\n`,
);
if (mismatches.length) {
  log(`\nANSWERS DIFFER — the figures above do not compare like with like:\n  ${mismatches.join('\n  ')}\n`);
  process.exitCode = 1;
}

async function versionOf(url: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return String((await c.query('SHOW server_version')).rows[0].server_version);
  } finally {
    await c.end();
  }
}
