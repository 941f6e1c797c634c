import { createNodeRedisClient, Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { closeRedis, type RedisClient } from '../../state/redis/client.js';
import { JOB_KINDS, type JobKind } from '../port.js';
import type { JobQueue } from '../queue.js';

export interface BullJobQueueOptions {
  /** A connection of its own, closed with the queue (BullMQ duplicates it for each worker's blocking reads). */
  client: RedisClient;
  /** Key prefix of the queues (default `cds:bull`). */
  prefix?: string;
  /**
   * How long a worker's lock on a wake-up lasts without renewal; a worker killed mid-job loses it after this, and
   * the wake-up is handed to another worker (the job itself is requeued by the store's stale check).
   */
  lockMs: number;
  logger: Logger;
}

/**
 * The JobQueue on BullMQ (the maintained successor of `bull`), over the official `redis` client through BullMQ's
 * node-redis adapter. One BullMQ queue per job kind, so each kind keeps its own concurrency. A wake-up's BullMQ id
 * is `<job id>#<attempts>`: announcing the same queued attempt twice adds one wake-up; each new attempt gets its own.
 * Wake-ups are removed once handled: the job's history lives in the state store, not in BullMQ.
 */
export class BullJobQueue implements JobQueue {
  private readonly queues = new Map<JobKind, Queue>();
  private readonly workers: Worker[] = [];
  private readonly prefix: string;

  constructor(private readonly o: BullJobQueueOptions) {
    this.prefix = o.prefix ?? 'cds:bull';
  }

  private connection() {
    return createNodeRedisClient(this.o.client);
  }

  private queueOf(kind: JobKind): Queue {
    let q = this.queues.get(kind);
    if (!q) {
      q = new Queue(`jobs-${kind}`, { connection: this.connection(), prefix: this.prefix });
      q.on('error', (err) => this.o.logger.warn({ err, kind }, 'job queue error'));
      this.queues.set(kind, q);
    }
    return q;
  }

  async announce(job: { id: string; kind: JobKind; attempts: number }, delayMs = 0): Promise<void> {
    await this.queueOf(job.kind).add(
      job.kind,
      { id: job.id },
      {
        jobId: `${job.id}#${job.attempts}`,
        removeOnComplete: true,
        removeOnFail: true,
        ...(delayMs > 0 ? { delay: delayMs } : {}),
      },
    );
  }

  consume(kinds: ReadonlyArray<{ kind: JobKind; concurrency: number }>, handle: (id: string) => Promise<void>): void {
    for (const { kind, concurrency } of kinds) {
      const worker = new Worker(
        `jobs-${kind}`,
        async (wakeUp) => {
          await handle(String((wakeUp.data as { id: string }).id));
        },
        {
          connection: this.connection(),
          prefix: this.prefix,
          concurrency,
          lockDuration: this.o.lockMs,
          stalledInterval: this.o.lockMs,
          // A wake-up whose worker died is handed out again once; the store's stale check covers the rest.
          maxStalledCount: 1,
        },
      );
      worker.on('error', (err) => this.o.logger.warn({ err, kind }, 'job queue worker error'));
      worker.on('failed', (w, err) => this.o.logger.warn({ err, wakeUp: w?.id }, 'job wake-up failed'));
      this.workers.push(worker);
    }
  }

  async counts(): Promise<{ waiting: number; active: number; delayed: number }> {
    const sum = { waiting: 0, active: 0, delayed: 0 };
    for (const kind of JOB_KINDS) {
      const c = await this.queueOf(kind).getJobCounts('waiting', 'active', 'delayed');
      sum.waiting += c.waiting ?? 0;
      sum.active += c.active ?? 0;
      sum.delayed += c.delayed ?? 0;
    }
    return sum;
  }

  async close(): Promise<void> {
    // Forced: the runner has already handed its jobs back (or abandoned them) by now; the store, not BullMQ, knows
    // what ran, so waiting for a handler here would only outlast the runner's stop grace.
    await Promise.all(this.workers.map((w) => w.close(true)));
    this.workers.length = 0;
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
    if (this.o.client.isOpen) await closeRedis(this.o.client);
  }
}
