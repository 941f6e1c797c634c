import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { Hold } from '../domain/credits.js';
import type { Job, JobEndStatus, JobKind, JobPayloads, JobStore, NewJob } from './port.js';

/**
 * The in-process job runner (ARCHITECTURE "job queue: in-process worker over the state store").
 *
 * Use:
 * runner.register({ kind: 'export', concurrency: 1, run: async (job, ctx) => { …; ctx.progress({...}); …; return {
 * status: 'completed', charge } } });
 * const { job, hold } = runner.enqueue({ id, accountId, kind: 'export', payload, hold, exclusive, now });  // createJob
 * + nudge
 *   runner.start();  …  await runner.stop();
 *
 * Contract for a kind's `run`:
 * - it may run more than once for one job (a crash, a lost heartbeat, a retry): each run starts from the
 *   beginning and must be idempotent on its outputs (write a temp file and rename, upsert rows, …);
 * - it returns the outcome; the runner ends the job and settles its hold in one transaction (JobStore.finishJob);
 * - `ctx.progress(...)` saves progress and proves the job is still ours (it throws once the job was lost or the
 *   runner stops); call it, or `ctx.checkpoint()`, at safe points, and pass `ctx.signal` to anything that waits;
 * - a thrown FatalJobError fails the job at once; any other error is retried, up to `maxAttempts` runs in all,
 *   then the job fails with `giveUp` (default: the error's message, nothing charged).
 *
 * Timing: claims every `pollMs` and at once after `nudge()`; heartbeats every `heartbeatMs`; running jobs
 * whose heartbeat is older than `staleMs`, or whose runner process on this host is gone, go back to the queue.
 * Timestamps come from the injected clock; timers are real time and are all cleared by `stop()`.
 */

export interface JobRunContext {
  /** This run's attempt, 1 for the first. */
  readonly attempt: number;
  now(): Date;
  /**
   * Merges `result` into the job's result and refreshes the heartbeat; throws when the job is no longer ours or the
   * runner stops.
   */
  progress(result: Record<string, unknown>): void;
  /** Throws when the runner stops or the job was lost: a safe point to leave at. */
  checkpoint(): void;
  /** Aborted when the runner stops or the job was lost. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

export interface JobOutcome {
  status: JobEndStatus;
  result?: Record<string, unknown>;
  error?: string | null;
  /** Credits to charge from the job's hold; the rest is returned. */
  charge: number;
}

export interface JobKindDef<P = Record<string, unknown>, K extends JobKind = JobKind> {
  kind: K;
  /** Jobs of this kind running at once in this process (default 1). */
  concurrency?: number;
  run(job: Job<P>, ctx: JobRunContext): Promise<JobOutcome>;
  /** The outcome once the job failed for good (default: its error message, nothing charged). */
  giveUp?(job: Job<P>, error: unknown): { error: string; charge?: number; result?: Record<string, unknown> };
}

/** Work done every `everyMs` beside the jobs while the runner runs (the alert scheduler); skipped while busy. */
export interface PeriodicTask {
  name: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/** Payload types by kind: the service's JobPayloads, or a test's own map over the same kinds. */
export type PayloadMap = { [K in JobKind]?: unknown };

/** Thrown by a kind's run: the job fails now, without a retry. */
export class FatalJobError extends Error {
  override name = 'FatalJobError';
}

/** Reasons a running job is aborted. */
class RunnerStopping extends Error {
  override name = 'RunnerStopping';
}
class JobLost extends Error {
  override name = 'JobLost';
}

export interface JobRunnerOptions {
  store: JobStore;
  clock: Clock;
  logger: Logger;
  pollMs?: number;
  heartbeatMs?: number;
  staleMs?: number;
  /** Runs per job before it fails for good (default 3). */
  maxAttempts?: number;
  /** Jobs running at once in this process, all kinds together (default 4). */
  maxRunning?: number;
  /** How long `stop()` waits for running jobs to reach a safe point before abandoning them (default 10 s). */
  stopGraceMs?: number;
  /** Pause before a failed run is retried, times the attempt number (default 1 s). */
  retryDelayMs?: number;
}

interface Running {
  job: Job;
  abort: AbortController;
  done: Promise<void>;
  /** Set once stop() gave up waiting: the run's late end must not touch the store. */
  abandoned: boolean;
  heartbeat: NodeJS.Timeout | null;
}

/** Runner ids alive in this process; a job claimed by another id of this pid is an orphan of a stopped runner. */
const liveRunners = new Set<string>();
const HOST = hostname();

export class JobRunner<M extends PayloadMap = JobPayloads> {
  readonly workerId = `${HOST}/${process.pid}/${randomBytes(4).toString('hex')}`;
  private readonly kinds = new Map<JobKind, JobKindDef<unknown>>();
  private readonly running = new Map<string, Running>();
  private timer: NodeJS.Timeout | null = null;
  private readonly periodic: PeriodicTask[] = [];
  private periodicTimers: NodeJS.Timeout[] = [];
  private started = false;
  private lastStaleCheck = 0;
  private readonly o: Required<Omit<JobRunnerOptions, 'store' | 'clock' | 'logger'>>;

