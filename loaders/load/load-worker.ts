import { parentPort, workerData } from 'node:worker_threads';
import { type BatchResult, BatchWork, type WorkerInit } from './batch-work.js';
import { unpackEmployers } from './employers-message.js';
import type { WorkerRequest } from './load-workers.js';

/** Worker thread entry: runs the batch operations the main thread sends, one at a time. */
const work = new BatchWork(workerData as WorkerInit);
parentPort!.on('message', ({ id, req }: { id: number; req: WorkerRequest }) => {
  let result: BatchResult;
  switch (req.op) {
    case 'companies':
      result = work.companies(req.input);
      break;
    case 'people':
      result = work.people(req.input);
      break;
    case 'companyIds':
      result = work.companyIds(req.input);
      break;
    case 'employers':
      work.setEmployers(unpackEmployers(req.employers, req.base));
      result = { rejects: [], files: [], employers: [], unknownIndustries: 0 };
      break;
    case 'end':
      result = work.end(req.kind);
      break;
  }
  parentPort!.postMessage({ id, result });
});
