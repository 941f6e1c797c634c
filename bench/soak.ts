/**
 * Soak (issue 42): the mixed load at 1 M for N minutes over two API processes and a worker in Redis mode (the bench's
 * own redis-server on its own port), a worker SIGKILLed every `--kill-every` minutes (a new one started at once) and
 * Redis restarted once (stopped for `--redis-down` seconds at half time).
 *
 *   node dist/bench/soak.js [--minutes 30] [--contacts 1000000] [--accounts 12] [--concurrency 8] [--kill-every 5]
 *
 * The mix, per loop iteration, one account after another: counts, searches, enrichments, exports (polled to the end),
 * CSV uploads (REST upload link, the page's file and start calls, the run polled to the end), alerts (created, run
 * now with poll, deleted at the account's next alert step), credits reads; and opt-outs landing through the operator
 * route every 15 s. Recorded in bench/results/soak-<minutes>m.json: requests and outcomes by route and status (5xx
 * outside the Redis outage are failures; 503 is expected while Redis is down), credits used = rows delivered for every
 * account (searches and enrichments by the rows they returned, exports and upload runs by the rows their jobs charged,
 * alert runs by the rows they wrote with a matched contact, read back from GET /v1/signals?source_type=alert at the
 * end; `credits_used` is the day's use less what the account had used before the load, the enrichment inputs'
 * search), nothing held at the end (contact and premium), every export completed or failed with its hold released, RSS of every process sampled every 10 s with a
 * least-squares slope after warm-up (the first fifth), p50/p99 latency by route, and the machine's load average
 * beside them (the machine's 2 cores are shared with other work: latency carries that noise).
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSecret, loadConfig } from '../src/config.js';
import { openRedisStore } from '../src/state/redis/index.js';
import { cds } from '../test/helpers/child-server.js';
import { startOwnRedis } from '../test/helpers/redis-server.js';
import { benchDataDir } from './lib/bench-data.js';
import { benchKeys, enrichInputs } from './lib/load-mix.js';
import { machine } from './lib/machine.js';
import { type BenchServer, startBenchServer } from './lib/server.js';
import { percentile, round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    accounts: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '8' },
    'kill-every': { type: 'string', default: '5' },
    'redis-down': { type: 'string', default: '10' },
    /** 0: no alerts in the mix. */
    alerts: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});
const root = process.cwd();
const minutes = Number(values.minutes);
const contacts = Number(values.contacts);
const dir = benchDataDir(root, contacts, values.data);
const SECRET = ensureSecret(loadConfig(['--data', dir]));
const ADMIN = 'soak-operator-token-0123456789abcdef0123';
const durationMs = minutes * 60_000;
const killEveryMs = Number(values['kill-every']) * 60_000;
const redisDownMs = Number(values['redis-down']) * 1000;

const rssOf = (pid: number | undefined): number => {
  if (!pid) return 0;
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
};

const redis = await startOwnRedis();
const filesDir = mkdtempSync(join(tmpdir(), 'cds-soak-files-'));
const env = {
  CDS_STATE: 'redis',
  REDIS_URL: redis.url,
  CDS_SECRET: SECRET,
  CDS_FILES_DIR: filesDir,
  CDS_ADMIN_TOKEN: ADMIN,
  CDS_LOG_LEVEL: 'warn',
  CDS_JOB_HEARTBEAT_MS: '1000',
  CDS_JOB_STALE_MS: '10000',
};
const store = await openRedisStore({ url: redis.url, keyPepper: SECRET, dataDir: dir });
const keys = await benchKeys(store, Number(values.accounts), 'soak');
await store.close();

// Two API processes (the spec's limits: 300 a minute, 2 in flight per key) and a worker.
const apiEnv = { ...env, CDS_WORKERS: '0', CDS_RATE_PER_MINUTE: '300', CDS_RATE_CONCURRENT: '2' };
const apis: BenchServer[] = await Promise.all([startBenchServer(dir, apiEnv), startBenchServer(dir, apiEnv)]);
let worker: ChildProcess = await startWorker();
const workerPids: number[] = [worker.pid!];

