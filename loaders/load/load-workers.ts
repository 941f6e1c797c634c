import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { BatchInput, BatchResult, WorkerInit } from './batch-work.js';
import type { EmployersMessage } from './employers-message.js';

export type WorkerRequest =
  | { op: 'companies' | 'people' | 'companyIds'; input: BatchInput }
  /** `base`: JSON arrays of employers (a delta's serving release), replaced by `employers` where ids meet. */
  | { op: 'employers'; base?: string[]; employers: EmployersMessage }
  | { op: 'end'; kind: 'companies' | 'people' };

interface Pending {
  resolve: (r: BatchResult) => void;
  reject: (e: Error) => void;
}

/**
 * Worker threads for the per-row work. Parsing, normalizing and serializing cost 40-70 µs a row on one
 * core, the largest part of a load; spread over the cores it runs while DuckDB ingests the staged files.
 * Workers get a larger young generation: the work allocates many short-lived objects, and the default
 * scavenges took about a fifth of the time (measured).
 */
export class LoadWorkers {
  private readonly workers: Worker[];
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private failure: Error | null = null;

  constructor(init: Omit<WorkerInit, 'prefix'>, count = Math.max(1, Math.min(4, availableParallelism()))) {
    this.workers = Array.from({ length: count }, (_, k) => {
      const w = new Worker(new URL('./load-worker.js', import.meta.url), {
        workerData: { ...init, prefix: `w${k}` } satisfies WorkerInit,
        resourceLimits: { maxYoungGenerationSizeMb: 96 },
      });
      w.on('message', (m: { id: number; result: BatchResult }) => {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        p?.resolve(m.result);
      });
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => {
        if (code !== 0) this.fail(new Error(`load worker exited with code ${code}`));
      });
      return w;
    });
  }

  get size(): number {
    return this.workers.length;
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  /** Runs one batch on the next worker (round robin); results may be awaited in submission order. */
  run(req: WorkerRequest): Promise<BatchResult> {
    return this.send(this.workers[this.next % this.workers.length]!, req);
  }

  /** Sends the same request to every worker (employers, end of a kind). */
  all(req: WorkerRequest): Promise<BatchResult[]> {
    return Promise.all(this.workers.map((w) => this.send(w, req)));
  }

  private send(worker: Worker, req: WorkerRequest): Promise<BatchResult> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, req });
    });
  }

  async close(): Promise<void> {
    this.failure ??= new Error('load workers closed');
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
