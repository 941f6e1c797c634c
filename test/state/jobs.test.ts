import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import type { Plan } from '../../src/domain/account.js';
import { SettableClock } from '../../src/domain/clock.js';
import { AppError } from '../../src/domain/errors/index.js';
import { randomToken } from '../../src/domain/ids.js';
import { FatalJobError, type JobKindDef, JobRunner, type JobRunnerOptions, sleep } from '../../src/jobs/runner.js';
import { DEFAULT_PLANS } from '../../src/state/plans.js';
import type { StateStore } from '../../src/state/port.js';
import { connectRedis, type RedisClient } from '../../src/state/redis/client.js';
import { openRedisStore } from '../../src/state/redis/index.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';
import { TEST_PLANS } from './conformance.js';

/**
 * JobStore on each adapter (a real SQLite file; a real Redis under a test prefix): atomic create (exclusivity +
 * hold), claim, progress, finish (settle once), stale requeue, and the JobRunner over it. Both adapters run the same
 * tests with the same expectations.
 */
const PEPPER = 'test-pepper-0123456789abcdef';
const PLANS: Plan[] = [...DEFAULT_PLANS, ...TEST_PLANS];
const T0 = new Date('2026-03-10T12:00:00.000Z');
const plus = (ms: number) => new Date(T0.getTime() + ms);
const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('jobs.test: REDIS_URL is not set, so the Redis JobStore tests are skipped.');

/** Fresh storage per test; every `open` of one test shares it (two "processes"). */
interface Backend {
  name: string;
  setUp(): Promise<void>;
  open(): Promise<StateStore>;
  /** What a worker thread needs to open its own store on the same storage (claim-worker.ts). */
  workerStore(): { file: string } | { redis: { url: string; prefix: string } };
  /** Deletes the storage; called after every opened store was closed. */
  tearDown(): Promise<void>;
  /** After the last test. */
  dispose(): Promise<void>;
}

function sqliteBackend(): Backend {
  let dir = '';
  const file = () => join(dir, 'state.sqlite');
  return {
    name: 'SQLite',
    setUp: async () => {
      dir = mkdtempSync(join(tmpdir(), 'cds-jobs-'));
    },
    open: async () => openSqliteStore({ file: file(), keyPepper: PEPPER, plans: PLANS }),
    workerStore: () => ({ file: file() }),
    tearDown: async () => rmSync(dir, { recursive: true, force: true }),
    dispose: async () => {},
  };
}