function startWorker(): Promise<ChildProcess> {
  const child = cds(['worker', '--data', dir], { ...env, CDS_WORKERS: '2' });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('worker ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker exited (${code}) before ready`)));
  });
}

// --- recording -------------------------------------------------------------------------------------------------
const started = Date.now();
const latencies = new Map<string, number[]>();
const outcomes = new Map<string, Record<string, number>>();
const unexpected5xx: Array<{ route: string; status: number; at_s: number; body: string }> = [];
const outages: Array<{ from: number; to: number }> = [];
const events: Array<{ at_s: number; event: string }> = [];
const event = (e: string) => events.push({ at_s: round((Date.now() - started) / 1000), event: e });
interface Ledger {
  /** Credits the synchronous answers (searches, enrichments) reported, and the rows they returned. */
  charged: number;
  delivered: number;
  /** Charging requests (search, enrich) that got no 200 answer: 503 or a broken connection. */
  unanswered_charging: number;
  exports: string[];
  runs: string[];
  export_rows: number;
  run_credits: number;
  finished_exports: Array<{ id: string; status: string; rows_exported: number }>;
  /** The account's live alert (created, polled, deleted at its next alert step or at the end). */
  live_alert: string | null;
  alerts_created: number;
  /** Read at the end from GET /v1/signals?source_type=alert: rows written with a contact (one contact credit each). */
  alert_rows: number;
  alert_rows_with_contact: number;
  alert_leads: number;
}
const ledgers = keys.map(
  (): Ledger => ({
    charged: 0,
    delivered: 0,
    unanswered_charging: 0,
    exports: [],
    runs: [],
    export_rows: 0,
    run_credits: 0,
    finished_exports: [],
    live_alert: null,
    alerts_created: 0,
    alert_rows: 0,
    alert_rows_with_contact: 0,
    alert_leads: 0,
  }),
);
let apiTurn = 0;

function inOutage(t: number): boolean {
  // A request that began or ended while Redis was down (plus 5 s for reconnecting) may answer 503.
  return outages.some((o) => t >= o.from - 1000 && t <= (o.to || Number.POSITIVE_INFINITY) + 5000);
}

async function call(
  route: string,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  base?: string,
): Promise<{ status: number; json: any }> {
  const url = `${base ?? apis[apiTurn++ % apis.length]!.url}${path}`;
  const headers: Record<string, string> = {};
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined && typeof body !== 'string') headers['Content-Type'] = 'application/json';
  if (typeof body === 'string') headers['Content-Type'] = 'text/csv';
  const t0 = Date.now();
  let status = 0;
  let text = '';
  try {
    const res = await fetch(url, {
      method,
      headers,
      ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(60_000),
    });
    status = res.status;
    text = await res.text();
  } catch (e) {
    text = String(e);
  }
  const ms = Date.now() - t0;
  (latencies.get(route) ?? latencies.set(route, []).get(route)!).push(ms);
  const o = outcomes.get(route) ?? outcomes.set(route, {}).get(route)!;
  o[String(status)] = (o[String(status)] ?? 0) + 1;
  if ((status >= 500 || status === 0) && !(status === 503 && (inOutage(t0) || inOutage(Date.now()))))
    unexpected5xx.push({ route, status, at_s: round((t0 - started) / 1000), body: text.slice(0, 300) });
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status, json };
}

const credited = (i: number, r: { status: number; json: any }, rows: number) => {
  if (r.status >= 500 || r.status === 0) ledgers[i]!.unanswered_charging++;
  if (r.status !== 200) return;
  ledgers[i]!.charged += Number(r.json?.quota?.contact_credits_used ?? r.json?.meta?.contact_credits_used ?? 0);
  ledgers[i]!.delivered += rows;
};

