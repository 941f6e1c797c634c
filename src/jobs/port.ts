import type { CreditKind, Hold, UsageCategory } from '../state/port.js';

/**
 * Durable jobs (exports, signal collects, alert runs, enrichment runs) kept in the state store, so they
 * survive a restart. Creating a job and taking its credit hold happen in one transaction; finishing a
 * job and settling its hold happen in one transaction, so a crash can neither lose a hold nor charge twice.
 */
export type JobKind = 'export' | 'collect' | 'alert_run' | 'enrich_run';
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

export interface Job<P = Record<string, unknown>, R = Record<string, unknown>> {
  id: string;
  accountId: string;
  kind: JobKind;
  status: JobStatus;
  payload: P;
  /** Progress and outcome written by the worker (rows written, file, counters, …). */
  result: R;
  holdId: string | null;
  error: string | null;
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Last sign of life of the worker running it; a stale one means its process died. */
  heartbeatAt: string | null;
}

export interface NewJob<P> {
  /** Prefixed id chosen by the caller (exp_…, col_…, run_…). */
  id: string;
  accountId: string;
  kind: JobKind;
  payload: P;
  /** The credit hold taken in the same transaction; `mode: 'up_to'` may grant less than asked. */
  hold?: { kind: CreditKind; category: UsageCategory | null; amount: number; mode: 'exact' | 'up_to' };
  /** Refuse (throw the given error) when the account already has a queued or running job matching this. */
  exclusive?: { kinds: JobKind[]; error: () => Error; sameAlertId?: string };
  now: Date;
}

export interface JobStore {
  createJob<P>(job: NewJob<P>): { job: Job<P>; hold: Hold | null };
  getJob(id: string): Job | undefined;
  /** Jobs of an account, newest first, optionally one kind. */
  listJobs(accountId: string, kind?: JobKind, limit?: number): Job[];
  /** Atomically moves the oldest queued job of these kinds to running for this worker. */
  claimJob(kinds: JobKind[], now: Date): Job | undefined;
  /** Saves progress (merged into result) and refreshes the heartbeat. */
  progressJob(id: string, result: Record<string, unknown>, now: Date): void;
  /**
   * Ends a job and settles its hold in one transaction: `charge` credits are charged, the rest returned.
   * A job already ended is left as it is (returns false): settling never happens twice.
   */
  finishJob(id: string, end: { status: 'completed' | 'failed' | 'cancelled'; result?: Record<string, unknown>; error?: string | null; charge: number }, now: Date): boolean;
  /** Running jobs whose heartbeat is older than `staleBefore`: their process died. Back to queued (resume). */
  requeueStale(staleBefore: Date, now: Date): Job[];
}
