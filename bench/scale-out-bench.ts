/**
 * Scale-out bench (issue 15): the load run's mix against one `cds serve` process in the embedded default (SQLite
 * state, in-memory rate windows) and in Redis mode (Redis state, rate windows and job queue), same machine, same
 * release, one run. Redis is the bench's own server (its own port, AOF with fsync always, as in docker-compose.yml).
 *
 *   node dist/bench/scale-out-bench.js [--contacts 1000000] [--duration 30] [--connections 100] [--accounts 50]
 *
 * Runs each mode twice, interleaved, and compares the second runs. Prints req/s, p50/p99 and, in Redis mode, Redis
 * commands per request (INFO commandstats before and after);
 * writes bench/results/scale-out-<N>.json.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureSecret, loadConfig } from '../src/config.js';
import { openRedisStore } from '../src/state/redis/index.js';
import { openSqliteStore } from '../src/state/sqlite/index.js';
import { startOwnRedis } from '../test/helpers/redis-server.js';
import { benchDataDir } from './lib/bench-data.js';
import { benchKeys, enrichInputs, loadRequests, runMix, statusCounts } from './lib/load-mix.js';
import { machine } from './lib/machine.js';
import { startBenchServer } from './lib/server.js';
import { round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '100' },
    accounts: { type: 'string', default: '50' },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const dir = benchDataDir(root, contacts, values.data);
const nAccounts = Number(values.accounts);
const SECRET = ensureSecret(loadConfig(['--data', dir]));

function redisCommands(port: number): number {
  const out = spawnSync('redis-cli', ['-p', String(port), 'info', 'commandstats'], { encoding: 'utf8' }).stdout;
  let calls = 0;
  for (const m of out.matchAll(/^cmdstat_[^:]+:calls=(\d+)/gm)) calls += Number(m[1]);
  return calls;
}

async function run(mode: 'sqlite' | 'redis') {
  const redis = mode === 'redis' ? await startOwnRedis() : undefined;
  try {
    const store = redis
      ? await openRedisStore({ url: redis.url, keyPepper: SECRET, dataDir: dir })
      : openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: SECRET, dataDir: dir });
    const keys = await benchKeys(store, nAccounts, `scale-${mode}`);
    await store.close();
    // The spec's limits stay in force: 300 a minute and 2 in flight per key.
    const server = await startBenchServer(dir, {
      CDS_RATE_PER_MINUTE: '300',
      CDS_RATE_CONCURRENT: '2',
      CDS_SECRET: SECRET,
      ...(redis ? { CDS_STATE: 'redis', REDIS_URL: redis.url } : {}),
    });
    try {
      const requests = loadRequests(await enrichInputs(server.url, keys[0]!));
      // Warm-up: engine caches and connections, not measured.
      await runMix({ url: server.url, keys, requests, connections: 10, duration: 10 });
      const before = redis ? redisCommands(redis.port) : 0;
      const result = await runMix({
        url: server.url,
        keys,
        requests,
        connections: Number(values.connections),
        duration: Number(values.duration),
      });
      const commands = redis ? redisCommands(redis.port) - before : 0;
      return {
        mode,
        requests: result.requests.total,
        requests_per_s: round(result.requests.average),
        statuses: statusCounts(result),
        latency_ms: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
        ...(redis ? { redis_commands_per_request: round(commands / Math.max(1, result.requests.total), 2) } : {}),
        peak_rss_mb: round(server.peakRssMb()),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await redis?.dispose();
  }
}

// Interleaved, twice each (embedded, Redis, embedded, Redis): the first pair also warms the page cache; the figures
// compared are the second run of each mode.
const firstEmbedded = await run('sqlite');
const firstRedis = await run('redis');
const embedded = await run('sqlite');
const redisMode = await run('redis');
const summary = {
  contacts,
  accounts: nAccounts,
  connections: Number(values.connections),
  duration_s: Number(values.duration),
  embedded,
  redis: redisMode,
  redis_adds_p50_ms: round(redisMode.latency_ms.p50 - embedded.latency_ms.p50, 2),
  first_runs: { embedded: firstEmbedded, redis: firstRedis },
  note:
    'redis_commands_per_request counts commands as Redis executes them: a MULTI batch or a pipelined read is one ' +
    'round trip but counts each command it holds, and the 429 answers (most of the mix) read the quota too.',
  target: 'Redis mode adds at most 2 ms to p50',
  machine: machine(),
  at: new Date().toISOString(),
};
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `scale-out-${contacts}.json`), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exit(0);
