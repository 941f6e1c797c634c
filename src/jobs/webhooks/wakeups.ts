import { createNodeRedisClient, Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { closeRedis, type RedisClient } from '../../state/redis/client.js';

/**
 * Redis mode: webhook deliveries reach a worker through BullMQ wake-ups, as jobs do (jobs/queue.ts): the state store
 * holds the truth (the outbox, its atomic claim and lease), BullMQ carries "a delivery is due at T". A wake-up is a
 * delayed BullMQ job named after what made it due — `<delivery id>#<attempt>` for a scheduled attempt, `job-<id>`
 * for a job's end, `lease-<delivery id>#<attempt>` for the end of a claim's lease — so announcing the same thing twice
 * adds one wake-up. Its handler runs one pass of the sender (claim what is due, atomically, and send it), so a
 * wake-up that finds its delivery already taken does nothing, and a lost one is made good by the sender's periodic
 * sweep (jobs/webhooks/deliver.ts).
 */
/** A delayed wake-up comes this long after the attempt is due. */
const DUE_MARGIN_MS = 250;

export class WebhookWakeups {
  private readonly queue: Queue;
  private worker: Worker | undefined;

  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.queue = new Queue('webhooks', { connection: createNodeRedisClient(client), prefix });
    this.queue.on('error', (err) => logger.warn({ err }, 'webhook wake-up queue error'));
  }

  /**
   * Wakes a worker at `dueAt` (now when past; a later one a little after it, so the claim never runs before the
   * attempt is due by the store's clock); never throws: the sweep makes a lost wake-up good.
   */
  async announce(name: string, dueAt: Date, now: Date): Promise<void> {
    const ahead = dueAt.getTime() - now.getTime();
    const delay = ahead > 0 ? ahead + DUE_MARGIN_MS : 0;
    try {
      await this.queue.add(
        'deliver',
        {},
        {
          jobId: name.replace(/:/g, '-'),
          removeOnComplete: true,
          removeOnFail: true,
          ...(delay > 0 ? { delay } : {}),
        },
      );
    } catch (err) {
      this.logger.warn({ err, wakeUp: name }, 'could not announce a webhook wake-up (the sweep will send it)');
    }
  }

  /** Starts taking wake-ups (worker processes): `pass` claims and sends what is due. */
  consume(concurrency: number, pass: () => Promise<unknown>): void {
    if (this.worker) return;
    this.worker = new Worker(
      'webhooks',
      async () => {
        await pass();
      },
      { connection: createNodeRedisClient(this.client), prefix: this.prefix, concurrency },
    );
    this.worker.on('error', (err) => this.logger.warn({ err }, 'webhook wake-up worker error'));
  }

  async close(): Promise<void> {
    await this.worker?.close(true);
    this.worker = undefined;
    await this.queue.close();
    if (this.client.isOpen) await closeRedis(this.client);
  }
}
