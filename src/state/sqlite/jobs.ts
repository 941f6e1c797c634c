import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { Hold } from '../../domain/credits.js';
import { jobEndEvent } from '../../domain/webhooks/events.js';
import type { Job, JobEnd, JobKind, JobStatus, NewJob } from '../../jobs/port.js';
import type { SqliteAccounts } from './accounts.js';
import type { SqliteCredits } from './credits.js';
import type { SqliteWebhooks } from './webhooks.js';

interface JobRow {
  id: string;
  account_id: string;
  kind: JobKind;
  status: JobStatus;
  payload: string;
  result: string;
  hold_id: string | null;
  error: string | null;
  attempts: number;
  worker: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: string | null;
}

const toJob = (r: JobRow): Job => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  status: r.status,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  result: JSON.parse(r.result) as Record<string, unknown>,
  holdId: r.hold_id,
  error: r.error,
  attempts: r.attempts,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  heartbeatAt: r.heartbeat_at,
  worker: r.worker,
});

const ENDED: ReadonlySet<JobStatus> = new Set(['completed', 'failed', 'cancelled']);

/**
 * Jobs (port: jobs/port.ts). Every state change is one IMMEDIATE transaction; the credit hold is taken and
 * settled through SqliteCredits inside it (better-sqlite3 nests its transaction as a savepoint), so a job
 * and its hold are written or settled together or not at all.
 */
export class SqliteJobs {
  private readonly insert: Statement<[JobRow]>;
  private readonly byId: Statement<[string], JobRow>;
  private readonly byAccount: Statement<[string, number], JobRow>;
  private readonly byAccountKind: Statement<[string, string, number], JobRow>;
  private readonly activeOfKinds: Statement<[string, string], { id: string }>;
  private readonly activeOfAlert: Statement<[string, string, string], { id: string }>;
  private readonly claim: Statement<[{ kinds: string; now: string; worker: string | null }], JobRow>;
  private readonly anyQueued: Statement<[{ kinds: string }], number>;
  private readonly progress: Statement<[{ id: string; result: string; now: string; attempt: number | null }]>;
  private readonly end: Statement<
    [{ id: string; status: JobStatus; result: string; error: string | null; now: string }]
  >;
  private readonly requeue: Statement<[{ id: string; back: number }]>;
  private readonly claimOne: Statement<[{ id: string; now: string; worker: string }], JobRow>;
  private readonly queued: Statement<[number], Pick<JobRow, 'id' | 'kind' | 'attempts'>>;
  private readonly running: Statement<[], JobRow>;
  private readonly createTx: Transaction<(job: NewJob<unknown>) => { job: Job; hold: Hold | null }>;
  private readonly finishTx: Transaction<(id: string, end: JobEnd, now: Date) => boolean>;
  private readonly yieldTx: Transaction<(id: string, attempt: number, spent: boolean) => boolean>;
  private readonly requeueTx: Transaction<(staleBefore: Date, isDead: (worker: string) => boolean) => Job[]>;

