/**
 * Query benchmark: the suite of bench/lib/query-suite.ts (realistic audience queries), each run as a count, as a first
 * search page (100 rows) and as a page deep in a cursor walk, over real HTTP against a warm server.
 *
 *   node dist/bench/query-bench.js --contacts 1000000 [--data DIR] [--runs 15] [--tag T] [--cold]
 *        [--opensearch URL[,URL...] [--shards N] [--replicas N]]
 *
 * Prints p50/p95 per query and writes bench/results/query-<size>.json (query-<size>-<T>.json with --tag)
 * with the server's peak RSS. With --opensearch the service serves the same release from that OpenSearch cluster
 * (indexed into it first when needed: bench/lib/opensearch.ts) and the file is query-<size>-opensearch-<N>n[-T].json,
 * with the load rate and the cluster's heap and disk.
 *
 * The service keeps the rows of every filter its index answered and each search's page.total, so every timed call
 * after the first is a cache hit there; `--cold` serves with both caches off (CDS_QUERY_CACHE_MB=0,
 * CDS_SEARCH_TOTALS_CACHE=0, as the peer's `--cold`), so every call plans and counts again; the file's name then ends
 * in `-cold`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDataDir, benchKey } from './lib/bench-data.js';
import { poster } from './lib/http.js';
import { machine } from './lib/machine.js';
import { benchEngine, OPENSEARCH_OPTIONS } from './lib/opensearch.js';
import { querySuite } from './lib/query-suite.js';
import { COLD_CACHES_ENV, startBenchServer } from './lib/server.js';
import { percentile, round, timed } from './lib/stats.js';
import { suiteClient } from './lib/suite-client.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    runs: { type: 'string', default: '15' },
    depth: { type: 'string', default: '5000' },
    tag: { type: 'string' },
    /** The service's query and totals caches off: every call plans and counts again. */
    cold: { type: 'boolean', default: false },
    ...OPENSEARCH_OPTIONS,
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const runs = Number(values.runs);
const depth = Number(values.depth);
const dir = benchDataDir(root, contacts, values.data);
const key = benchKey(root, dir);
const SUITE = await querySuite(dir);
const engine = await benchEngine(dir, values, (s) => process.stdout.write(s));
const cold = values.cold === true;
const server = await startBenchServer(dir, {
  ...engine.env,
  ...(cold ? COLD_CACHES_ENV : {}),
});

const client = suiteClient(poster(server.url, key));

const results: Array<Record<string, unknown>> = [];
// Every sample of every query, pooled, for the suite-wide percentiles.
const pooled = { count: [] as number[], first: [] as number[], deep: [] as number[] };
try {
  for (const q of SUITE) await client.count(q); // warm the file cache once
  for (const q of SUITE) {
    const count: number[] = [];
    const first: number[] = [];
    const deep: number[] = [];
    let matches = 0;
    const deepPage = await client.deepPage(q, depth);
    for (let i = 0; i < runs; i++) {
      const c = await timed(() => client.count(q));
      count.push(c.ms);
      matches = c.value ?? -1;
      first.push((await timed(() => client.firstPage(q))).ms);
      if (deepPage) deep.push((await timed(deepPage)).ms);
    }
    const row = {
      query: q.name,
      matches,
      count_p50: round(percentile(count, 50)),
      count_p95: round(percentile(count, 95)),
      first_page_p50: round(percentile(first, 50)),
      first_page_p95: round(percentile(first, 95)),
      deep_page_p50: deep.length ? round(percentile(deep, 50)) : null,
      deep_page_p95: deep.length ? round(percentile(deep, 95)) : null,
    };
    results.push(row);
    pooled.count.push(...count);
    pooled.first.push(...first);
    pooled.deep.push(...deep);
    process.stdout.write(
      `${q.name.padEnd(34)} matches ${String(matches).padStart(9)}  count p50 ${String(row.count_p50).padStart(7)} ` +
        `p95 ${String(row.count_p95).padStart(7)}  first p50 ${String(row.first_page_p50).padStart(7)} p95 ` +
        `${String(row.first_page_p95).padStart(7)}  deep p50 ${String(row.deep_page_p50 ?? '-').padStart(7)}\n`,
    );
  }
} finally {
  const peak = server.peakRssMb();
  await server.stop();
  const summary = {
    contacts,
    runs,
    tag: values.tag ?? null,
    service_caches: cold ? 'off' : 'on',
    ...(await engine.record()),
    deep_page_depth_rows: depth,
    machine: machine(),
    at: new Date().toISOString(),
    server_peak_rss_mb: round(peak),
    suite_count_p50_ms: round(percentile(pooled.count, 50)),
    suite_count_p95_ms: round(percentile(pooled.count, 95)),
    suite_first_page_p50_ms: round(percentile(pooled.first, 50)),
    suite_first_page_p95_ms: round(percentile(pooled.first, 95)),
    suite_deep_page_p50_ms: round(percentile(pooled.deep, 50)),
    suite_deep_page_p95_ms: round(percentile(pooled.deep, 95)),
    queries: results,
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(
      root,
      'bench',
      'results',
      `query-${contacts}${[engine.name, values.tag, cold ? 'cold' : undefined]
        .filter(Boolean)
        .map((t) => `-${t}`)
        .join('')}.json`,
    ),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
  process.stdout.write(
    `\nsuite: count p50 ${summary.suite_count_p50_ms} ms, p95 ${summary.suite_count_p95_ms} ms; first page p50 ` +
      `${summary.suite_first_page_p50_ms} ms; deep page p50 ${summary.suite_deep_page_p50_ms} ms; server peak RSS ` +
      `${summary.server_peak_rss_mb} MB\n`,
  );
}
