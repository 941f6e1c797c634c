/**
 * Opt-out list benchmark (issue 17): the state store's suppression list at the size of a large delivered list.
 *
 *   node dist/bench/optouts-bench.js [--entries 100000] [--runs 5] [--tag T]
 *
 * Against SQLite (a temporary state file) and, when REDIS_URL is set, Redis (a unique key prefix, deleted at the
 * end; never FLUSHALL): an import of N new entries (half emails, half SHA-256 hashes, in OPT_OUT_CHUNK chunks), the
 * same import again (a no-op), `allOptOuts` (what the engine and the loader read; median and worst of `--runs`),
 * `optOutVersion` (what a server polls every 500 ms; median of 1,000 reads), a 1,000-entry page, and the removal of
 * every entry. Writes bench/results/optouts-<N>[-tag].json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { type OptOutEntry, sha256Of } from '../src/domain/optouts.js';
import type { StateStore } from '../src/state/port.js';
import { connectRedis } from '../src/state/redis/client.js';
import { openRedisStore } from '../src/state/redis/index.js';
import { openSqliteStore } from '../src/state/sqlite/index.js';
import { machine } from './lib/machine.js';
import { percentile, round, timed } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '5' },
    tag: { type: 'string' },
  },
});
const n = Number(values.entries);
const runs = Number(values.runs);
const PEPPER = 'bench-pepper-0123456789abcdef0123456789';
const audit = { action: 'import' as const, actor: 'bench' };

const entries: OptOutEntry[] = Array.from({ length: n }, (_, i) =>
  i % 2 === 0
    ? { type: 'email', value: `person${i}@bench.example` }
    : { type: 'sha256', value: sha256Of(`+1415${String(i).padStart(7, '0')}`) },
);

async function measure(store: StateStore) {
  const now = new Date();
  const imported = await timed(() => store.addOptOuts(entries, audit, now));
  if (imported.value.added !== n) throw new Error(`added ${imported.value.added} of ${n}`);
  const again = await timed(() => store.addOptOuts(entries, audit, now));
  const reads: number[] = [];
  for (let i = 0; i < runs; i++) {
    const r = await timed(() => store.allOptOuts());
    if (r.value.length !== n) throw new Error(`read ${r.value.length} of ${n}`);
    reads.push(r.ms);
  }
  const versions: number[] = [];
  for (let i = 0; i < 1000; i++) versions.push((await timed(() => store.optOutVersion())).ms);
  const page = await timed(() => store.listOptOuts({ limit: 1000, after: null }));
  const removed = await timed(() => store.removeOptOuts(entries, { action: 'remove', actor: 'bench' }, now));
  if (removed.value.removed !== n) throw new Error(`removed ${removed.value.removed} of ${n}`);
  return {
    import_ms: round(imported.ms),
    import_per_s: Math.round(n / (imported.ms / 1000)),
    reimport_noop_ms: round(again.ms),
    all_ms_p50: round(percentile(reads, 50)),
    all_ms_max: round(Math.max(...reads)),
    version_ms_p50: round(percentile(versions, 50), 3),
    version_ms_p99: round(percentile(versions, 99), 3),
    page_1000_ms: round(page.ms),
    remove_ms: round(removed.ms),
  };
}

const results: Record<string, unknown> = {};
const dir = mkdtempSync(join(tmpdir(), 'cds-optouts-bench-'));
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
  const prefix = `cds-bench:optouts:${process.pid}:`;
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

const out = { entries: n, runs, machine: machine(), at: new Date().toISOString(), ...results };
console.log(JSON.stringify(out, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  join('bench/results', `optouts-${n}${values.tag ? `-${values.tag}` : ''}.json`),
  `${JSON.stringify(out, null, 2)}\n`,
);
