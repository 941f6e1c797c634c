import { mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { pino } from 'pino';
import type { Plan } from '../../src/domain/account.js';
import { SettableClock } from '../../src/domain/clock.js';
import { AppError } from '../../src/domain/errors/index.js';
import { FatalJobError, type JobKindDef, JobRunner, type JobRunnerOptions, sleep } from '../../src/jobs/runner.js';
import { DEFAULT_PLANS } from '../../src/state/plans.js';
import type { StateStore } from '../../src/state/port.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';
import { TEST_PLANS } from './conformance.js';

/**
 * JobStore on a real SQLite file: atomic create (exclusivity + hold), claim, progress, finish (settle once), stale
 * requeue.
 */
const PEPPER = 'test-pepper-0123456789abcdef';
const PLANS: Plan[] = [...DEFAULT_PLANS, ...TEST_PLANS];
const T0 = new Date('2026-03-10T12:00:00.000Z');
const plus = (ms: number) => new Date(T0.getTime() + ms);

let dir: string;
let file: string;
let stores: StateStore[];
let a: StateStore;
let b: StateStore;
const open = () => {
  const s = openSqliteStore({ file, keyPepper: PEPPER, plans: PLANS });
  stores.push(s);
  return s;
};
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-jobs-'));
  file = join(dir, 'state.sqlite');
  stores = [];
  a = open();
  b = open();
});
afterEach(() => {
  for (const s of stores) s.close();
  rmSync(dir, { recursive: true, force: true });
});

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
const account = (plan = 't_windows') => a.createAccount({ name: 'Acme', plan, billingDay: 15, now: T0 }).id;
const dayOf = (s: StateStore, id: string) => {
  const c = s.snapshot(id, T0).contact;
  if (c.kind !== 'windows') throw new Error('windows plan expected');
  return c.day;
};
function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  return 'no error';
}

