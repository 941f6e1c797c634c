/**
 * Enrichment benchmark (issue 4): POST /v1/enrichments with 100 mixed inputs (work emails in several forms,
 * phones, profile URLs, and misses) over HTTP against a warm server.
 *
 *   node dist/bench/enrich-bench.js --contacts 1000000 [--data DIR] [--runs 30]
 *
 * Prints p50/p95 and writes bench/results/enrich-<N>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDataDir, benchKey } from './lib/bench-data.js';
import { poster } from './lib/http.js';
import { startBenchServer } from './lib/server.js';
import { percentile, round, timed } from './lib/stats.js';

const { values } = parseArgs({ options: { contacts: { type: 'string', default: '1000000' }, data: { type: 'string' }, runs: { type: 'string', default: '30' } } });
const root = process.cwd();
const contacts = Number(values.contacts);
const runs = Number(values.runs);
const dir = benchDataDir(root, contacts, values.data);
const key = benchKey(root, dir);
const server = await startBenchServer(dir);

const post = poster(server.url, key);

// A pool of real identifiers spread over the release (pages far apart), plus misses.
const pool: string[] = [];
let cursor: string | null = null;
for (let i = 0; i < 8; i++) {
  const page: any = await post('/v1/contacts/search', { filter: {}, limit: 1000, cursor, columns: ['work_email', 'mobile_phone', 'direct_phone', 'network'] });
  for (const r of page.data.filter((_: unknown, j: number) => j % 10 === 0)) {
    if (r.work_email) pool.push(pool.length % 3 === 0 ? `Someone <${String(r.work_email).toUpperCase()}>` : r.work_email);
    if (r.mobile_phone) pool.push(r.mobile_phone);
    if (r.direct_phone) pool.push(r.direct_phone);
    if (r.network) pool.push(r.network);
  }
  cursor = page.page.next_cursor;
  // Jump ahead: the bench wants identifiers from the whole release, not its first rows.
  for (let s = 0; s < 5 && cursor; s++) cursor = (await post('/v1/contacts/search', { filter: {}, limit: 1000, cursor, columns: ['work_email', 'mobile_phone', 'direct_phone', 'network'] })).page.next_cursor;
  if (!cursor) break;
}
for (let i = 0; i < 200; i++) pool.push(i % 2 ? `nobody${i}@nowhere-${i}.example` : `+1 415 555 ${String(1000 + i).slice(-4)}`);

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const times: number[] = [];
let matched = 0;
try {
  await post('/v1/enrichments', { inputs: pool.slice(0, 100) }); // warm
  for (let i = 0; i < runs; i++) {
    const inputs = Array.from({ length: 100 }, () => pool[Math.floor(rand() * pool.length)]!);
    const t = await timed(() => post('/v1/enrichments', { inputs }));
    times.push(t.ms);
    matched += t.value.data.filter((r: { matched: boolean }) => r.matched).length;
  }
} finally {
  const peak = server.peakRssMb();
  await server.stop();
  const summary = { contacts, runs, inputs_per_call: 100, pool: pool.length, matched_share: round(matched / (runs * 100), 2), p50_ms: round(percentile(times, 50)), p95_ms: round(percentile(times, 95)), server_peak_rss_mb: round(peak), at: new Date().toISOString() };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', `enrich-${contacts}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}
