import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { PeopleBatchResult, PeopleWorkerData } from './person-batch.js';
import type { UnparsedRow } from './readers/index.js';

interface Pending {
  resolve: (r: PeopleBatchResult) => void;
  reject: (e: Error) => void;
}

/**
 * Worker threads for the per-row people work. Parsing, normalizing and serializing cost about 20 µs a
 * row on one core, the largest part of a load; on two workers that halves while DuckDB ingests the staged
 * files. Workers get a larger young generation: the work allocates many short-lived objects, and the
 * default scavenges cost about a fifth of the time (measured).
 */
export class PersonWorkers {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private failure: Error | null = null;

  constructor(data: Omit<PeopleWorkerData, 'prefix'>, count = Math.max(1, Math.min(4, availableParallelism()))) {
    this.workers = Array.from({ length: count }, (_, k) => {
      const w = new Worker(new URL('./person-worker.js', import.meta.url), {
        workerData: { ...data, prefix: `people-w${k}` } satisfies PeopleWorkerData,
        resourceLimits: { maxYoungGenerationSizeMb: 96 },
      });
      w.on('message', (m: { id: number; result: PeopleBatchResult }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve(m.result);
      });
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`people worker exited with code ${code}`));
      });
      return w;
    });
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  /** Processes one batch on the next worker (round robin); results may be awaited in submission order. */
  run(rows: UnparsedRow[]): Promise<PeopleBatchResult> {
    return this.send(this.workers[this.next % this.workers.length]!, rows);
  }

  /** Asks every worker to write its last staging file. */
  async end(): Promise<PeopleBatchResult[]> {
    return Promise.all(this.workers.map((w) => this.send(w, null)));
  }

  private send(worker: Worker, rows: UnparsedRow[] | null): Promise<PeopleBatchResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, rows });
    });
  }

  get size(): number {
    return this.workers.length;
  }

  async close(): Promise<void> {
    this.failure ??= new Error('people workers closed');
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
