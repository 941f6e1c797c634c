import { parentPort, workerData } from 'node:worker_threads';
import type { Leaf } from '../../../domain/query/ir.js';
import { PointStore } from './point-store.js';
import type { ReaderInit, ReaderMessage, ReaderReply } from './readers.js';

/**
 * A point reader thread (readers.ts): one read-only connection to the store, one lookup at a time. It
 * stops on a `close` message, after the lookups sent before it: terminating a thread inside a failing
 * SQLite call aborts the whole process (better-sqlite3 cannot build the error in a stopping isolate).
 */
const init = workerData as ReaderInit;
const opened = PointStore.open(init.file, init.release);
const port = parentPort!;
if (!opened.store) {
  port.postMessage({ ready: false, reason: opened.reason } satisfies ReaderReply);
} else {
  const store = opened.store;
  port.postMessage({ ready: true } satisfies ReaderReply);
  port.on('message', (req: ReaderMessage) => {
    if ('close' in req) {
      store.close();
      port.close();
      return;
    }
    try {
      const rows = 'sortKeys' in req ? store.cards(req.sortKeys, req.kind) : store.read(req.leaves as Leaf[], req.kind);
      port.postMessage({ id: req.id, rows } satisfies ReaderReply);
    } catch (e) {
      port.postMessage({ id: req.id, error: (e as Error).message } satisfies ReaderReply);
    }
  });
}
