import { pino } from 'pino';
import { SettableClock } from '../../src/domain/clock.js';
import { BullJobQueue } from '../../src/jobs/bullmq/bullmq-queue.js';
import { JobRunner, sleep } from '../../src/jobs/runner.js';
import type { StateStore } from '../../src/state/port.js';
import { connectRedis } from '../../src/state/redis/client.js';
import { TEST_PLANS } from './conformance.js';
import { describeRedis, dropPrefix, REDIS_URL, redisFactory, testPrefix } from './store-factories.js';

/**
 * The job runner in queue mode (scale-out): wake-ups on BullMQ, the job record and its hold in the Redis state store.
 * Several runners stand for worker processes; one more, never started, stands for an API process that only queues.
 */
const T0 = new Date('2026-03-10T12:00:00.000Z');
type TestPayloads = { export: { rows: number } };

describeRedis('JobRunner with a BullMQ queue over the Redis JobStore', () => {
  const factory = redisFactory();
  const bullPrefix = testPrefix();
  const clock = new SettableClock(T0);
  const logger = pino({ level: 'silent' });
  const stores: StateStore[] = [];
  const runners: JobRunner<TestPayloads>[] = [];
  let seq = 0;

  const runner = async () => {
    const store = await factory.open({ plans: TEST_PLANS });
    stores.push(store);
    const queue = new BullJobQueue({
      client: await connectRedis({ url: REDIS_URL }),
      prefix: bullPrefix,
      lockMs: 2000,
      logger,
    });
    const r = new JobRunner<TestPayloads>({
      store,
      clock,
      logger,
      heartbeatMs: 100,
      staleMs: 2000,
      retryDelayMs: 5,
      stopGraceMs: 2000,
      queue,
    });
    runners.push(r);
    return { r, store };
  };

  afterAll(async () => {
    for (const r of runners) {
      await r.stop();
      await r.closeQueue();
    }
    for (const s of stores) await s.close();
    await factory.dispose();
    await dropPrefix(REDIS_URL, bullPrefix);
  });

  const until = async (pred: () => Promise<boolean>, what: string) => {
    const deadline = Date.now() + 20_000;
    while (!(await pred())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(20);
    }
  };

  it('runs every queued job exactly once across worker runners, settling each hold once', async () => {
    const api = await runner(); // never started: it only queues, like `cds serve` with CDS_WORKERS=0
    const runs = new Map<string, number>();
    const workers = [await runner(), await runner()];
    for (const w of workers) {
      w.r.register({
        kind: 'export',
        concurrency: 2,
        run: async (job, ctx) => {
          runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
          await ctx.progress({ rows_exported: job.payload.rows });
          await sleep(30);
          return { status: 'completed', charge: job.payload.rows - 1 };
        },
      });
      w.r.start();
    }
    const acc = (await api.store.createAccount({ name: 'q', plan: 't_windows', billingDay: null, now: T0 })).id;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const { job } = await api.r.enqueue({
        id: `exp_q${++seq}`,
        accountId: acc,
        kind: 'export',
        payload: { rows: 2 },
        hold: { kind: 'contact', category: 'export', amount: 2, mode: 'exact' },
        now: T0,
      });
      ids.push(job.id);
    }
    await until(
      async () => (await Promise.all(ids.map((id) => api.store.getJob(id)))).every((j) => j?.status === 'completed'),
      'all jobs to complete',
    );
    expect(ids.map((id) => runs.get(id))).toEqual([1, 1, 1, 1]);
    for (const id of ids)
      expect(await api.store.getJob(id)).toMatchObject({ attempts: 1, result: { rows_exported: 2 } });
    // 4 jobs × (2 held, 1 charged): 4 used, nothing left held.
    const day = (await api.store.snapshot(acc, T0)).contact;
    if (day.kind !== 'windows') throw new Error('t_windows has windows');
    expect(day.day).toMatchObject({ used: 4, held: 0 });
    for (const w of workers) await w.r.stop();
  }, 30_000);

  it('runs a job whose wake-up was never sent (reconciliation), and retries a failed run on a new wake-up', async () => {
    const worker = await runner();
    let calls = 0;
    worker.r.register({
      kind: 'export',
      run: async () => {
        calls++;
        if (calls === 1) throw new Error('a hiccup');
        return { status: 'completed', charge: 0 };
      },
    });
    worker.r.start();
    const acc = (await worker.store.createAccount({ name: 'q2', plan: 't_windows', billingDay: null, now: T0 })).id;
    // Created straight in the store: no wake-up went out, as when a process dies between saving and announcing.
    const { job } = await worker.store.createJob({
      id: `exp_q${++seq}`,
      accountId: acc,
      kind: 'export',
      payload: { rows: 1 },
      now: T0,
    });
    await until(async () => (await worker.store.getJob(job.id))?.status === 'completed', 'the job to complete');
    expect(calls).toBe(2);
    expect(await worker.store.getJob(job.id)).toMatchObject({ status: 'completed', attempts: 2 });
    await worker.r.stop();
  }, 30_000);
});