/** Each test under its own key prefix, whose keys are deleted after it (never FLUSHDB: Redis is shared). */
function redisBackend(url: string): Backend {
  let prefix = '';
  let admin: RedisClient | undefined;
  return {
    name: 'Redis',
    setUp: async () => {
      prefix = `cdstest:jobs:${randomToken(10)}:`;
      admin ??= await connectRedis({ url });
    },
    open: () => openRedisStore({ url, prefix, keyPepper: PEPPER, plans: PLANS }),
    workerStore: () => ({ redis: { url, prefix } }),
    tearDown: async () => {
      if (!admin) return;
      const keys: string[] = [];
      for await (const batch of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
      if (keys.length > 0) await admin.unlink(keys);
    },
    dispose: async () => {
      await admin?.close();
      admin = undefined;
    },
  };
}

runJobStoreSuite(sqliteBackend(), true);
runJobStoreSuite(redisBackend(REDIS_URL ?? ''), REDIS_URL !== undefined);

function runJobStoreSuite(backend: Backend, enabled: boolean): void {
  (enabled ? describe : describe.skip)(`JobStore on ${backend.name}`, () => {
    let stores: StateStore[];
    let a: StateStore;
    let b: StateStore;
    const open = async () => {
      const s = await backend.open();
      stores.push(s);
      return s;
    };
    beforeEach(async () => {
      await backend.setUp();
      stores = [];
      a = await open();
      b = await open();
    });
    afterEach(async () => {
      for (const s of stores) await s.close();
      await backend.tearDown();
    });
    afterAll(() => backend.dispose());

    const busy = () => new AppError('export.running', 'One export already runs on the account.');
    let seq = 0;
    function exportJob(
      s: StateStore,
      accountId: string,
      amount: number,
      opts: { minimum?: number; mode?: 'exact' | 'up_to'; now?: Date; exclusive?: boolean } = {},
    ) {
      return s.createJob({
        id: `exp_test${++seq}`,
        accountId,
        kind: 'export',
        payload: (hold) => ({ wanted: amount, granted: hold?.amount ?? null }),
        hold: {
          kind: 'contact',
          category: 'export',
          amount,
          mode: opts.mode ?? 'up_to',
          ...(opts.minimum !== undefined ? { minimum: opts.minimum } : {}),
        },
        ...(opts.exclusive === false ? {} : { exclusive: { kinds: ['export'], error: busy } }),
        now: opts.now ?? T0,
      });
    }
    const account = async (plan = 't_windows') =>
      (await a.createAccount({ name: 'Acme', plan, billingDay: 15, now: T0 })).id;
    const dayOf = async (s: StateStore, id: string) => {
      const c = (await s.snapshot(id, T0)).contact;
      if (c.kind !== 'windows') throw new Error('windows plan expected');
      return c.day;
    };
    async function codeOf(p: Promise<unknown>): Promise<string> {
      try {
        await p;
      } catch (e) {
        if (e instanceof AppError) return e.code;
        throw e;
      }
      return 'no error';
    }

    describe(`${backend.name} JobStore`, () => {
      it('creates the job and its hold together; the payload sees the granted hold', async () => {
        const acc = await account();
        const { job, hold } = await exportJob(a, acc, 25); // day cap 10: up_to grants 10
        expect(hold).toMatchObject({ amount: 10, status: 'held', category: 'export' });
        expect(job).toMatchObject({
          status: 'queued',
          attempts: 0,
          holdId: hold!.id,
          payload: { wanted: 25, granted: 10 },
          result: {},
          worker: null,
        });
        // the other "process" sees the same job and the same held credits
        expect(await b.getJob(job.id)).toEqual(job);
        expect(await dayOf(b, acc)).toMatchObject({ used: 0, held: 10 });
      });

      it('refuses a second active job of the kind inside the transaction, taking no hold', async () => {
        const acc = await account();
        await exportJob(a, acc, 3);
        expect(await codeOf(exportJob(b, acc, 3))).toBe('export.running');
        expect((await dayOf(a, acc)).held).toBe(3);
        expect(await a.listJobs(acc, 'export')).toHaveLength(1);
        // another account is not blocked
        expect((await exportJob(b, await account(), 3)).job.status).toBe('queued');
      });

      it('refuses with the store 402 when less than the minimum is left, writing nothing', async () => {
        const acc = await account();
        const hold = await a.reserve({
          accountId: acc,
          kind: 'contact',
          category: 'search',
          amount: 10,
          mode: 'exact',
          now: T0,
        });
        await a.commit(hold.id, 10, T0);
        let err: AppError | undefined;
        try {
          await exportJob(a, acc, 5, { minimum: 1 });
        } catch (e) {
          err = e as AppError;
        }
        expect(err?.code).toBe('contact_credits.exhausted');
        expect(err?.details).toMatchObject({ binding: 'day', resets_at: '2026-03-11T00:00:00.000Z' });
        expect(await a.listJobs(acc)).toHaveLength(0);
        expect(await dayOf(a, acc)).toMatchObject({ used: 10, held: 0 });
      });

      it('exclusive by alert id: another alert of the account may run', async () => {
        const acc = await account();
        const alertJob = (alertId: string) =>
          a.createJob({
            id: `run_${++seq}`,
            accountId: acc,
            kind: 'alert_run',
            payload: { alertId },
            exclusive: { kinds: ['alert_run'], error: () => new AppError('alert.busy'), sameAlertId: alertId },
            now: T0,
          });
        await alertJob('alr_1');
        expect(await codeOf(alertJob('alr_1'))).toBe('alert.busy');
        expect((await alertJob('alr_2')).job.status).toBe('queued');
      });

      it('claims the oldest queued job of the kinds once, counting an attempt', async () => {
        const x = (await exportJob(a, await account(), 1, { now: T0 })).job;
        const y = (await exportJob(a, await account(), 1, { now: plus(1000) })).job;
        const c1 = await b.claimJob(['export'], plus(5000), 'host/1/a');
        expect(c1).toMatchObject({
          id: x.id,
          status: 'running',
          attempts: 1,
          worker: 'host/1/a',
          startedAt: plus(5000).toISOString(),
          heartbeatAt: plus(5000).toISOString(),
        });
        expect(await a.claimJob(['collect'], plus(5000))).toBeUndefined();
        expect((await a.claimJob(['export', 'collect'], plus(5000)))?.id).toBe(y.id);
        expect(await b.claimJob(['export'], plus(5000))).toBeUndefined();
      });

      it('claims one queued job by id, once, and lists queued jobs oldest first', async () => {
        const x = (await exportJob(a, await account(), 1, { now: plus(1000) })).job;
        const y = (await exportJob(a, await account(), 1, { now: T0 })).job;
        const z = (
          await a.createJob({ id: `col_q${++seq}`, accountId: await account(), kind: 'collect', payload: {}, now: T0 })
        ).job;
        // equal createdAt: the one created first comes first
        expect(await b.queuedJobs(10)).toEqual([
          { id: y.id, kind: 'export', attempts: 0 },
          { id: z.id, kind: 'collect', attempts: 0 },
          { id: x.id, kind: 'export', attempts: 0 },
        ]);
        expect(await b.queuedJobs(1)).toEqual([{ id: y.id, kind: 'export', attempts: 0 }]);
        expect(await b.claimJobById(x.id, plus(5000), 'host/1/b')).toMatchObject({
          id: x.id,
          status: 'running',
          attempts: 1,
          worker: 'host/1/b',
          startedAt: plus(5000).toISOString(),
          heartbeatAt: plus(5000).toISOString(),
        });
        expect(await a.claimJobById(x.id, plus(6000), 'host/2/c')).toBeUndefined();
        expect(await a.claimJobById('exp_missing', plus(6000), 'host/2/c')).toBeUndefined();
        expect((await a.queuedJobs(10)).map((j) => j.id)).toEqual([y.id, z.id]);
        // the job claimed by id left its queue: the next claim of the kind takes the other one
        expect((await a.claimJob(['export'], plus(6000)))?.id).toBe(y.id);
        expect(await a.claimJob(['export'], plus(6000))).toBeUndefined();
      });

      it(`two store instances racing on one ${backend.name === 'SQLite' ? 'file' : 'Redis'} claim every job exactly once`, async () => {
        const ids: string[] = [];
        for (let i = 0; i < 60; i++) ids.push((await exportJob(a, await account(), 1, { exclusive: false })).job.id);
        const gate = new Int32Array(new SharedArrayBuffer(4));
        const workers = ['w1', 'w2'].map((worker) =>
          startClaimWorker({
            ...backend.workerStore(),
            pepper: PEPPER,
            plans: PLANS,
            worker,
            now: T0.toISOString(),
            gate,
          }),
        );
        await Promise.all(workers.map((w) => w.ready));
        Atomics.store(gate, 0, 1);
        Atomics.notify(gate, 0);
        const [r1, r2] = await Promise.all(workers.map((w) => w.done));
        const all = [...r1!.claimed, ...r2!.claimed];
        expect(all.sort()).toEqual([...ids].sort());
        expect(new Set(all).size).toBe(ids.length);
        for (const id of ids) expect(await a.getJob(id)).toMatchObject({ status: 'completed', attempts: 1 });
      });

      it('progress merges into the result and refreshes the heartbeat; a lost attempt cannot report', async () => {
        const { job } = await exportJob(a, await account(), 2);
        const claimed = (await a.claimJob(['export'], T0))!;
        expect(await a.progressJob(job.id, { rows_exported: 10, file: 'x' }, plus(2000), claimed.attempts)).toBe(true);
        expect(await a.progressJob(job.id, { rows_exported: 20 }, plus(3000))).toBe(true);
        expect(await b.getJob(job.id)).toMatchObject({
          result: { rows_exported: 20, file: 'x' },
          heartbeatAt: plus(3000).toISOString(),
        });
        expect(await a.progressJob(job.id, { rows_exported: 30 }, plus(4000), claimed.attempts + 1)).toBe(false);
        // a queued (not running) job takes no progress
        const other = (await exportJob(a, await account(), 1)).job;
        expect(await a.progressJob(other.id, { rows_exported: 1 }, plus(1000))).toBe(false);
      });

      it('finishing twice settles once: the second call is a no-op returning false', async () => {
        const acc = await account();
        const { job, hold } = await exportJob(a, acc, 8);
        await a.claimJob(['export'], T0);
        expect(
          await a.finishJob(job.id, { status: 'completed', charge: 5, result: { rows_exported: 5 } }, plus(1000)),
        ).toBe(true);
        expect(await b.finishJob(job.id, { status: 'completed', charge: 8 }, plus(2000))).toBe(false);
        expect(await b.finishJob(job.id, { status: 'failed', charge: 0 }, plus(2000))).toBe(false);
        expect(await dayOf(a, acc)).toMatchObject({ used: 5, held: 0 });
        expect(await a.getHold(hold!.id)).toMatchObject({ status: 'committed', charged: 5 });
        expect(await a.getJob(job.id)).toMatchObject({
          status: 'completed',
          finishedAt: plus(1000).toISOString(),
          result: { rows_exported: 5 },
          heartbeatAt: null,
          worker: null,
        });
      });

      it('a charge above the hold is capped at the hold; charge 0 releases the hold', async () => {
        const acc = await account();
        const first = await exportJob(a, acc, 4);
        expect(await a.finishJob(first.job.id, { status: 'completed', charge: 9 }, T0)).toBe(true);
        expect(await a.getHold(first.hold!.id)).toMatchObject({ status: 'committed', charged: 4 });
        const second = await exportJob(a, acc, 3);
        expect(await a.finishJob(second.job.id, { status: 'failed', charge: 0, error: 'gave up' }, T0)).toBe(true);
        expect(await a.getHold(second.hold!.id)).toMatchObject({ status: 'released', charged: 0 });
        expect(await a.getJob(second.job.id)).toMatchObject({ status: 'failed', error: 'gave up' });
        expect(await dayOf(a, acc)).toMatchObject({ used: 4, held: 0 });
      });

      it('a worker that lost its attempt cannot end the job', async () => {
        const { job } = await exportJob(a, await account(), 2);
        const first = (await a.claimJob(['export'], T0, 'w/1'))!;
        await b.requeueStale(plus(60_000), plus(60_000));
        const second = (await b.claimJob(['export'], plus(60_000), 'w/2'))!;
        expect(second.attempts).toBe(2);
        expect(
          await a.finishJob(job.id, { status: 'completed', charge: 2, attempt: first.attempts }, plus(61_000)),
        ).toBe(false);
        expect(
          await b.finishJob(job.id, { status: 'completed', charge: 2, attempt: second.attempts }, plus(61_000)),
        ).toBe(true);
      });

      it('requeues running jobs whose heartbeat is stale or whose worker is dead, and only those', async () => {
        const stale = (await exportJob(a, await account(), 1)).job;
        const fresh = (await exportJob(a, await account(), 1)).job;
        const dead = (await exportJob(a, await account(), 1)).job;
        const queued = (await exportJob(a, await account(), 1)).job;
        await a.claimJob(['export'], T0, 'h/1/x'); // stale
        await a.claimJob(['export'], T0, 'h/2/y'); // fresh after progress
        await a.claimJob(['export'], T0, 'h/3/z'); // dead worker
        await a.progressJob(fresh.id, {}, plus(25_000));
        await a.progressJob(dead.id, {}, plus(25_000));
        const back = await b.requeueStale(plus(10_000), plus(30_000), (w) => w === 'h/3/z');
        expect(back.map((j) => j.id).sort()).toEqual([stale.id, dead.id].sort());
        expect(await a.getJob(stale.id)).toMatchObject({
          status: 'queued',
          attempts: 1,
          worker: null,
          heartbeatAt: null,
        });
        expect((await a.getJob(fresh.id))?.status).toBe('running');
        expect((await a.getJob(queued.id))?.status).toBe('queued');
        // the requeued job is resumed by the next claim, counting a second attempt
        expect(await b.claimJob(['export'], plus(30_000))).toMatchObject({ id: stale.id, attempts: 2 });
      });

      it('a clean stop yields the job back without counting the attempt', async () => {
        const { job } = await exportJob(a, await account(), 1);
        const claimed = (await a.claimJob(['export'], T0))!;
        expect(await a.yieldJob(job.id, claimed.attempts + 1, T0)).toBe(false);
        expect(await a.yieldJob(job.id, claimed.attempts, T0)).toBe(true);
        expect(await a.getJob(job.id)).toMatchObject({ status: 'queued', attempts: 0 });
        expect(await a.yieldJob(job.id, 0, T0)).toBe(false);
      });

      it('lists an account’s jobs newest first, by kind', async () => {
        const acc = await account();
        const first = (await a.createJob({ id: 'col_1', accountId: acc, kind: 'collect', payload: {}, now: T0 })).job;
        const second = (
          await a.createJob({ id: 'exp_1', accountId: acc, kind: 'export', payload: {}, now: plus(1000) })
        ).job;
        expect((await b.listJobs(acc)).map((j) => j.id)).toEqual([second.id, first.id]);
        expect((await b.listJobs(acc, 'collect')).map((j) => j.id)).toEqual([first.id]);
        expect(await b.listJobs(acc, undefined, 1)).toHaveLength(1);
      });
    });

    describe(`JobRunner over the ${backend.name} JobStore`, () => {
      const clock = new SettableClock(T0);
      /** The runner's payload map for these tests: export jobs that carry only a row count. */
      type P = { rows: number };
      type TestPayloads = { export: P };
      const runners: JobRunner<TestPayloads>[] = [];
      const runner = (o: Partial<JobRunnerOptions> = {}) => {
        const r = new JobRunner<TestPayloads>({
          store: a,
          clock,
          logger: pino({ level: 'silent' }),
          pollMs: 20,
          heartbeatMs: 50,
          retryDelayMs: 5,
          stopGraceMs: 2000,
          ...o,
        });
        runners.push(r);
        return r;
      };
      afterEach(async () => {
        for (const r of runners.splice(0)) await r.stop();
      });
      const until = async (pred: () => Promise<boolean>, what: string) => {
        const deadline = Date.now() + 10_000;
        while (!(await pred())) {
          if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
          await sleep(10);
        }
      };
      const ended = (id: string) => async () =>
        ['completed', 'failed', 'cancelled'].includes((await a.getJob(id))!.status);
      const enqueueOn = async (r: JobRunner<TestPayloads>, accountId: string, rows = 4) =>
        (
          await r.enqueue({
            id: `exp_run${++seq}`,
            accountId,
            kind: 'export',
            payload: { rows },
            hold: { kind: 'contact', category: 'export', amount: rows, mode: 'exact' },
            now: T0,
          })
        ).job;

      it('runs a job: progress is saved, the outcome ends it and settles the hold', async () => {
        const acc = await account();
        const r = runner();
        const seen: number[] = [];
        r.register({
          kind: 'export',
          run: async (job, ctx) => {
            for (let i = 1; i <= job.payload.rows; i++) {
              await ctx.progress({ rows_exported: i });
              seen.push((await b.getJob(job.id))!.result.rows_exported as number);
            }
            return { status: 'completed', result: { done: true }, charge: 3 };
          },
        });
        r.start();
        const job = await enqueueOn(r, acc);
        await until(ended(job.id), 'the job');
        expect(seen).toEqual([1, 2, 3, 4]);
        expect(await a.getJob(job.id)).toMatchObject({
          status: 'completed',
          attempts: 1,
          result: { rows_exported: 4, done: true },
        });
        expect(await dayOf(a, acc)).toMatchObject({ used: 3, held: 0 });
      });

      it('retries a failing run and gives up after 3 runs: failed, hold released, the kind names the error', async () => {
        const acc = await account();
        const r = runner();
        let runs = 0;
        r.register({
          kind: 'export',
          run: async () => {
            runs++;
            throw new Error('engine unavailable');
          },
          giveUp: (_job, e) => ({ error: `gave up: ${(e as Error).message}` }),
        });
        r.start();
        const job = await enqueueOn(r, acc);
        await until(ended(job.id), 'the job');
        expect(runs).toBe(3);
        expect(await a.getJob(job.id)).toMatchObject({
          status: 'failed',
          attempts: 3,
          error: 'gave up: engine unavailable',
        });
        expect(await dayOf(a, acc)).toMatchObject({ used: 0, held: 0 });
      });

      it('a FatalJobError fails the job at once', async () => {
        const r = runner();
        r.register({
          kind: 'export',
          run: async () => {
            throw new FatalJobError('bad payload');
          },
        });
        r.start();
        const job = await enqueueOn(r, await account());
        await until(ended(job.id), 'the job');
        expect(await a.getJob(job.id)).toMatchObject({ status: 'failed', attempts: 1, error: 'bad payload' });
      });

      it('runs at most `concurrency` jobs of a kind at once', async () => {
        const r = runner();
        let now = 0;
        let peak = 0;
        r.register({
          kind: 'export',
          concurrency: 2,
          run: async () => {
            peak = Math.max(peak, ++now);
            await sleep(60);
            now--;
            return { status: 'completed', charge: 0 };
          },
        });
        r.start();
        const jobs: { id: string }[] = [];
        for (let i = 0; i < 5; i++) jobs.push(await enqueueOn(r, await account(), 1));
        await until(async () => (await Promise.all(jobs.map((j) => ended(j.id)()))).every(Boolean), 'every job');
        expect(peak).toBe(2);
      });

      it('stop() hands a running job back at its safe point; the next runner resumes it from the start', async () => {
        const acc = await account();
        const first = runner();
        const starts: number[] = [];
        const def = (mark: number): JobKindDef<P, 'export'> => ({
          kind: 'export',
          run: async (job, ctx) => {
            starts.push(mark);
            for (let i = 0; i < 50; i++) {
              await ctx.progress({ step: i });
              await sleep(mark === 1 ? 20 : 0, ctx.signal);
            }
            return { status: 'completed', charge: job.payload.rows };
          },
        });
        first.register(def(1));
        first.start();
        const job = await enqueueOn(first, acc, 2);
        await until(async () => (((await a.getJob(job.id))!.result.step as number | undefined) ?? 0) > 2, 'progress');
        await first.stop();
        expect(await a.getJob(job.id)).toMatchObject({ status: 'queued', attempts: 0, worker: null });
        expect((await dayOf(a, acc)).held).toBe(2);
        const second = runner();
        second.register(def(2));
        second.start();
        await until(ended(job.id), 'the resumed job');
        expect(starts).toEqual([1, 2]);
        expect(await a.getJob(job.id)).toMatchObject({ status: 'completed', attempts: 1 });
        expect(await dayOf(a, acc)).toMatchObject({ used: 2, held: 0 });
      });

      it('at start, requeues a job whose worker is gone (a dead pid, or a stopped runner of this process) and runs it', async () => {
        const acc = await account();
        const gone = await enqueueOn(runner(), acc, 1); // runner never started: the job just sits queued
        await a.claimJob(['export'], T0, `${hostname()}/${process.pid}/deadbeef`);
        const other = (await exportJob(a, await account(), 1, { exclusive: false })).job;
        await a.claimJob(['export'], T0, `${hostname()}/999999999/cafe`);
        const r = runner();
        r.register({ kind: 'export', run: async () => ({ status: 'completed', charge: 1 }) });
        r.start();
        await until(async () => (await ended(gone.id)()) && (await ended(other.id)()), 'both orphans');
        expect(await a.getJob(gone.id)).toMatchObject({ status: 'completed', attempts: 2 });
        expect(await a.getJob(other.id)).toMatchObject({ status: 'completed', attempts: 2 });
      });

      it('leaves nothing running after stop: no claims, and a stopped runner ignores nudges', async () => {
        const r = runner();
        let runs = 0;
        r.register({
          kind: 'export',
          run: async () => {
            runs++;
            return { status: 'completed', charge: 0 };
          },
        });
        r.start();
        await r.stop();
        const job = (
          await r.enqueue({
            id: `exp_idle${++seq}`,
            accountId: await account(),
            kind: 'export',
            payload: { rows: 1 },
            now: T0,
          })
        ).job;
        await sleep(100);
        expect(runs).toBe(0);
        expect((await a.getJob(job.id))?.status).toBe('queued');
        expect(r.isRunning).toBe(false);
      });
    });
  });
}

function startClaimWorker(data: Record<string, unknown>): {
  ready: Promise<void>;
  done: Promise<{ claimed: string[] }>;
} {
  const worker = new Worker(new URL('./claim-worker.js', import.meta.url), { workerData: data });
  let onReady!: () => void;
  let onDone!: (r: { claimed: string[] }) => void;
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  const ready = Promise.race([new Promise<void>((resolve) => (onReady = resolve)), failed]);
  const done = Promise.race([new Promise<{ claimed: string[] }>((resolve) => (onDone = resolve)), failed]);
  worker.on('message', (m: 'ready' | { claimed: string[] }) => (m === 'ready' ? onReady() : onDone(m)));
  return { ready, done };
}