describe('SQLite JobStore', () => {
  it('creates the job and its hold together; the payload sees the granted hold', () => {
    const acc = account();
    const { job, hold } = exportJob(a, acc, 25); // day cap 10: up_to grants 10
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
    expect(b.getJob(job.id)).toEqual(job);
    expect(dayOf(b, acc)).toMatchObject({ used: 0, held: 10 });
  });

  it('refuses a second active job of the kind inside the transaction, taking no hold', () => {
    const acc = account();
    exportJob(a, acc, 3);
    expect(codeOf(() => exportJob(b, acc, 3))).toBe('export.running');
    expect(dayOf(a, acc).held).toBe(3);
    expect(a.listJobs(acc, 'export')).toHaveLength(1);
    // another account is not blocked
    expect(exportJob(b, account(), 3).job.status).toBe('queued');
  });

  it('refuses with the store 402 when less than the minimum is left, writing nothing', () => {
    const acc = account();
    const hold = a.reserve({ accountId: acc, kind: 'contact', category: 'search', amount: 10, mode: 'exact', now: T0 });
    a.commit(hold.id, 10, T0);
    let err: AppError | undefined;
    try {
      exportJob(a, acc, 5, { minimum: 1 });
    } catch (e) {
      err = e as AppError;
    }
    expect(err?.code).toBe('contact_credits.exhausted');
    expect(err?.details).toMatchObject({ binding: 'day', resets_at: '2026-03-11T00:00:00.000Z' });
    expect(a.listJobs(acc)).toHaveLength(0);
    expect(dayOf(a, acc)).toMatchObject({ used: 10, held: 0 });
  });

  it('exclusive by alert id: another alert of the account may run', () => {
    const acc = account();
    const alertJob = (alertId: string) =>
      a.createJob({
        id: `run_${++seq}`,
        accountId: acc,
        kind: 'alert_run',
        payload: { alertId },
        exclusive: { kinds: ['alert_run'], error: () => new AppError('alert.busy'), sameAlertId: alertId },
        now: T0,
      });
    alertJob('alr_1');
    expect(codeOf(() => alertJob('alr_1'))).toBe('alert.busy');
    expect(alertJob('alr_2').job.status).toBe('queued');
  });

  it('claims the oldest queued job of the kinds once, counting an attempt', () => {
    const x = exportJob(a, account(), 1, { now: T0 }).job;
    const y = exportJob(a, account(), 1, { now: plus(1000) }).job;
    const c1 = b.claimJob(['export'], plus(5000), 'host/1/a');
    expect(c1).toMatchObject({
      id: x.id,
      status: 'running',
      attempts: 1,
      worker: 'host/1/a',
      startedAt: plus(5000).toISOString(),
      heartbeatAt: plus(5000).toISOString(),
    });
    expect(a.claimJob(['collect'], plus(5000))).toBeUndefined();
    expect(a.claimJob(['export', 'collect'], plus(5000))?.id).toBe(y.id);
    expect(b.claimJob(['export'], plus(5000))).toBeUndefined();
  });

  it('two store instances racing on one file claim every job exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(exportJob(a, account(), 1, { exclusive: false }).job.id);
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const workers = ['w1', 'w2'].map((worker) =>
      startClaimWorker({ file, pepper: PEPPER, plans: PLANS, worker, now: T0.toISOString(), gate }),
    );
    await Promise.all(workers.map((w) => w.ready));
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    const [r1, r2] = await Promise.all(workers.map((w) => w.done));
    const all = [...r1!.claimed, ...r2!.claimed];
    expect(all.sort()).toEqual([...ids].sort());
    expect(new Set(all).size).toBe(ids.length);
    for (const id of ids) expect(a.getJob(id)).toMatchObject({ status: 'completed', attempts: 1 });
  });

  it('progress merges into the result and refreshes the heartbeat; a lost attempt cannot report', () => {
    const { job } = exportJob(a, account(), 2);
    const claimed = a.claimJob(['export'], T0)!;
    expect(a.progressJob(job.id, { rows_exported: 10, file: 'x' }, plus(2000), claimed.attempts)).toBe(true);
    expect(a.progressJob(job.id, { rows_exported: 20 }, plus(3000))).toBe(true);
    expect(b.getJob(job.id)).toMatchObject({
      result: { rows_exported: 20, file: 'x' },
      heartbeatAt: plus(3000).toISOString(),
    });
    expect(a.progressJob(job.id, { rows_exported: 30 }, plus(4000), claimed.attempts + 1)).toBe(false);
    // a queued (not running) job takes no progress
    const other = exportJob(a, account(), 1).job;
    expect(a.progressJob(other.id, { rows_exported: 1 }, plus(1000))).toBe(false);
  });

  it('finishing twice settles once: the second call is a no-op returning false', () => {
    const acc = account();
    const { job, hold } = exportJob(a, acc, 8);
    a.claimJob(['export'], T0);
    expect(a.finishJob(job.id, { status: 'completed', charge: 5, result: { rows_exported: 5 } }, plus(1000))).toBe(
      true,
    );
    expect(b.finishJob(job.id, { status: 'completed', charge: 8 }, plus(2000))).toBe(false);
    expect(b.finishJob(job.id, { status: 'failed', charge: 0 }, plus(2000))).toBe(false);
    expect(dayOf(a, acc)).toMatchObject({ used: 5, held: 0 });
    expect(a.getHold(hold!.id)).toMatchObject({ status: 'committed', charged: 5 });
    expect(a.getJob(job.id)).toMatchObject({
      status: 'completed',
      finishedAt: plus(1000).toISOString(),
      result: { rows_exported: 5 },
      heartbeatAt: null,
      worker: null,
    });
  });

  it('a charge above the hold is capped at the hold; charge 0 releases the hold', () => {
    const acc = account();
    const first = exportJob(a, acc, 4);
    expect(a.finishJob(first.job.id, { status: 'completed', charge: 9 }, T0)).toBe(true);
    expect(a.getHold(first.hold!.id)).toMatchObject({ status: 'committed', charged: 4 });
    const second = exportJob(a, acc, 3);
    expect(a.finishJob(second.job.id, { status: 'failed', charge: 0, error: 'gave up' }, T0)).toBe(true);
    expect(a.getHold(second.hold!.id)).toMatchObject({ status: 'released', charged: 0 });
    expect(a.getJob(second.job.id)).toMatchObject({ status: 'failed', error: 'gave up' });
    expect(dayOf(a, acc)).toMatchObject({ used: 4, held: 0 });
  });

  it('a worker that lost its attempt cannot end the job', () => {
    const { job } = exportJob(a, account(), 2);
    const first = a.claimJob(['export'], T0, 'w/1')!;
    b.requeueStale(plus(60_000), plus(60_000));
    const second = b.claimJob(['export'], plus(60_000), 'w/2')!;
    expect(second.attempts).toBe(2);
    expect(a.finishJob(job.id, { status: 'completed', charge: 2, attempt: first.attempts }, plus(61_000))).toBe(false);
    expect(b.finishJob(job.id, { status: 'completed', charge: 2, attempt: second.attempts }, plus(61_000))).toBe(true);
  });

  it('requeues running jobs whose heartbeat is stale or whose worker is dead, and only those', () => {
    const stale = exportJob(a, account(), 1).job;
    const fresh = exportJob(a, account(), 1).job;
    const dead = exportJob(a, account(), 1).job;
    const queued = exportJob(a, account(), 1).job;
    a.claimJob(['export'], T0, 'h/1/x'); // stale
    a.claimJob(['export'], T0, 'h/2/y'); // fresh after progress
    a.claimJob(['export'], T0, 'h/3/z'); // dead worker
    a.progressJob(fresh.id, {}, plus(25_000));
    a.progressJob(dead.id, {}, plus(25_000));
    const back = b.requeueStale(plus(10_000), plus(30_000), (w) => w === 'h/3/z');
    expect(back.map((j) => j.id).sort()).toEqual([stale.id, dead.id].sort());
    expect(a.getJob(stale.id)).toMatchObject({ status: 'queued', attempts: 1, worker: null, heartbeatAt: null });
    expect(a.getJob(fresh.id)?.status).toBe('running');
    expect(a.getJob(queued.id)?.status).toBe('queued');
    // the requeued job is resumed by the next claim, counting a second attempt
    expect(b.claimJob(['export'], plus(30_000))).toMatchObject({ id: stale.id, attempts: 2 });
  });

  it('a clean stop yields the job back without counting the attempt', () => {
    const { job } = exportJob(a, account(), 1);
    const claimed = a.claimJob(['export'], T0)!;
    expect(a.yieldJob(job.id, claimed.attempts + 1, T0)).toBe(false);
    expect(a.yieldJob(job.id, claimed.attempts, T0)).toBe(true);
    expect(a.getJob(job.id)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(a.yieldJob(job.id, 0, T0)).toBe(false);
  });

  it('lists an account’s jobs newest first, by kind', () => {
    const acc = account();
    const first = a.createJob({ id: 'col_1', accountId: acc, kind: 'collect', payload: {}, now: T0 }).job;
    const second = a.createJob({ id: 'exp_1', accountId: acc, kind: 'export', payload: {}, now: plus(1000) }).job;
    expect(b.listJobs(acc).map((j) => j.id)).toEqual([second.id, first.id]);
    expect(b.listJobs(acc, 'collect').map((j) => j.id)).toEqual([first.id]);
    expect(b.listJobs(acc, undefined, 1)).toHaveLength(1);
  });
});

