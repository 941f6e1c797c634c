import type { JobKind } from './port.js';

/**
 * How queued jobs reach a runner in another process (scale-out): the job record, its hold and its attempt fence
 * stay in the state store (JobStore), which alone decides who runs a job (`claimJobById` claims only a queued one);
 * a JobQueue carries wake-ups, "job X is queued", to whichever worker process is free. A wake-up that finds its
 * job already taken or ended is dropped, so a duplicate or stale one is harmless, and a lost one is made good by
 * the runner's reconciliation (queued jobs are announced again). Without a queue (the embedded default) runners
 * poll the store instead.
 */
export interface JobQueue {
  /** Says that this job is queued at this attempt count (idempotent per id and attempts). */
  announce(job: { id: string; kind: JobKind; attempts: number }, delayMs?: number): Promise<void>;
  /**
   * Starts taking wake-ups of these kinds, at most `concurrency` of a kind at once in this process; `handle` runs
   * one job to its end (or returns at once when the job is not claimable).
   */
  consume(kinds: ReadonlyArray<{ kind: JobKind; concurrency: number }>, handle: (id: string) => Promise<void>): void;
  /** Wake-ups waiting, being handled and delayed, all kinds together (the queue depth of /metrics). */
  counts(): Promise<{ waiting: number; active: number; delayed: number }>;
  /** Stops consuming (waiting for handlers to return) and closes the queue's connections. */
  close(): Promise<void>;
}
