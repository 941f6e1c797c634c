/**
 * Query benchmark (issue 3): a fixed suite of realistic audience queries, each run as a count, as a first
 * search page (100 rows) and as a page deep in a cursor walk, over real HTTP against a warm server.
 *
 *   node dist/bench/query-bench.js --contacts 1000000 [--data DIR] [--runs 15] [--tag T]
 *
 * Prints p50/p95 per query and writes bench/results/query-<size>.json (query-<size>-<T>.json with --tag)
 * with the server's peak RSS.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDataDir, benchKey } from './lib/bench-data.js';
import { poster } from './lib/http.js';
import { machine } from './lib/machine.js';
import { startBenchServer } from './lib/server.js';
import { percentile, round, timed } from './lib/stats.js';

const SUITE: Array<{ name: string; filter: Record<string, unknown> }> = [
  { name: 'us-vp-sales-software-51-500', filter: { countries: ['us'], seniority: ['vp'], functions: ['sales_and_bizdev'], industries: ['software_development'], employee_count_min: 51, employee_count_max: 500 } },
  { name: 'head-of-growth-eu', filter: { title_query: 'head of growth', countries: ['de', 'fr', 'nl', 'es', 'it', 'se', 'ie', 'be', 'at', 'pl', 'dk', 'fi', 'pt'] } },
  { name: 'skills-and-recent-funding', filter: { skills: ['python', 'sql'], last_round_after: '2025-01' } },
  { name: 'signals-new-in-role-director', filter: { seniority: ['director', 'vp'], where: { field: 'signals', op: 'eq', value: 'new_in_role_90d' } } },
  { name: 'where-tree-founders-public', filter: { where: { or: [{ field: 'signals', op: 'eq', value: 'founder' }, { and: [{ field: 'signals', op: 'eq', value: 'at_public_company' }, { field: 'seniority', op: 'eq', value: 'c_level' }] }] } } },
  { name: 'all-us (low selectivity)', filter: { countries: ['us'] } },
  { name: 'everything (empty filter)', filter: {} },
  { name: 'gb-engineering-with-email', filter: { countries: ['gb'], functions: ['engineering'], has_work_email: true } },
  { name: 'marketing-managers-11-200', filter: { functions: ['marketing_and_advertising'], seniority: ['manager'], company_size: ['11-50', '51-200'] } },
  { name: 'cfo-title-1b-revenue', filter: { title_query: ['chief financial officer', 'cfo'], company_revenue: ['1B+', '100M-1B'] } },
  { name: 'exclusions', filter: { countries: ['us', 'ca'], exclude_functions: ['engineering', 'information_technology'], exclude_seniority: ['entry', 'unknown'] } },
  { name: 'funded-series-a-b-with-phone', filter: { last_round_types: ['series_a', 'series_b'], has_phone: true } },
  { name: 'name-contains (high selectivity)', filter: { where: { field: 'name', op: 'contains', value: 'zzq' } } },
  { name: 'hq-de-founded-2015+', filter: { company_hq_countries: ['de'], founded_year_min: 2015 } },
];

const { values } = parseArgs({ options: { contacts: { type: 'string', default: '1000000' }, data: { type: 'string' }, runs: { type: 'string', default: '15' }, depth: { type: 'string', default: '5000' }, tag: { type: 'string' } } });
const root = process.cwd();
const contacts = Number(values.contacts);
const runs = Number(values.runs);
const depth = Number(values.depth);
const dir = benchDataDir(root, contacts, values.data);
const key = benchKey(root, dir);
const server = await startBenchServer(dir);

const post = poster(server.url, key);

const results: Array<Record<string, unknown>> = [];
// Every sample of every query, pooled, for the suite-wide percentiles.
const pooled = { count: [] as number[], first: [] as number[], deep: [] as number[] };
try {
  for (const q of SUITE) await post('/v1/contacts/count', { filter: q.filter }); // warm the file cache once
  for (const q of SUITE) {
    const count: number[] = [];
    const first: number[] = [];
    const deep: number[] = [];
    let matches = 0;
    // A cursor `depth` rows deep, reached with large pages (the cursor pins filter and columns, not limit).
    let deepCursor: string | null = null;
    let walked = 0;
    let cursor: string | null = null;
    while (walked < depth) {
      const page: any = await post('/v1/contacts/search', { filter: q.filter, limit: 1000, cursor, columns: ['name'] });
      walked += page.page.returned;
      cursor = page.page.next_cursor;
      if (!cursor) break;
    }
    deepCursor = walked >= depth ? cursor : null;
    for (let i = 0; i < runs; i++) {
      const c = await timed(() => post('/v1/contacts/count', { filter: q.filter }));
      count.push(c.ms);
      matches = c.value.data.count ?? -1;
      first.push((await timed(() => post('/v1/contacts/search', { filter: q.filter, limit: 100 }))).ms);
      if (deepCursor) deep.push((await timed(() => post('/v1/contacts/search', { filter: q.filter, limit: 100, cursor: deepCursor, columns: ['name'] }))).ms);
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
    process.stdout.write(`${q.name.padEnd(34)} matches ${String(matches).padStart(9)}  count p50 ${String(row.count_p50).padStart(7)} p95 ${String(row.count_p95).padStart(7)}  first p50 ${String(row.first_page_p50).padStart(7)} p95 ${String(row.first_page_p95).padStart(7)}  deep p50 ${String(row.deep_page_p50 ?? '-').padStart(7)}\n`);
  }
} finally {
  const peak = server.peakRssMb();
  await server.stop();
  const summary = {
    contacts,
    runs,
    tag: values.tag ?? null,
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
  writeFileSync(join(root, 'bench', 'results', `query-${contacts}${values.tag ? `-${values.tag}` : ''}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`\nsuite: count p50 ${summary.suite_count_p50_ms} ms, p95 ${summary.suite_count_p95_ms} ms; first page p50 ${summary.suite_first_page_p50_ms} ms; deep page p50 ${summary.suite_deep_page_p50_ms} ms; server peak RSS ${summary.server_peak_rss_mb} MB\n`);
}
