/**
 * Fairness benchmark (hardening review): two keys keep four heavy free counts in flight (family B where_sql with
 * 25 ILIKE conditions, the most where_sql takes) while a third account runs counts and searches. Prints and
 * records the third account's latencies and statuses, and how long the heavy counts took against their budget.
 *
 *   node dist/bench/fairness-bench.js --contacts 1000000 [--data DIR] [--duration 30] [--tag T]
 *
 * Writes bench/results/fairness-<contacts>[-tag].json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDataDir, benchKey } from './lib/bench-data.js';
import { machine } from './lib/machine.js';
import { startBenchServer } from './lib/server.js';
import { percentile, round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    duration: { type: 'string', default: '30' },
    tag: { type: 'string' },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const durationMs = Number(values.duration) * 1000;
const dir = benchDataDir(root, contacts, values.data);
const [abuser1, abuser2, victim] = [benchKey(root, dir), benchKey(root, dir), benchKey(root, dir)];
// The service's own limits: 2 requests in flight per key, the default budgets and pool.
const server = await startBenchServer(dir, { CDS_RATE_PER_MINUTE: '1000000', CDS_RATE_CONCURRENT: '2' });

const HEAVY = Array.from({ length: 25 }, (_, i) => `title ILIKE '%zq${i}x%'`).join(' OR ');

async function call(key: string, path: string, body: unknown): Promise<{ status: number; ms: number; body: any }> {
  const t0 = performance.now();
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  return { status: res.status, ms: performance.now() - t0, body: json };
}

const heavy: Array<{ status: number; ms: number; count: unknown }> = [];
const victimCounts: Array<{ status: number; ms: number }> = [];
const victimSearches: Array<{ status: number; ms: number }> = [];
const until = Date.now() + durationMs;

async function abuse(key: string): Promise<void> {
  while (Date.now() < until) {
    const r = await call(key, '/api/v1/contacts/search/count', { where_sql: HEAVY });
    heavy.push({ status: r.status, ms: r.ms, count: r.body.count });
  }
}

async function work(): Promise<void> {
  await new Promise((r) => setTimeout(r, 1000)); // the heavy counts are in flight first
  let i = 0;
  while (Date.now() < until) {
    const country = ['us', 'gb', 'de', 'fr'][i++ % 4];
    const c = await call(victim, '/api/v1/contacts/search/count', { countries: [country], seniority: ['Director'] });
    victimCounts.push({ status: c.status, ms: c.ms });
    const s = await call(victim, '/api/v1/contacts/search', { countries: [country], limit: 100 });
    victimSearches.push({ status: s.status, ms: s.ms });
  }
}

try {
  await Promise.all([abuse(abuser1), abuse(abuser1), abuse(abuser2), abuse(abuser2), work()]);
} finally {
  await server.stop();
}

const summary = (xs: Array<{ status: number; ms: number }>) => ({
  requests: xs.length,
  statuses: Object.fromEntries(
    [...new Set(xs.map((x) => x.status))].sort().map((s) => [s, xs.filter((x) => x.status === s).length]),
  ),
  p50_ms: round(
    percentile(
      xs.map((x) => x.ms),
      50,
    ),
  ),
  p95_ms: round(
    percentile(
      xs.map((x) => x.ms),
      95,
    ),
  ),
  max_ms: round(Math.max(...xs.map((x) => x.ms))),
});
const result = {
  bench: 'fairness',
  contacts,
  duration_s: durationMs / 1000,
  heavy_where_sql_conditions: 25,
  heavy_counts: { ...summary(heavy), timed_out_as_null: heavy.filter((h) => h.count === null).length },
  victim_counts: summary(victimCounts),
  victim_searches: summary(victimSearches),
  machine: machine(),
  at: new Date().toISOString(),
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(
  join(root, 'bench', 'results', `fairness-${contacts}${values.tag ? `-${values.tag}` : ''}.json`),
  `${JSON.stringify(result, null, 2)}\n`,
);