  constructor(
    db: Database,
    private readonly accounts: SqliteAccounts,
    private readonly credits: SqliteCredits,
    private readonly webhooks?: SqliteWebhooks,
  ) {
    this.insert = db.prepare(
      `INSERT INTO jobs (id, account_id, kind, status, payload, result, hold_id, error, attempts, worker, created_at, started_at, finished_at, heartbeat_at)
       VALUES (@id, @account_id, @kind, @status, @payload, @result, @hold_id, @error, @attempts, @worker, @created_at, @started_at, @finished_at, @heartbeat_at)`,
    );
    this.byId = db.prepare('SELECT * FROM jobs WHERE id = ?');
    this.byAccount = db.prepare('SELECT * FROM jobs WHERE account_id = ? ORDER BY created_at DESC, rowid DESC LIMIT ?');
    this.byAccountKind = db.prepare(
      'SELECT * FROM jobs WHERE account_id = ? AND kind = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
    );
    this.activeOfKinds = db.prepare(
      'SELECT id FROM jobs WHERE account_id = ? AND kind IN (SELECT value FROM json_each(?)) AND status IN ' +
        "('queued', 'running') LIMIT 1",
    );
    this.activeOfAlert = db.prepare(
      'SELECT id FROM jobs WHERE account_id = ? AND kind IN (SELECT value FROM json_each(?)) AND status IN ' +
        "('queued', 'running') AND json_extract(payload, '$.alertId') = ? LIMIT 1",
    );
    // The jobs a claim may take: the poll's read and the claim's UPDATE ask the same thing.
    const queued = "status = 'queued' AND kind IN (SELECT value FROM json_each(@kinds))";
    this.claim = db.prepare(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, worker = @worker, started_at = @now, heartbeat_at = @now
       WHERE id = (SELECT id FROM jobs WHERE ${queued} ORDER BY created_at, rowid LIMIT 1)
       RETURNING *`,
    );
    this.anyQueued = db.prepare(`SELECT 1 FROM jobs WHERE ${queued} LIMIT 1`).pluck() as Statement<
      [{ kinds: string }],
      number
    >;
    this.claimOne = db.prepare(
      `UPDATE jobs SET status = 'running', attempts = attempts + 1, worker = @worker, started_at = @now, heartbeat_at = @now
       WHERE id = @id AND status = 'queued' RETURNING *`,
    );
    this.queued = db.prepare(
      "SELECT id, kind, attempts FROM jobs WHERE status = 'queued' ORDER BY created_at, rowid LIMIT ?",
    );
    this.progress = db.prepare(
      `UPDATE jobs SET result = json_patch(result, @result), heartbeat_at = @now
       WHERE id = @id AND status = 'running' AND (@attempt IS NULL OR attempts = @attempt)`,
    );
    this.end = db.prepare(
      'UPDATE jobs SET status = @status, result = @result, error = @error, finished_at = @now, heartbeat_at = NULL, ' +
        'worker = NULL WHERE id = @id',
    );
    this.requeue = db.prepare(
      "UPDATE jobs SET status = 'queued', attempts = attempts - @back, worker = NULL, heartbeat_at = NULL WHERE id " +
        '= @id',
    );
    this.running = db.prepare("SELECT * FROM jobs WHERE status = 'running'");
    this.createTx = db.transaction((job) => this.createIn(job));
    this.finishTx = db.transaction((id, end, now) => this.finishIn(id, end, now));
    this.yieldTx = db.transaction((id, attempt, spent) => {
      const row = this.byId.get(id);
      if (row?.status !== 'running' || row.attempts !== attempt) return false;
      this.requeue.run({ id, back: spent ? 0 : 1 });
      return true;
    });
    this.requeueTx = db.transaction((staleBefore, isDead) => {
      const stale = this.running
        .all()
        .filter(
          (r) =>
            r.heartbeat_at === null ||
            r.heartbeat_at < staleBefore.toISOString() ||
            (r.worker !== null && isDead(r.worker)),
        );
      for (const r of stale) this.requeue.run({ id: r.id, back: 0 });
      return stale.map((r) => toJob(this.byId.get(r.id)!));
    });
  }

  create<P>(job: NewJob<P>): { job: Job<P>; hold: Hold | null } {
    return this.createTx.immediate(job as NewJob<unknown>) as { job: Job<P>; hold: Hold | null };
  }

  get(id: string): Job | undefined {
    const row = this.byId.get(id);
    return row && toJob(row);
  }

  list(accountId: string, kind?: JobKind, limit = 100): Job[] {
    const rows = kind ? this.byAccountKind.all(accountId, kind, limit) : this.byAccount.all(accountId, limit);
    return rows.map(toJob);
  }

  claimNext(kinds: JobKind[], now: Date, worker?: string): Job | undefined {
    if (kinds.length === 0) return undefined;
    const list = JSON.stringify(kinds);
    // A runner polls every kind several times a second: with nothing queued the poll is a read, so an idle server
    // takes no write lock (an UPDATE that matches nothing still does, and waits for another process's writer).
    if (this.anyQueued.get({ kinds: list }) === undefined) return undefined;
    // One UPDATE … RETURNING: two processes can never claim the same row.
    const row = this.claim.get({ kinds: list, now: now.toISOString(), worker: worker ?? null });
    return row && toJob(row);
  }

  claimById(id: string, now: Date, worker: string): Job | undefined {
    const row = this.claimOne.get({ id, now: now.toISOString(), worker });
    return row && toJob(row);
  }

  queuedJobs(limit: number): Array<Pick<Job, 'id' | 'kind' | 'attempts'>> {
    return this.queued.all(limit);
  }

  saveProgress(id: string, result: Record<string, unknown>, now: Date, attempt?: number): boolean {
    // json_patch merges members into the stored object (RFC 7396: a null member removes that key).
    return (
      this.progress.run({ id, result: JSON.stringify(result), now: now.toISOString(), attempt: attempt ?? null })
        .changes === 1
    );
  }

  finish(id: string, end: JobEnd, now: Date): boolean {
    if (!Number.isSafeInteger(end.charge) || end.charge < 0)
      throw new RangeError(`charge must be a whole number >= 0, got ${end.charge}`);
    return this.finishTx.immediate(id, end, now);
  }

  yield(id: string, attempt: number, spent = false): boolean {
    return this.yieldTx.immediate(id, attempt, spent);
  }

  requeueStale(staleBefore: Date, isDead: (worker: string) => boolean = () => false): Job[] {
    return this.requeueTx.immediate(staleBefore, isDead);
  }

  private createIn(job: NewJob<unknown>): { job: Job; hold: Hold | null } {
    const account = this.accounts.require(job.accountId);
    if (job.exclusive) {
      const kinds = JSON.stringify(job.exclusive.kinds);
      const busy =
        job.exclusive.sameAlertId !== undefined
          ? this.activeOfAlert.get(account.id, kinds, job.exclusive.sameAlertId)
          : this.activeOfKinds.get(account.id, kinds);
      if (busy) throw job.exclusive.error();
    }
    let hold: Hold | null = null;
    if (job.hold) {
      const req = { accountId: account.id, kind: job.hold.kind, category: job.hold.category, now: job.now };
      hold = this.credits.reserve({ ...req, amount: job.hold.amount, mode: job.hold.mode });
      const minimum = job.hold.minimum ?? 0;
      // Too little granted: ask for the minimum exactly, which raises the store's own 402 with binding and
      // resets_at; throwing rolls back the hold taken above with the rest of the transaction.
      if (hold.amount < minimum) this.credits.reserve({ ...req, amount: minimum, mode: 'exact' });
    }
    const payload =
      typeof job.payload === 'function' ? (job.payload as (h: Hold | null) => unknown)(hold) : job.payload;
    const row: JobRow = {
      id: job.id,
      account_id: account.id,
      kind: job.kind,
      status: 'queued',
      payload: JSON.stringify(payload),
      result: '{}',
      hold_id: hold?.id ?? null,
      error: null,
      attempts: 0,
      worker: null,
      created_at: job.now.toISOString(),
      started_at: null,
      finished_at: null,
      heartbeat_at: null,
    };
    this.insert.run(row);
    return { job: toJob(row), hold };
  }

  private finishIn(id: string, end: JobEnd, now: Date): boolean {
    const row = this.byId.get(id);
    if (!row) throw new Error(`unknown job ${id}`);
    if (ENDED.has(row.status)) return false;
    if (end.attempt !== undefined && row.attempts !== end.attempt) return false;
    const result = { ...(JSON.parse(row.result) as Record<string, unknown>), ...(end.result ?? {}) };
    this.end.run({
      id,
      status: end.status,
      result: JSON.stringify(result),
      error: end.error ?? null,
      now: now.toISOString(),
    });
    if (row.hold_id) {
      if (end.charge > 0) this.credits.commit(row.hold_id, end.charge, now);
      else this.credits.releaseHold(row.hold_id, now);
    }
    // The webhook event of this end (export.completed, …) commits with it, or not at all.
    const event = jobEndEvent({
      id,
      kind: row.kind,
      status: end.status,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
      result,
      error: end.error ?? null,
    });
    if (event) this.webhooks?.emitIn(row.account_id, event, now);
    return true;
  }
}