  constructor(private readonly opts: JobRunnerOptions) {
    this.o = {
      pollMs: opts.pollMs ?? 200,
      heartbeatMs: opts.heartbeatMs ?? 5000,
      staleMs: opts.staleMs ?? 30_000,
      maxAttempts: opts.maxAttempts ?? 3,
      maxRunning: opts.maxRunning ?? 4,
      stopGraceMs: opts.stopGraceMs ?? 10_000,
      retryDelayMs: opts.retryDelayMs ?? 1000,
    };
  }

  /** Declares a job kind's worker once; its payload type is the map's (STYLE: typed task registry). */
  register<K extends JobKind & keyof M>(def: JobKindDef<M[K], K>): void {
    if (this.kinds.has(def.kind)) throw new Error(`job kind ${def.kind} is registered twice`);
    this.kinds.set(def.kind, def as JobKindDef<unknown>);
  }

  /** Adds work done periodically while the runner runs; `stop()` clears its timer with the rest. */
  every(task: PeriodicTask): void {
    this.periodic.push(task);
    if (this.started) this.startPeriodic(task);
  }

  /** Creates the job (with its hold, atomically: JobStore.createJob) and wakes the runner. */
  enqueue<K extends JobKind & keyof M>(job: NewJob<M[K]> & { kind: K }): { job: Job<M[K]>; hold: Hold | null } {
    const created = this.opts.store.createJob(job);
    this.nudge();
    return created;
  }

