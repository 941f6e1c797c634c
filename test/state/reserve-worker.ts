import { parentPort, workerData } from 'node:worker_threads';
import type { Plan } from '../../src/domain/account.js';
import { AppError } from '../../src/domain/errors/index.js';
import type { StateStore } from '../../src/state/port.js';
import { openRedisStore } from '../../src/state/redis/index.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

/**
 * One "process" of the concurrency test: its own connection to the store (the SQLite file, or Redis under the
 * test's prefix), reserving and committing in a loop.
 */
interface Job {
  /** The SQLite file, unless `redis` is given. */
  file?: string;
  redis?: { url: string; prefix: string };
  pepper: string;
  plans: Plan[];
  accountId: string;
  now: string;
  rounds: number;
  /** Shared start gate: 0 = wait, 1 = go. */
  gate: Int32Array;
}

const job = workerData as Job;
const store: StateStore = job.redis
  ? await openRedisStore({ url: job.redis.url, prefix: job.redis.prefix, keyPepper: job.pepper, plans: job.plans })
  : openSqliteStore({ file: job.file!, keyPepper: job.pepper, plans: job.plans });
const now = new Date(job.now);
parentPort!.postMessage('ready');
Atomics.wait(job.gate, 0, 0);
let granted = 0;
let refused = 0;
for (let i = 0; i < job.rounds; i++) {
  const amount = 1 + (i % 3);
  try {
    const hold = await store.reserve({
      accountId: job.accountId,
      kind: 'contact',
      category: 'search',
      amount,
      mode: i % 2 === 0 ? 'exact' : 'up_to',
      now,
    });
    granted += (await store.commit(hold.id, hold.amount, now)).charged;
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'contact_credits.exhausted') throw e;
    refused += 1;
  }
}
await store.close();
parentPort!.postMessage({ granted, refused });