// --- the mix ---------------------------------------------------------------------------------------------------
const inputs = await enrichInputs(apis[0]!.url, keys[0]!);
// What each account used before the load: the search above (20 rows on account 0, which its ledger never saw: the +20
// of soak-6m-no-alerts.json, issue 42). The check compares the credits the load used with the rows it delivered.
const usedBefore: number[] = [];
for (const key of keys) {
  const r = await call('credits_before_load', key, 'GET', '/v1/credits');
  usedBefore.push(Number(r.json?.data?.contact?.day?.used ?? Number.NaN));
}
const countries = ['us', 'de', 'fr', 'gb', 'nl', 'es', 'it', 'ca'];
let n = 0;
async function step(i: number): Promise<void> {
  const key = keys[i]!;
  const pick = n++ % 20;
  const country = countries[n % countries.length]!;
  if (pick < 6) {
    await call('count', key, 'POST', '/v1/contacts/count', { filter: { countries: [country], seniority: ['vp'] } });
  } else if (pick < 11) {
    const r = await call('search', key, 'POST', '/v1/contacts/search', {
      filter: { countries: [country], seniority: ['director', 'vp'] },
      limit: 5 + (n % 10),
    });
    credited(i, r, Array.isArray(r.json?.data) ? r.json.data.length : 0);
  } else if (pick < 15) {
    const r = await call('enrich', key, 'POST', '/v1/enrichments', { inputs: inputs.slice(n % 10, (n % 10) + 5) });
    credited(i, r, Array.isArray(r.json?.data) ? r.json.data.filter((x: any) => x.matched).length : 0);
  } else if (pick === 15) {
    const r = await call('export', key, 'POST', '/v1/exports', { filter: { countries: [country] }, max_rows: 200 });
    if (r.status === 202) ledgers[i]!.exports.push(r.json.data.export_id);
  } else if (pick === 16) {
    await upload(i);
  } else if (pick === 17 && values.alerts !== '0') {
    await alertStep(i);
  } else {
    await call('credits', key, 'GET', '/v1/credits');
  }
}

/**
 * An alert's life in the mix: created, run now (poll; its scheduled first run may beat the poll: 409 alert.busy), and
 * deleted at the account's next alert step (a run still going is cancelled there), so runs write rows meanwhile. Each
 * row written with a matched contact costs one contact credit (the alert's premium credits are apart); the ledger
 * reads those rows back at the end from GET /v1/signals, as a user would.
 */
async function alertStep(i: number): Promise<void> {
  const key = keys[i]!;
  const l = ledgers[i]!;
  const r = await call('alert_create', key, 'POST', '/v1/signals/alerts', {
    kind: 'network_profile',
    target: `https://www.network.com/in/soak-${i}-${n}`,
  });
  const previous = l.live_alert;
  if (r.status === 201) {
    l.alerts_created++;
    l.live_alert = r.json.data.id as string;
    await call('alert_poll', key, 'POST', `/v1/signals/alerts/${l.live_alert}/poll`, {});
  }
  if (previous) {
    const d = await call('alert_delete', key, 'DELETE', `/v1/signals/alerts/${previous}`);
    // Not deleted (429, 503): the end deletes every alert the account still has.
    if (r.status !== 201 && (d.status === 200 || d.status === 404)) l.live_alert = null;
  }
}

/** Deletes every alert the account still has (GET /v1/signals/alerts), retrying refusals until the deadline. */
async function deleteAllAlerts(i: number, deadline: number): Promise<number> {
  const key = keys[i]!;
  let deleted = 0;
  for (;;) {
    const list = await call('alert_list', key, 'GET', '/v1/signals/alerts');
    const ids = list.status === 200 ? (list.json.data as Array<{ id: string }>).map((a) => a.id) : null;
    if (ids?.length === 0 || Date.now() > deadline) return deleted;
    for (const id of ids ?? []) {
      const d = await call('alert_delete', key, 'DELETE', `/v1/signals/alerts/${id}`);
      if (d.status === 200) deleted++;
    }
    if (ids === null) await new Promise((res) => setTimeout(res, 1000));
  }
}