  private startPeriodic(task: PeriodicTask): void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy || !this.started) return;
      busy = true;
      task
        .run()
        .catch((e: unknown) => this.opts.logger.error({ err: e }, `${task.name} failed`))
        .finally(() => {
          busy = false;
        });
    }, task.everyMs);
    timer.unref();
    this.periodicTimers.push(timer);
  }

  /** Claims now instead of at the next poll (after a job was created). A no-op when stopped. */
  nudge(): void {
    if (!this.started) return;
    this.schedule(0);
  }

  get isRunning(): boolean {
    return this.started;
  }

  /** Ids of the jobs this runner is running now. */
  runningJobs(): string[] {
    return [...this.running.keys()];
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    liveRunners.add(this.workerId);
    this.lastStaleCheck = 0;
    for (const task of this.periodic) this.startPeriodic(task);
    this.schedule(0);
  }

  /**
   * Stops claiming, asks running jobs to stop at their next safe point and hands them back to the queue
   * (resumed from the start by the next runner). Jobs still busy after the grace period are abandoned:
   * they stay running in the store until a runner sees them as orphans. No timer is left behind.
   */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    liveRunners.delete(this.workerId);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const t of this.periodicTimers) clearInterval(t);
    this.periodicTimers = [];
    const runs = [...this.running.values()];
    for (const r of runs) r.abort.abort(new RunnerStopping('the job runner is stopping'));
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(runs.map((r) => r.done)),
      new Promise<void>((resolve) => (grace = setTimeout(resolve, this.o.stopGraceMs))),
    ]);
    clearTimeout(grace);
    for (const r of this.running.values()) {
      // No more heartbeats: the job goes stale and another runner resumes it.
      r.abandoned = true;
      if (r.heartbeat) clearInterval(r.heartbeat);
      this.opts.logger.warn({ job: r.job.id }, 'job abandoned at stop; it resumes on the next start');
    }
    this.running.clear();
  }

  private schedule(ms: number): void {
    if (!this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick();
      this.schedule(this.o.pollMs);
    }, ms);
  }

  private tick(): void {
    const { store, clock, logger } = this.opts;
    try {
      if (Date.now() - this.lastStaleCheck >= Math.min(this.o.heartbeatMs, this.o.staleMs)) {
        this.lastStaleCheck = Date.now();
        const back = store.requeueStale(new Date(clock.now().getTime() - this.o.staleMs), clock.now(), (w) =>
          this.isDead(w),
        );
        for (const j of back)
          logger.warn({ job: j.id, kind: j.kind, attempts: j.attempts }, 'job of a stopped worker requeued');
      }
      for (const def of this.kinds.values()) {
        while (
          this.started &&
          this.running.size < this.o.maxRunning &&
          this.countOf(def.kind) < (def.concurrency ?? 1)
        ) {
          const job = store.claimJob([def.kind], clock.now(), this.workerId);
          if (!job) break;
          this.launch(def, job);
        }
      }
    } catch (e) {
      logger.error({ err: e }, 'job runner poll failed');
    }
  }

  private countOf(kind: JobKind): number {
    let n = 0;
    for (const r of this.running.values()) if (r.job.kind === kind) n++;
    return n;
  }

  /** A runner id is dead when its process on this host is gone, or it is a stopped runner of this process. */
  private isDead(worker: string): boolean {
    const [host, pidText] = worker.split('/');
    if (host !== HOST) return false;
    const pid = Number(pidText);
    if (pid === process.pid) return !liveRunners.has(worker);
    try {
      process.kill(pid, 0);
      return false;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'ESRCH';
    }
  }

  private launch(def: JobKindDef<unknown>, job: Job): void {
    const { store, clock, logger } = this.opts;
    const abort = new AbortController();
    const entry: Running = { job, abort, done: Promise.resolve(), abandoned: false, heartbeat: null };
    const lose = () => abort.abort(new JobLost(`job ${job.id} was taken over or ended elsewhere`));
    const beat = setInterval(() => {
      try {
        if (!store.progressJob(job.id, {}, clock.now(), job.attempts)) lose();
      } catch (e) {
        logger.warn({ err: e, job: job.id }, 'heartbeat failed');
      }
    }, this.o.heartbeatMs);
    entry.heartbeat = beat;
    const ctx: JobRunContext = {
      attempt: job.attempts,
      now: () => clock.now(),
      checkpoint: () => abort.signal.throwIfAborted(),
      progress: (result) => {
        abort.signal.throwIfAborted();
        if (!store.progressJob(job.id, result, clock.now(), job.attempts)) {
          lose();
          abort.signal.throwIfAborted();
        }
      },
      signal: abort.signal,
      logger: logger.child({ job: job.id, kind: job.kind, attempt: job.attempts }),
    };
    const end = (fn: () => void) => {
      if (entry.abandoned) return;
      try {
        fn();
      } catch (e) {
        logger.error({ err: e, job: job.id }, 'could not record the end of a job');
      }
    };
    this.running.set(job.id, entry);
    entry.done = (async () => {
      try {
        if (job.attempts > this.o.maxAttempts)
          throw new FatalJobError(`the job was interrupted ${job.attempts - 1} times`);
        const out = await def.run(job, ctx);
        end(() => store.finishJob(job.id, { ...out, attempt: job.attempts }, clock.now()));
      } catch (e) {
        if (abort.signal.aborted) {
          // Stopping: hand the job back without counting this run. Lost: someone else owns it now.
          if (abort.signal.reason instanceof RunnerStopping)
            end(() => store.yieldJob(job.id, job.attempts, clock.now()));
        } else if (e instanceof FatalJobError || job.attempts >= this.o.maxAttempts) {
          logger.warn({ err: e, job: job.id, attempts: job.attempts }, 'job failed');
          const g = def.giveUp?.(job, e) ?? { error: (e as Error).message ?? String(e) };
          end(() =>
            store.finishJob(
              job.id,
              {
                status: 'failed',
                error: g.error,
                charge: g.charge ?? 0,
                ...(g.result ? { result: g.result } : {}),
                attempt: job.attempts,
              },
              clock.now(),
            ),
          );
        } else {
          logger.warn({ err: e, job: job.id, attempt: job.attempts }, 'job run failed; retrying');
          await sleep(this.o.retryDelayMs * job.attempts, abort.signal).catch(() => undefined);
          end(() => store.yieldJob(job.id, job.attempts, clock.now(), true));
        }
      } finally {
        clearInterval(beat);
        if (this.running.get(job.id) === entry) this.running.delete(job.id);
        this.nudge();
      }
    })();
  }
}

/** setTimeout as a promise that an abort signal cuts short (rejecting with the signal's reason). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
