import { parentPort, workerData } from 'node:worker_threads';
import { PeopleBatcher, type PeopleWorkerData } from './person-batch.js';
import type { UnparsedRow } from './readers/index.js';

/** Worker thread entry: processes people batches; `rows: null` asks for the last staging file. */
const batcher = new PeopleBatcher(workerData as PeopleWorkerData);
parentPort!.on('message', (msg: { id: number; rows: UnparsedRow[] | null }) => {
  parentPort!.postMessage({ id: msg.id, result: msg.rows ? batcher.process(msg.rows) : batcher.end() });
});