describe('JobRunner over the SQLite JobStore', () => {
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
  const until = async (pred: () => boolean, what: string) => {
    const deadline = Date.now() + 10_000;
    while (!pred()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(10);
    }
  };
  const ended = (id: string) => () => ['completed', 'failed', 'cancelled'].includes(a.getJob(id)!.status);
  const enqueueOn = (r: JobRunner<TestPayloads>, accountId: string, rows = 4) =>
    r.enqueue({
      id: `exp_run${++seq}`,
      accountId,
      kind: 'export',
      payload: { rows },
      hold: { kind: 'contact', category: 'export', amount: rows, mode: 'exact' },
      now: T0,
    }).job;

  it('runs a job: progress is saved, the outcome ends it and settles the hold', async () => {
    const acc = account();
    const r = runner();
    const seen: number[] = [];
    r.register({
      kind: 'export',
      run: async (job, ctx) => {
        for (let i = 1; i <= job.payload.rows; i++) {
          ctx.progress({ rows_exported: i });
          seen.push(b.getJob(job.id)!.result.rows_exported as number);
        }
        return { status: 'completed', result: { done: true }, charge: 3 };
      },
    });
    r.start();
    const job = enqueueOn(r, acc);
    await until(ended(job.id), 'the job');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(a.getJob(job.id)).toMatchObject({
      status: 'completed',
      attempts: 1,
      result: { rows_exported: 4, done: true },
    });
    expect(dayOf(a, acc)).toMatchObject({ used: 3, held: 0 });
  });

  it('retries a failing run and gives up after 3 runs: failed, hold released, the kind names the error', async () => {
    const acc = account();
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
    const job = enqueueOn(r, acc);
    await until(ended(job.id), 'the job');
    expect(runs).toBe(3);
    expect(a.getJob(job.id)).toMatchObject({ status: 'failed', attempts: 3, error: 'gave up: engine unavailable' });
    expect(dayOf(a, acc)).toMatchObject({ used: 0, held: 0 });
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
    const job = enqueueOn(r, account());
    await until(ended(job.id), 'the job');
    expect(a.getJob(job.id)).toMatchObject({ status: 'failed', attempts: 1, error: 'bad payload' });
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
    const jobs = [0, 1, 2, 3, 4].map(() => enqueueOn(r, account(), 1));
    await until(() => jobs.every((j) => ended(j.id)()), 'every job');
    expect(peak).toBe(2);
  });

  it('stop() hands a running job back at its safe point; the next runner resumes it from the start', async () => {
    const acc = account();
    const first = runner();
    const starts: number[] = [];
    const def = (mark: number): JobKindDef<P, 'export'> => ({
      kind: 'export',
      run: async (job, ctx) => {
        starts.push(mark);
        for (let i = 0; i < 50; i++) {
          ctx.progress({ step: i });
          await sleep(mark === 1 ? 20 : 0, ctx.signal);
        }
        return { status: 'completed', charge: job.payload.rows };
      },
    });
    first.register(def(1));
    first.start();
    const job = enqueueOn(first, acc, 2);
    await until(() => ((a.getJob(job.id)!.result.step as number | undefined) ?? 0) > 2, 'progress');
    await first.stop();
    expect(a.getJob(job.id)).toMatchObject({ status: 'queued', attempts: 0, worker: null });
    expect(dayOf(a, acc).held).toBe(2);
    const second = runner();
    second.register(def(2));
    second.start();
    await until(ended(job.id), 'the resumed job');
    expect(starts).toEqual([1, 2]);
    expect(a.getJob(job.id)).toMatchObject({ status: 'completed', attempts: 1 });
    expect(dayOf(a, acc)).toMatchObject({ used: 2, held: 0 });
  });

  it('at start, requeues a job whose worker is gone (a dead pid, or a stopped runner of this process) and runs it', async () => {
    const acc = account();
    const gone = enqueueOn(runner(), acc, 1); // runner never started: the job just sits queued
    a.claimJob(['export'], T0, `${hostname()}/${process.pid}/deadbeef`);
    const other = exportJob(a, account(), 1, { exclusive: false }).job;
    a.claimJob(['export'], T0, `${hostname()}/999999999/cafe`);
    const r = runner();
    r.register({ kind: 'export', run: async () => ({ status: 'completed', charge: 1 }) });
    r.start();
    await until(() => ended(gone.id)() && ended(other.id)(), 'both orphans');
    expect(a.getJob(gone.id)).toMatchObject({ status: 'completed', attempts: 2 });
    expect(a.getJob(other.id)).toMatchObject({ status: 'completed', attempts: 2 });
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
    const job = r.enqueue({
      id: `exp_idle${++seq}`,
      accountId: account(),
      kind: 'export',
      payload: { rows: 1 },
      now: T0,
    }).job;
    await sleep(100);
    expect(runs).toBe(0);
    expect(a.getJob(job.id)?.status).toBe('queued');
    expect(r.isRunning).toBe(false);
  });
});

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
