/**
 * Load run (issue 6): many accounts and connections mixing count, search, enrich and account reads against a
 * warm server over loopback, with the spec's per-key limits in force (so 429s are expected and counted).
 *
 *   node dist/bench/load-bench.js --contacts 1000000 [--data DIR] [--duration 60] [--connections 200] [--accounts 100]
 *
 * Prints status counts, latency percentiles and the server's RSS over time; writes bench/results/load-<N>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { ensureSecret, loadConfig } from '../src/config.js';
import { openSqliteStore } from '../src/state/sqlite/index.js';
import { benchDataDir } from './lib/bench-data.js';
import { machine } from './lib/machine.js';
import { startBenchServer } from './lib/server.js';
import { round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    duration: { type: 'string', default: '60' },
    connections: { type: 'string', default: '200' },
    accounts: { type: 'string', default: '100' },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const dir = benchDataDir(root, contacts, values.data);
const nAccounts = Number(values.accounts);

const store = openSqliteStore({
  file: join(dir, 'state.sqlite'),
  keyPepper: ensureSecret(loadConfig(['--data', dir])),
  dataDir: dir,
});
const now = new Date();
const keys = Array.from({ length: nAccounts }, (_, i) => {
  const a = store.createAccount({ name: `load-${i}`, plan: 'bench', billingDay: null, now });
  return store.createKey(a.id, { name: 'load', now }).secret;
});
store.close();

// The spec's limits stay in force: 300 a minute and 2 in flight per key.
const server = await startBenchServer(dir, { CDS_RATE_PER_MINUTE: '300', CDS_RATE_CONCURRENT: '2' });
const sample = await fetch(`${server.url}/v1/contacts/search`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${keys[0]}`, 'Content-Type': 'application/json' },
  body: JSON.stringify({
    filter: { has_work_email: true, has_phone: true },
    limit: 20,
    columns: ['work_email', 'mobile_phone'],
  }),
});
const sampleRows = ((await sample.json()) as { data: Array<{ work_email: string; mobile_phone: string | null }> }).data;
const inputs = sampleRows.flatMap((r) => [r.work_email, r.mobile_phone].filter((x): x is string => !!x)).slice(0, 20);

const json = { 'content-type': 'application/json' };
const REQUESTS = [
  {
    method: 'POST',
    path: '/v1/contacts/count',
    headers: json,
    body: JSON.stringify({ filter: { countries: ['us'], seniority: ['vp', 'director'] } }),
  },
  {
    method: 'POST',
    path: '/v1/contacts/search',
    headers: json,
    body: JSON.stringify({
      filter: { functions: ['sales_and_bizdev'], company_size: ['51-200', '201-500'] },
      limit: 25,
    }),
  },
  { method: 'POST', path: '/v1/enrichments', headers: json, body: JSON.stringify({ inputs: inputs.slice(0, 10) }) },
  { method: 'GET', path: '/v1/account', headers: {} },
  {
    method: 'POST',
    path: '/v1/contacts/count',
    headers: json,
    body: JSON.stringify({ filter: { title_query: 'head of growth' } }),
  },
  { method: 'GET', path: '/v1/credits', headers: {} },
];

const rss: Array<{ t: number; mb: number }> = [];
const started = Date.now();
const sampler = setInterval(
  () => rss.push({ t: round((Date.now() - started) / 1000, 0), mb: round(server.rssMb()) }),
  1000,
);
let client = 0;
const result = await autocannon({
  url: server.url,
  connections: Number(values.connections),
  duration: Number(values.duration),
  requests: REQUESTS as autocannon.Request[],
  setupClient: (c) => {
    const key = keys[client++ % keys.length];
    c.setRequests(
      REQUESTS.map((r) => ({
        ...r,
        headers: { ...r.headers, authorization: `Bearer ${key}` },
      })) as autocannon.Request[],
    );
  },
});
clearInterval(sampler);
const peak = server.peakRssMb();
await server.stop();

const statuses = Object.fromEntries(
  Object.entries(result.statusCodeStats ?? {}).map(([k, v]) => [k, Number((v as { count: number }).count)]),
);
const fiveXX = Object.entries(statuses)
  .filter(([k]) => k.startsWith('5'))
  .reduce((s, [, n]) => s + n, 0);
const at10 = rss.find((r) => r.t >= 10)?.mb ?? rss[0]?.mb ?? 0;
const last = rss[rss.length - 1]?.mb ?? 0;
const summary = {
  contacts,
  accounts: nAccounts,
  connections: Number(values.connections),
  duration_s: Number(values.duration),
  requests: result.requests.total,
  requests_per_s: round(result.requests.average),
  statuses,
  server_errors_5xx: fiveXX,
  errors: result.errors,
  timeouts: result.timeouts,
  latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  rss_mb: {
    at_10s: at10,
    last,
    peak: round(peak),
    growth_after_10s_pct: at10 ? round(((last - at10) / at10) * 100) : null,
  },
  machine: machine(),
  at: new Date().toISOString(),
};
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `load-${contacts}.json`), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exit(fiveXX === 0 ? 0 : 1);
