import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Clock } from '../domain/clock.js';
import type { Hold } from '../domain/credits.js';
import type { Job, JobEnd, JobEndStatus, JobKind, JobPayloads, JobStore, NewJob } from './port.js';
import type { JobQueue } from './queue.js';

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
  progress(result: Record<string, unknown>): Promise<void>;
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
  giveUp?(
    job: Job<P>,
    error: unknown,
  ):
    | { error: string; charge?: number; result?: Record<string, unknown> }
    | Promise<{ error: string; charge?: number; result?: Record<string, unknown> }>;
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
  /**
   * Scale-out: wake-ups come from this queue (BullMQ) instead of polling the store. The store still decides who
   * runs a job (claimJobById); every heartbeat period the runner requeues stale jobs and announces queued ones
   * again, so a lost wake-up delays a job by at most that period.
   */
  queue?: JobQueue;
  /**
   * Told when this runner ended a job (finishJob took the end), with the run's time from its claim in seconds:
   * the metrics count jobs by outcome and the credits they charged.
   */
  onJobEnd?(job: Job, end: JobEnd, seconds: number): void;
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
  private ticking = false;
  private again = false;
  private lastStaleCheck = 0;
  private lastReconcile = 0;
  private readonly o: Required<Omit<JobRunnerOptions, 'store' | 'clock' | 'logger' | 'queue' | 'onJobEnd'>>;
  private consuming = false;

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
  async enqueue<K extends JobKind & keyof M>(
    job: NewJob<M[K]> & { kind: K },
  ): Promise<{ job: Job<M[K]>; hold: Hold | null }> {
    const created = await this.opts.store.createJob(job);
    if (this.opts.queue) {
      // The job is saved with its hold: a wake-up that fails to go out now is sent by the next reconciliation.
      await this.opts.queue
        .announce(created.job)
        .catch((err: unknown) => this.opts.logger.warn({ err, job: created.job.id }, 'job wake-up not sent; retried'));
    } else this.nudge();
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

  /** Closes the wake-up queue's connections (after `stop()`; a no-op without a queue). */
  async closeQueue(): Promise<void> {
    await this.opts.queue?.close();
  }

  /** Wake-ups waiting, handled and delayed (queue mode), for /metrics; undefined when the runner polls. */
  queueCounts(): Promise<{ waiting: number; active: number; delayed: number }> | undefined {
    return this.opts.queue?.counts();
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
    const queue = this.opts.queue;
    if (queue && !this.consuming) {
      this.consuming = true;
      queue.consume(
        [...this.kinds.values()].map((d) => ({ kind: d.kind, concurrency: d.concurrency ?? 1 })),
        (id) => this.runWokenJob(id),
      );
    }
    this.schedule(0);
  }

  /** Queue mode: a wake-up named this job. Claims it if it is still queued, runs it, and announces a retry. */
  private async runWokenJob(id: string): Promise<void> {
    const { store, clock, queue } = this.opts;
    if (!this.started) return;
    // This process is full (CDS_WORKERS): leave the job queued; the next reconciliation announces it again, and a
    // worker with room takes it.
    if (this.running.size >= this.o.maxRunning) return;
    const job = await store.claimJobById(id, clock.now(), this.workerId);
    if (!job) return;
    const def = this.kinds.get(job.kind);
    if (!def || !this.started) {
      await store.yieldJob(job.id, job.attempts, clock.now());
      return;
    }
    await this.launch(def, job);
    // A failed run to retry (or a stop) put the job back in the queue: wake a worker for its next attempt.
    const after = await store.getJob(id);
    if (after?.status === 'queued') await queue?.announce(after);
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
      // One tick at a time: a nudge during a tick claims again right after it.
      if (this.ticking) {
        this.again = true;
        return;
      }
      this.ticking = true;
      void this.tick().finally(() => {
        this.ticking = false;
        this.schedule(this.again ? 0 : this.o.pollMs);
        this.again = false;
      });
    }, ms);
  }

  private async tick(): Promise<void> {
    const { store, clock, logger } = this.opts;
    try {
      if (Date.now() - this.lastStaleCheck >= Math.min(this.o.heartbeatMs, this.o.staleMs)) {
        this.lastStaleCheck = Date.now();
        const back = await store.requeueStale(new Date(clock.now().getTime() - this.o.staleMs), clock.now(), (w) =>
          this.isDead(w),
        );
        for (const j of back)
          logger.warn({ job: j.id, kind: j.kind, attempts: j.attempts }, 'job of a stopped worker requeued');
      }
      if (this.opts.queue) {
        await this.reconcile();
        return;
      }
      for (const def of this.kinds.values()) {
        while (
          this.started &&
          this.running.size < this.o.maxRunning &&
          this.countOf(def.kind) < (def.concurrency ?? 1)
        ) {
          const job = await store.claimJob([def.kind], clock.now(), this.workerId);
          if (!job) break;
          if (!this.started) {
            // stop() came while the claim was on its way: hand the job back uncounted.
            await store.yieldJob(job.id, job.attempts, clock.now());
            break;
          }
          void this.launch(def, job);
        }
      }
    } catch (e) {
      logger.error({ err: e }, 'job runner poll failed');
    }
  }

  /**
   * Queue mode, every heartbeat period: queued jobs are announced again (a wake-up lost to a crash between saving a
   * job and announcing it, or consumed while the job was still running elsewhere); duplicates are dropped by id.
   */
  private async reconcile(): Promise<void> {
    if (Date.now() - this.lastReconcile < this.o.heartbeatMs) return;
    this.lastReconcile = Date.now();
    for (const job of await this.opts.store.queuedJobs(1000)) {
      if (this.kinds.has(job.kind)) await this.opts.queue!.announce(job);
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

  /** Runs a claimed job; resolves once it ended, was handed back, or was abandoned at stop. */
  private launch(def: JobKindDef<unknown>, job: Job): Promise<void> {
    const { store, clock, logger } = this.opts;
    const abort = new AbortController();
    const entry: Running = { job, abort, done: Promise.resolve(), abandoned: false, heartbeat: null };
    const lose = () => abort.abort(new JobLost(`job ${job.id} was taken over or ended elsewhere`));
    const beat = setInterval(() => {
      store.progressJob(job.id, {}, clock.now(), job.attempts).then(
        (ours) => {
          if (!ours) lose();
        },
        (e: unknown) => logger.warn({ err: e, job: job.id }, 'heartbeat failed'),
      );
    }, this.o.heartbeatMs);
    entry.heartbeat = beat;
    const ctx: JobRunContext = {
      attempt: job.attempts,
      now: () => clock.now(),
      checkpoint: () => abort.signal.throwIfAborted(),
      progress: async (result) => {
        abort.signal.throwIfAborted();
        if (!(await store.progressJob(job.id, result, clock.now(), job.attempts))) {
          lose();
          abort.signal.throwIfAborted();
        }
      },
      signal: abort.signal,
      logger: logger.child({ job: job.id, kind: job.kind, attempt: job.attempts }),
    };
    const end = async (fn: () => Promise<unknown>) => {
      if (entry.abandoned) return;
      try {
        await fn();
      } catch (e) {
        // The job stays running in the store; its heartbeat stops, so it goes stale and is run again.
        logger.error({ err: e, job: job.id }, 'could not record the end of a job');
      }
    };
    const started = performance.now();
    const finish = (outcome: JobEnd) =>
      end(async () => {
        if (await store.finishJob(job.id, outcome, clock.now()))
          this.opts.onJobEnd?.(job, outcome, (performance.now() - started) / 1000);
      });
    this.running.set(job.id, entry);
    entry.done = (async () => {
      try {
        if (job.attempts > this.o.maxAttempts)
          throw new FatalJobError(`the job was interrupted ${job.attempts - 1} times`);
        const out = await def.run(job, ctx);
        await finish({ ...out, attempt: job.attempts });
      } catch (e) {
        if (abort.signal.aborted) {
          // Stopping: hand the job back without counting this run. Lost: someone else owns it now.
          if (abort.signal.reason instanceof RunnerStopping)
            await end(() => store.yieldJob(job.id, job.attempts, clock.now()));
        } else if (e instanceof FatalJobError || job.attempts >= this.o.maxAttempts) {
          logger.warn({ err: e, job: job.id, attempts: job.attempts }, 'job failed');
          const fallback: { error: string; charge?: number; result?: Record<string, unknown> } = {
            error: (e as Error).message ?? String(e),
          };
          // giveUp may read the store (a collect's counters); if it cannot, the job still fails, charging nothing.
          const g =
            (await Promise.resolve(def.giveUp?.(job, e)).catch((err: unknown) => {
              logger.warn({ err, job: job.id }, 'giveUp failed; the job fails with its error');
              return undefined;
            })) ?? fallback;
          await finish({
            status: 'failed',
            error: g.error,
            charge: g.charge ?? 0,
            ...(g.result ? { result: g.result } : {}),
            attempt: job.attempts,
          });
        } else {
          logger.warn({ err: e, job: job.id, attempt: job.attempts }, 'job run failed; retrying');
          await sleep(this.o.retryDelayMs * job.attempts, abort.signal).catch(() => undefined);
          await end(() => store.yieldJob(job.id, job.attempts, clock.now(), true));
        }
      } finally {
        clearInterval(beat);
        if (this.running.get(job.id) === entry) this.running.delete(job.id);
        this.nudge();
      }
    })();
    return entry.done;
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
