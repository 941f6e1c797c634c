import { parentPort, workerData } from 'node:worker_threads';
import type { Plan } from '../../src/domain/account.js';
import type { StateStore } from '../../src/state/port.js';
import { openRedisStore } from '../../src/state/redis/index.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

/**
 * One "process" of the claim race: its own connection to the store (the SQLite file, or Redis under the test's
 * prefix), claiming and finishing until the queue is empty.
 */
interface Race {
  /** The SQLite file, unless `redis` is given. */
  file?: string;
  redis?: { url: string; prefix: string };
  pepper: string;
  plans: Plan[];
  worker: string;
  now: string;
  /** Shared start gate: 0 = wait, 1 = go. */
  gate: Int32Array;
}

const race = workerData as Race;
const store: StateStore = race.redis
  ? await openRedisStore({ url: race.redis.url, prefix: race.redis.prefix, keyPepper: race.pepper, plans: race.plans })
  : openSqliteStore({ file: race.file!, keyPepper: race.pepper, plans: race.plans });
const now = new Date(race.now);
parentPort!.postMessage('ready');
Atomics.wait(race.gate, 0, 0);
const claimed: string[] = [];
for (;;) {
  const job = await store.claimJob(['export'], now, race.worker);
  if (!job) break;
  claimed.push(job.id);
  await store.finishJob(job.id, { status: 'completed', charge: 1, attempt: job.attempts }, now);
}
await store.close();
parentPort!.postMessage({ claimed });