/** Every alert row of the account (GET /v1/signals?source_type=alert, page by page). */
async function readAlertRows(i: number): Promise<{ rows: number; withContact: number; leads: number } | null> {
  const key = keys[i]!;
  const got = { rows: 0, withContact: 0, leads: 0 };
  let cursor: string | null = null;
  for (;;) {
    const q = `/v1/signals?source_type=alert&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    let r = await call('signals_list', key, 'GET', q);
    for (let tries = 0; r.status !== 200 && tries < 30; tries++) {
      await new Promise((res) => setTimeout(res, 1000));
      r = await call('signals_list', key, 'GET', q);
    }
    if (r.status !== 200) return null;
    for (const row of r.json.data as Array<{ contact: unknown; lead: boolean }>) {
      got.rows++;
      if (row.contact !== null) got.withContact++;
      if (row.lead) got.leads++;
    }
    cursor = r.json.page?.next_cursor ?? null;
    if (!cursor) return got;
  }
}

async function upload(i: number): Promise<void> {
  const key = keys[i]!;
  const r = await call('upload_link', key, 'POST', '/v1/enrichment-uploads', {});
  if (r.status !== 201) return;
  const link = new URL(r.json.data.upload_url as string);
  const at = (action: string) => `${link.pathname}/${action}${link.search}`;
  // The link names the public address; the bench sends it to one of its own processes.
  const base = apis[apiTurn++ % apis.length]!.url;
  const csv = `Email,Name\r\n${inputs
    .filter((x) => x.includes('@'))
    .slice(0, 6)
    .map((e, j) => `${e},P${j}`)
    .join('\r\n')}\r\nnobody-${n}@nowhere.example,X\r\n`;
  const file = await call('upload_file', null, 'POST', at('file'), csv, base);
  if (file.status !== 200) return;
  const start = await call('upload_start', null, 'POST', at('start'), { mapping: file.json.mapping }, base);
  if (start.status === 200) ledgers[i]!.runs.push(start.json.run_id);
}

// --- chaos ------------------------------------------------------------------------------------------------------
const timers: NodeJS.Timeout[] = [];
timers.push(
  setInterval(async () => {
    event(`worker ${worker.pid} SIGKILL`);
    worker.kill('SIGKILL');
    try {
      worker = await startWorker();
      workerPids.push(worker.pid!);
      event(`worker ${worker.pid} ready`);
    } catch (e) {
      event(`worker restart failed: ${String(e)}`);
    }
  }, killEveryMs),
);
timers.push(
  setTimeout(async () => {
    const o = { from: Date.now(), to: 0 };
    outages.push(o);
    event('redis stop');
    await redis.stop();
    await new Promise((r) => setTimeout(r, redisDownMs));
    try {
      await redis.start();
    } catch (e) {
      // The helper waits 10 s for PONG; a large AOF (alert rows) may take longer to load: wait for it here.
      event(`redis slow to answer: ${String(e)}`);
      const until = Date.now() + 5 * 60_000;
      while (
        Date.now() < until &&
        spawnSync('redis-cli', ['-p', String(redis.port), 'ping'])
          .stdout?.toString()
          .trim() !== 'PONG'
      )
        await new Promise((r) => setTimeout(r, 250));
    }
    o.to = Date.now();
    event('redis started');
  }, durationMs / 2),
);
let optoutSeq = 0;
timers.push(
  setInterval(() => {
    const values = Array.from({ length: 5 }, () => `soak-optout-${optoutSeq++}@example.com`);
    void call('optouts_add', ADMIN, 'POST', '/v1/admin/optouts', { type: 'email', values });
  }, 15_000),
);
const samples: Array<{ t_s: number; load1: number; api1: number; api2: number; worker: number; bench: number }> = [];
const sample = () =>
  samples.push({
    t_s: round((Date.now() - started) / 1000),
    load1: round(loadavg()[0]!, 2),
    api1: round(rssOf(apis[0]!.pid)),
    api2: round(rssOf(apis[1]!.pid)),
    worker: round(rssOf(worker.pid)),
    bench: round(process.memoryUsage().rss / 2 ** 20),
  });
sample();
timers.push(setInterval(sample, 10_000));

// --- run --------------------------------------------------------------------------------------------------------
const until = started + durationMs;
await Promise.all(
  Array.from({ length: Number(values.concurrency) }, async (_, c) => {
    let i = c % keys.length;
    while (Date.now() < until) {
      await step(i);
      i = (i + 1) % keys.length;
    }
  }),
);
for (const t of timers) clearInterval(t);
event('load stopped');

// --- settle: every export and upload run ends; then credits ---------------------------------------------------
const exportsOutcome: Record<string, number> = {};
const runsOutcome: Record<string, number> = {};
// Thousands of upload runs under each key's 300 requests a minute: polled one by one for all accounts in turn,
// 5 minutes was too short (1,192 runs unread in soak-30m-alerts-ledger.json). Now every account is settled at once
// (each under its own key's limit), within 15 minutes; a 429 waits a whole second before the next poll.
const settleUntil = Date.now() + 15 * 60_000;
// Alerts first: deleting cancels a run still going (it stops at its next batch), so runs end while exports settle.
const alertsDeletedAtEnd: number[] = [];
if (values.alerts !== '0')
  for (const i of ledgers.keys()) alertsDeletedAtEnd.push(await deleteAllAlerts(i, settleUntil));
const settleAccount = async (i: number): Promise<void> => {
  const l = ledgers[i]!;
  for (const id of l.exports) {
    for (;;) {
      const r = await call('export_get', keys[i]!, 'GET', `/v1/exports/${id}`);
      const s = r.json?.data?.status as string | undefined;
      if (s === 'completed' || s === 'failed' || Date.now() > settleUntil) {
        exportsOutcome[s ?? 'unknown'] = (exportsOutcome[s ?? 'unknown'] ?? 0) + 1;
        if (s === 'completed') l.export_rows += Number(r.json.data.rows_exported ?? 0);
        l.finished_exports.push({
          id,
          status: s ?? 'unknown',
          rows_exported: Number(r.json?.data?.rows_exported ?? 0),
        });
        break;
      }
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
  for (const id of l.runs) {
    for (;;) {
      const r = await call('run_get', keys[i]!, 'GET', `/v1/enrichment-runs/${id}`);
      const s = r.json?.data?.status as string | undefined;
      if (s === 'completed' || s === 'failed' || Date.now() > settleUntil) {
        runsOutcome[s ?? 'unknown'] = (runsOutcome[s ?? 'unknown'] ?? 0) + 1;
        if (s === 'completed') l.run_credits += Number(r.json.data.credits ?? 0);
        break;
      }
      await new Promise((res) => setTimeout(res, 1000));
    }
  }
};
await Promise.all([...ledgers.keys()].map(settleAccount));
// Alert rows: read until two reads 5 s apart agree (a cancelled run may still be writing its last batch).
const alertRowsUnread: number[] = [];
if (values.alerts !== '0') {
  for (const [i, l] of ledgers.entries()) {
    let last = await readAlertRows(i);
    for (let k = 0; k < 24; k++) {
      await new Promise((res) => setTimeout(res, 5000));
      const again = await readAlertRows(i);
      const same = last && again && again.rows === last.rows && again.withContact === last.withContact;
      last = again;
      if (same) break;
    }
    if (!last) alertRowsUnread.push(i);
    l.alert_rows = last?.rows ?? Number.NaN;
    l.alert_rows_with_contact = last?.withContact ?? Number.NaN;
    l.alert_leads = last?.leads ?? Number.NaN;
  }
}
const accounts = [];
for (const [i, l] of ledgers.entries()) {
  const r = await call('credits', keys[i]!, 'GET', '/v1/credits');
  const day = r.json?.data?.contact?.day ?? {};
  const premium = r.json?.data?.premium ?? {};
  const delivered =
    l.delivered + l.export_rows + l.run_credits + (values.alerts !== '0' ? l.alert_rows_with_contact : 0);
  const usedByLoad = Number(day.used ?? Number.NaN) - usedBefore[i]!;
  accounts.push({
    account: i,
    credits_used: usedByLoad,
    credits_used_before_load: usedBefore[i],
    credits_held: Number(day.held ?? -1),
    rows_delivered: delivered,
    sync_rows: l.delivered,
    sync_credits_reported: l.charged,
    export_rows: l.export_rows,
    upload_run_credits: l.run_credits,
    alert_rows_with_contact: l.alert_rows_with_contact,
    alert_rows: l.alert_rows,
    alert_leads: l.alert_leads,
    alerts_created: l.alerts_created,
    alerts_deleted_at_end: alertsDeletedAtEnd[i] ?? 0,
    premium_used: Number(premium.used ?? Number.NaN),
    premium_held: Number(premium.held ?? -1),
    unanswered_charging_requests: l.unanswered_charging,
    exports: l.exports.length,
    upload_runs: l.runs.length,
    ok: usedByLoad === delivered && Number(day.held) === 0 && (values.alerts === '0' || Number(premium.held) === 0),
    finished_exports: l.finished_exports,
  });
}
sample();

/** Least-squares slope of y over t (MB per minute), after warm-up (the first fifth of the run). */
function slope(key: 'api1' | 'api2' | 'worker'): number {
  const pts = samples.filter((s) => s.t_s >= (durationMs / 1000) * 0.2 && s.t_s <= durationMs / 1000 && s[key] > 0);
  if (pts.length < 3) return Number.NaN;
  const mt = pts.reduce((a, p) => a + p.t_s, 0) / pts.length;
  const my = pts.reduce((a, p) => a + p[key], 0) / pts.length;
  const num = pts.reduce((a, p) => a + (p.t_s - mt) * (p[key] - my), 0);
  const den = pts.reduce((a, p) => a + (p.t_s - mt) ** 2, 0);
  return round((num / den) * 60, 3);
}
const byRoute = Object.fromEntries(
  [...latencies].map(([route, ms]) => [
    route,
    { requests: ms.length, p50_ms: percentile(ms, 50), p99_ms: percentile(ms, 99), statuses: outcomes.get(route) },
  ]),
);
const loads = samples.map((s) => s.load1);
const summary = {
  minutes,
  alerts_in_mix: values.alerts !== '0',
  contacts,
  accounts: keys.length,
  concurrency: Number(values.concurrency),
  processes: { api: apis.map((a) => a.pid), worker_pids: workerPids },
  events,
  requests: [...latencies.values()].reduce((a, l) => a + l.length, 0),
  routes: byRoute,
  unexpected_5xx: unexpected5xx.length,
  unexpected_5xx_first: unexpected5xx.slice(0, 10),
  credits: { every_account_used_equals_delivered_and_nothing_held: accounts.every((a) => a.ok), accounts },
  exports: exportsOutcome,
  upload_runs: runsOutcome,
  rss_mb: {
    slope_mb_per_min_after_warmup: { api1: slope('api1'), api2: slope('api2'), worker: slope('worker') },
    first: samples[0],
    last: samples[samples.length - 1],
    max: {
      api1: Math.max(...samples.map((s) => s.api1)),
      api2: Math.max(...samples.map((s) => s.api2)),
      worker: Math.max(...samples.map((s) => s.worker)),
    },
  },
  machine_load: {
    load1_mean: round(loads.reduce((a, b) => a + b, 0) / loads.length, 2),
    load1_max: Math.max(...loads),
    note: 'load average of the whole machine (2 cores shared with other work during the run): latency carries that noise',
  },
  samples,
  machine: machine(),
  at: new Date().toISOString(),
};
await Promise.all(apis.map((a) => a.stop()));
worker.kill('SIGTERM');
await redis.dispose();
rmSync(filesDir, { recursive: true, force: true });
spawnSync('true');
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const out = join(root, 'bench', 'results', values.out ?? `soak-${minutes}m.json`);
writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
const { samples: _s, ...brief } = summary;
process.stdout.write(`${JSON.stringify(brief, null, 2)}\n`);
process.exit(0);
