/**
 * Request log benchmark (issue 40): what logging every keyed request costs.
 *
 *   node dist/bench/request-log-bench.js [--batches 300] [--accounts 20] [--tag T]
 *
 * Against SQLite (a temporary state file) and, when REDIS_URL is set, Redis (a unique key prefix, deleted at the
 * end): `record()` (what a request pays: a push into the buffer; median over 100,000 calls), and the writer's
 * batches of FLUSH_AT (100) entries spread over `--accounts` accounts, each account already at the 1,000 cap so
 * every batch also trims (time per batch, median and p99, and per entry). On SQLite the batch runs on the event loop
 * (better-sqlite3 is synchronous): its time is how long other requests wait once every 250 ms at most. Writes
 * bench/results/request-log-<batches>[-tag].json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { REQUEST_LOG_CAP, type RequestLogEntry } from '../src/domain/request-log.js';
import { FLUSH_AT, RequestLogRecorder } from '../src/operations/requests/recorder.js';
import type { StateStore } from '../src/state/port.js';
import { connectRedis } from '../src/state/redis/client.js';
import { openRedisStore } from '../src/state/redis/index.js';
import { openSqliteStore } from '../src/state/sqlite/index.js';
import { machine } from './lib/machine.js';
import { percentile, round, timed } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '300' },
    accounts: { type: 'string', default: '20' },
    tag: { type: 'string' },
  },
});
const batches = Number(values.batches);
const accountsN = Number(values.accounts);
const PEPPER = 'bench-pepper-0123456789abcdef0123456789';

let seq = 0;
const entryOf = (accountId: string): RequestLogEntry => ({
  requestId: `req_bench${String(seq++).padStart(10, '0')}`,
  accountId,
  at: new Date().toISOString(),
  face: 'rest',
  method: 'POST',
  route: '/v1/contacts/search',
  operation: 'contacts.search',
  status: 200,
  errorCode: null,
  credits: 100,
  durationMs: 12.3,
  keyPrefix: 'cds_AbCd',
  client: null,
});

async function measure(store: StateStore) {
  const accounts: string[] = [];
  for (let i = 0; i < accountsN; i++)
    accounts.push(
      (await store.createAccount({ name: `a${i}`, plan: 'unlimited', billingDay: null, now: new Date() })).id,
    );
  // Every account at the cap first, so each batch below also trims.
  for (const a of accounts)
    await store.appendRequestLog(
      Array.from({ length: REQUEST_LOG_CAP }, () => entryOf(a)),
      REQUEST_LOG_CAP,
    );
  const times: number[] = [];
  for (let b = 0; b < batches; b++) {
    const batch = Array.from({ length: FLUSH_AT }, (_, i) => entryOf(accounts[(b * FLUSH_AT + i) % accountsN]!));
    times.push((await timed(() => store.appendRequestLog(batch, REQUEST_LOG_CAP))).ms);
  }
  const kept = await store.listRequestLog(accounts[0]!);
  if (kept.length !== REQUEST_LOG_CAP) throw new Error(`kept ${kept.length}, not ${REQUEST_LOG_CAP}`);
  const reads: number[] = [];
  for (let i = 0; i < 50; i++) reads.push((await timed(() => store.listRequestLog(accounts[i % accountsN]!))).ms);
  return {
    batch_ms_p50: round(percentile(times, 50), 2),
    batch_ms_p99: round(percentile(times, 99), 2),
    per_entry_us_p50: round((percentile(times, 50) * 1000) / FLUSH_AT, 1),
    read_1000_ms_p50: round(percentile(reads, 50), 2),
  };
}

// What a request pays: record() into a recorder whose writes go nowhere slow (flushes are not awaited here).
function recordCost(): number {
  const sink = { appendRequestLog: async () => {} } as unknown as StateStore;
  const r = new RequestLogRecorder({ state: sink, logger: pino({ level: 'silent' }) });
  const n = 100_000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) r.record(entryOf('acc_x'));
  return round(Number(process.hrtime.bigint() - t0) / n / 1000, 3);
}

const results: Record<string, unknown> = { record_us: recordCost() };
const dir = mkdtempSync(join(tmpdir(), 'cds-reqlog-bench-'));
try {
  const sqlite = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: PEPPER });
  try {
    results.sqlite = await measure(sqlite);
  } finally {
    await sqlite.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const url = process.env.REDIS_URL;
if (url) {
  const prefix = `cds-bench:reqlog:${process.pid}:`;
  const redis = await openRedisStore({ url, prefix, keyPepper: PEPPER });
  try {
    results.redis = await measure(redis);
  } finally {
    await redis.close();
    const client = await connectRedis({ url });
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 }))
      if (keys.length > 0) await client.del(keys);
    await client.close();
  }
} else {
  console.warn('REDIS_URL is not set: Redis not measured');
}

const out = {
  batches,
  accounts: accountsN,
  batch_entries: FLUSH_AT,
  machine: machine(),
  at: new Date().toISOString(),
  ...results,
};
console.log(JSON.stringify(out, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  join('bench/results', `request-log-${batches}${values.tag ? `-${values.tag}` : ''}.json`),
  `${JSON.stringify(out, null, 2)}\n`,
);
