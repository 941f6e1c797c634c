import { parentPort, workerData } from 'node:worker_threads';
import type { Plan } from '../../src/domain/account.js';
import { AppError } from '../../src/domain/errors/index.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

/** One "process" of the concurrency test: its own connection to the file, reserving and committing in a loop. */
interface Job {
  file: string;
  pepper: string;
  plans: Plan[];
  accountId: string;
  now: string;
  rounds: number;
  /** Shared start gate: 0 = wait, 1 = go. */
  gate: Int32Array;
}

const job = workerData as Job;
const store = openSqliteStore({ file: job.file, keyPepper: job.pepper, plans: job.plans });
const now = new Date(job.now);
parentPort!.postMessage('ready');
Atomics.wait(job.gate, 0, 0);
let granted = 0;
let refused = 0;
for (let i = 0; i < job.rounds; i++) {
  const amount = 1 + (i % 3);
  try {
    const hold = store.reserve({
      accountId: job.accountId,
      kind: 'contact',
      category: 'search',
      amount,
      mode: i % 2 === 0 ? 'exact' : 'up_to',
      now,
    });
    granted += store.commit(hold.id, hold.amount, now).charged;
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== 'contact_credits.exhausted') throw e;
    refused += 1;
  }
}
store.close();
parentPort!.postMessage({ granted, refused });
