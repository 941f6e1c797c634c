import type { CreditKind, Hold, UsageCategory } from '../domain/credits.js';
import type { CollectPayload } from '../network-signals/collect-payload.js';
import type { EnrichmentRunPayload } from './enrichment/payload.js';
import type { ExportPayload } from './export/payload.js';

/**
 * Durable jobs (exports, signal collects, alert runs, CSV enrichment runs) kept in the state store, so they
 * survive a restart. Creating a job and taking its credit hold happen in one atomic step (a SQLite transaction, a
 * Redis Lua script); finishing a job and settling its hold likewise, so a crash can neither lose a hold nor charge
 * twice.
 */
/** Every job kind and the payload it carries: the one map that `enqueue` and the workers are typed by. */
export interface JobPayloads {
  export: ExportPayload;
  collect: CollectPayload;
  alert_run: CollectPayload;
  enrichment_run: EnrichmentRunPayload;
}
export type JobKind = keyof JobPayloads;
/** Every job kind, once (the keys of JobPayloads). */
export const JOB_KINDS: readonly JobKind[] = [
  'export',
  'collect',
  'alert_run',
  'enrichment_run',
] satisfies (keyof JobPayloads)[];
export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
export type JobEndStatus = 'completed' | 'failed' | 'cancelled';

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
  /** Runs started so far (each claim counts one); a worker passes its attempt back to prove it still owns the job. */
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Last sign of life of the worker running it; a stale one means its process died. */
  heartbeatAt: string | null;
  /** Who runs it now (`host/pid/nonce` of the runner), null while queued. */
  worker: string | null;
}

export interface NewJob<P> {
  /** Prefixed id chosen by the caller (exp_…, col_…, run_…). */
  id: string;
  accountId: string;
  kind: JobKind;
  /**
   * The payload, or a function of the hold granted in the same transaction (an `up_to` hold may be smaller than asked).
   */
  payload: P | ((hold: Hold | null) => P);
  /**
   * The credit hold taken in the same transaction; `mode: 'up_to'` may grant less than asked. With `minimum`,
   * a grant below it refuses the whole job with the store's own *.exhausted error (nothing is written).
   */
  hold?: {
    kind: CreditKind;
    category: UsageCategory | null;
    amount: number;
    mode: 'exact' | 'up_to';
    minimum?: number;
  };
  /** Refuse (throw the given error) when the account already has a queued or running job matching this. */
  exclusive?: { kinds: JobKind[]; error: () => Error; sameAlertId?: string };
  now: Date;
}

export interface JobEnd {
  status: JobEndStatus;
  /** Merged into the job's result. */
  result?: Record<string, unknown>;
  error?: string | null;
  /** Credits charged from the hold (at most its amount); the rest is returned. 0 releases the hold. */
  charge: number;
  /** When given, the job ends only if it is still on this attempt (a worker that lost the job cannot end it). */
  attempt?: number;
}

export interface JobStore {
  createJob<P>(job: NewJob<P>): Promise<{ job: Job<P>; hold: Hold | null }>;
  getJob(id: string): Promise<Job | undefined>;
  /** Jobs of an account, newest first, optionally one kind. */
  listJobs(accountId: string, kind?: JobKind, limit?: number): Promise<Job[]>;
  /**
   * Atomically moves the oldest queued job of these kinds to running for `worker`, counting one attempt
   * and setting started_at and the heartbeat. Undefined when none is queued.
   */
  claimJob(kinds: JobKind[], now: Date, worker?: string): Promise<Job | undefined>;
  /**
   * Atomically moves this one job from queued to running for `worker`, like claimJob (a queue's wake-up names the
   * job). Undefined when it is not queued (taken by another worker, ended, unknown).
   */
  claimJobById(id: string, now: Date, worker: string): Promise<Job | undefined>;
  /** Queued jobs, oldest first (a queue runner announces them again in case a wake-up was lost). */
  queuedJobs(limit: number): Promise<Array<Pick<Job, 'id' | 'kind' | 'attempts'>>>;
  /**
   * Saves progress (merged into result) and refreshes the heartbeat. Returns false, changing nothing, when
   * the job is no longer running (or, with `attempt`, was claimed again since): the worker should stop.
   */
  progressJob(id: string, result: Record<string, unknown>, now: Date, attempt?: number): Promise<boolean>;
  /**
   * Ends a job and settles its hold in one transaction: `charge` credits are charged, the rest returned.
   * A job already ended is left as it is (returns false): settling never happens twice.
   */
  finishJob(id: string, end: JobEnd, now: Date): Promise<boolean>;
  /**
   * Puts a running job back in the queue. A runner stopping cleanly hands its jobs back without counting
   * the attempt; `spent: true` keeps it counted (a failed run to be retried). False when the job is not
   * running on that attempt.
   */
  yieldJob(id: string, attempt: number, now: Date, spent?: boolean): Promise<boolean>;
  /**
   * Running jobs whose heartbeat is older than `staleBefore` (or whose worker `isDead` says is gone): their
   * process died. Back to queued, to be resumed from the start; returns them.
   */
  requeueStale(staleBefore: Date, now: Date, isDead?: (worker: string) => boolean): Promise<Job[]>;
}
