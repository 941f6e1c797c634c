import { parentPort, workerData } from 'node:worker_threads';
import type { Plan } from '../../src/domain/account.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

/** One "process" of the claim race: its own connection to the file, claiming and finishing until the queue is empty. */
interface Race {
  file: string;
  pepper: string;
  plans: Plan[];
  worker: string;
  now: string;
  /** Shared start gate: 0 = wait, 1 = go. */
  gate: Int32Array;
}

const race = workerData as Race;
const store = openSqliteStore({ file: race.file, keyPepper: race.pepper, plans: race.plans });
const now = new Date(race.now);
parentPort!.postMessage('ready');
Atomics.wait(race.gate, 0, 0);
const claimed: string[] = [];
for (;;) {
  const job = store.claimJob(['export'], now, race.worker);
  if (!job) break;
  claimed.push(job.id);
  store.finishJob(job.id, { status: 'completed', charge: 1, attempt: job.attempts }, now);
}
store.close();
parentPort!.postMessage({ claimed });
