import type { Hold } from '../../domain/credits.js';
import { newId } from '../../domain/ids.js';
import { jobEndEvent } from '../../domain/webhooks/events.js';
import { JOB_KINDS, type Job, type JobEnd, type JobKind, type JobStatus, type NewJob } from '../../jobs/port.js';
import type { RedisAccounts } from './accounts.js';
import { type RedisClient, redisStep } from './client.js';
import type { RedisCredits } from './credits.js';
import { type HoldPlan, heldHold } from './holds.js';
import { mergePatch } from './json-merge-patch.js';
import { type RedisKeys, redisKeys } from './keys.js';
import {
  CLAIM_JOB,
  CLAIM_JOB_BY_ID,
  CREATE_JOB,
  FINISH_JOB,
  PROGRESS_JOB,
  QUEUED_JOBS,
  REQUEUE_STALE,
  YIELD_JOB,
} from './scripts/job-scripts.js';
import { arrayOf, hashOf, type LuaReply, nullable } from './scripts/lua-values.js';
import { emitArgs } from './webhooks.js';

/** Exported for cds state export (state/transfer). */
export const toJob = (h: Record<string, string>): Job => ({
  id: h.id ?? '',
  accountId: h.accountId ?? '',
  kind: h.kind as JobKind,
  status: h.status as JobStatus,
  payload: JSON.parse(h.payload ?? '{}') as Record<string, unknown>,
  result: JSON.parse(h.result ?? '{}') as Record<string, unknown>,
  holdId: h.holdId ?? null,
  error: h.error ?? null,
  attempts: Number(h.attempts),
  createdAt: h.createdAt ?? '',
  startedAt: h.startedAt ?? null,
  finishedAt: h.finishedAt ?? null,
  heartbeatAt: h.heartbeatAt ?? null,
  worker: h.worker ?? null,
});

const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/**
 * How often a write that lost a race is tried again: a job's payload computed for a grant that changed before the
 * script ran, or a result merged from a revision another write replaced. Each try is one atomic script that checks
 * what the try assumed; losing this many times in a row means something is badly wrong.
 */
const MAX_TRIES = 50;

/**
 * Jobs on Redis (port: jobs/port.ts), mirroring state/sqlite/jobs.ts. Every state change of a job is one Lua script
 * (scripts/job-scripts.ts). Creating a job checks exclusivity, takes its hold and writes the job in one script;
 * finishing ends it and settles its hold in one script. Two things SQLite does inside its transaction happen in JS
 * here and are then checked by the script, which writes nothing when they no longer hold: the payload function of
 * the granted hold, and the merge of a result (see MAX_TRIES).
 */
export class RedisJobs {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
    private readonly accounts: RedisAccounts,
    private readonly credits: RedisCredits,
  ) {
    this.k = redisKeys(prefix);
  }

  /**
   * The payload function runs before the script, for the grant the script is expected to make (the whole amount
   * first); when the script grants something else it writes nothing and answers the grant, and the payload is
   * computed again for it. Payload functions must therefore be pure.
   */
  async create<P>(job: NewJob<P>): Promise<{ job: Job<P>; hold: Hold | null }> {
    const account = await this.accounts.require(job.accountId);
    let plan: HoldPlan | null = null;
    if (job.hold) {
      plan = await this.credits.plan({
        accountId: account.id,
        holdId: newId('hold'),
        kind: job.hold.kind,
        category: job.hold.category,
        amount: job.hold.amount,
        mode: job.hold.mode,
        now: job.now,
        jobId: job.id,
        ...(job.hold.minimum !== undefined ? { minimum: job.hold.minimum } : {}),
      });
    }
    const keys = [
      this.k.job(job.id),
      this.k.jobSeq(),
      this.k.activeJobs(account.id),
      this.k.accountJobs(account.id),
      this.k.accountJobsOfKind(account.id, job.kind),
      this.k.queuedJobs(job.kind),
      ...(plan ? this.credits.scriptKeys(plan) : []),
    ];
    const exclusive = job.exclusive && {
      kinds: job.exclusive.kinds,
      ...(job.exclusive.sameAlertId !== undefined ? { alertId: job.exclusive.sameAlertId } : {}),
    };
    let expected = plan?.ask.amount ?? 0;
    for (let tries = 1; ; tries++) {
      const hold = plan && heldHold(plan.ask, expected);
      const payload = typeof job.payload === 'function' ? (job.payload as (h: Hold | null) => P)(hold) : job.payload;
      const alertId = (payload as { alertId?: unknown } | null)?.alertId;
      const request = {
        id: job.id,
        accountId: account.id,
        kind: job.kind,
        payload: JSON.stringify(payload),
        createdAt: job.now.toISOString(),
        score: String(job.now.getTime()),
        jobPrefix: this.k.job(''),
        ...(typeof alertId === 'string' ? { alertId } : {}),
        ...(exclusive ? { exclusive } : {}),
        ...(plan ? { hold: { ...plan.lua, expected } } : {}),
      };
      const reply = arrayOf(await redisStep(() => CREATE_JOB.run(this.client, keys, [JSON.stringify(request)])));
      switch (reply[0]) {
        case 'ok':
          return {
            job: toJob(hashOf(reply[1])!) as Job<P>,
            hold: reply[2] ? this.credits.holdOf(reply[2]) : null,
          };
        case 'busy':
          throw job.exclusive!.error();
        case 'exists':
          throw new Error(`a job with the id ${job.id} already exists`);
        case 'regrant':
          if (tries >= MAX_TRIES) throw new Error(`job ${job.id}: the grant kept changing under contention`);
          expected = Number(reply[1]);
          continue;
        default:
          throw this.credits.refusal(plan!, reply);
      }
    }
  }

  async get(id: string): Promise<Job | undefined> {
    const h = await redisStep(() => this.client.hGetAll(this.k.job(id)));
    return h.id === undefined ? undefined : toJob(h as Record<string, string>);
  }

  /** Newest first (createdAt, then insertion order), as `ORDER BY created_at DESC, rowid DESC LIMIT ?`. */
  async list(accountId: string, kind?: JobKind, limit = 100): Promise<Job[]> {
    if (limit === 0) return [];
    const key = kind ? this.k.accountJobsOfKind(accountId, kind) : this.k.accountJobs(accountId);
    // A negative LIMIT is no limit in SQLite.
    const members = await redisStep(() => this.client.zRange(key, 0, limit < 0 ? -1 : limit - 1, { REV: true }));
    if (members.length === 0) return [];
    const multi = this.client.multi();
    for (const m of members) multi.hGetAll(this.k.job(idOfMember(m)));
    const rows = (await redisStep(() => multi.exec())) as unknown as Record<string, string>[];
    return rows.filter((h) => h.id !== undefined).map(toJob);
  }

  async claimNext(kinds: JobKind[], now: Date, worker?: string): Promise<Job | undefined> {
    if (kinds.length === 0) return undefined;
    const reply = await redisStep(() =>
      CLAIM_JOB.run(
        this.client,
        [this.k.runningJobs(), ...kinds.map((kind) => this.k.queuedJobs(kind))],
        [now.toISOString(), nullable(worker), this.k.job('')],
      ),
    );
    const h = hashOf(reply as LuaReply);
    return h && toJob(h);
  }

  /** Moves this one job from queued to running for `worker`, like claimNext; undefined when it is not queued. */
  async claimById(id: string, now: Date, worker: string): Promise<Job | undefined> {
    const reply = await redisStep(() =>
      CLAIM_JOB_BY_ID.run(
        this.client,
        [this.k.job(id), this.k.runningJobs()],
        [now.toISOString(), nullable(worker), this.k.queuedJobs('')],
      ),
    );
    const h = hashOf(reply as LuaReply);
    return h && toJob(h);
  }

  /** Queued jobs of every kind, oldest first (`ORDER BY created_at, rowid LIMIT ?`), read in one script. */
  async queuedJobs(limit: number): Promise<Array<Pick<Job, 'id' | 'kind' | 'attempts'>>> {
    if (limit === 0) return [];
    const reply = arrayOf(
      await redisStep(() =>
        QUEUED_JOBS.run(
          this.client,
          JOB_KINDS.map((kind) => this.k.queuedJobs(kind)),
          [limit < 0 ? -1 : limit, this.k.job('')],
        ),
      ),
    );
    const out: Array<Pick<Job, 'id' | 'kind' | 'attempts'>> = [];
    for (let i = 0; i + 2 < reply.length; i += 3)
      out.push({ id: String(reply[i]), kind: String(reply[i + 1]) as JobKind, attempts: Number(reply[i + 2]) });
    return out;
  }

  /** Merges `result` into the job's result (RFC 7396, as SQLite's json_patch) and refreshes the heartbeat. */
  async saveProgress(id: string, result: Record<string, unknown>, now: Date, attempt?: number): Promise<boolean> {
    // Through JSON first, as SQLite receives it: undefined members are absent, not removals.
    const patch = JSON.parse(JSON.stringify(result)) as unknown;
    for (let tries = 1; ; tries++) {
      const seen = await this.readForWrite(id);
      if (seen?.status !== 'running' || (attempt !== undefined && seen.attempts !== attempt)) return false;
      const merged = JSON.stringify(mergePatch(JSON.parse(seen.result), patch));
      const reply = await redisStep(() =>
        PROGRESS_JOB.run(
          this.client,
          [this.k.job(id)],
          [nullable(attempt === undefined ? null : String(attempt)), seen.rev, merged, now.toISOString()],
        ),
      );
      if (reply !== -1) return reply === 1;
      if (tries >= MAX_TRIES) throw new Error(`job ${id}: its result kept changing under contention`);
    }
  }

  async finish(id: string, end: JobEnd, now: Date): Promise<boolean> {
    if (!Number.isSafeInteger(end.charge) || end.charge < 0)
      throw new RangeError(`charge must be a whole number >= 0, got ${end.charge}`);
    for (let tries = 1; ; tries++) {
      const seen = await this.readForWrite(id);
      if (!seen) throw new Error(`unknown job ${id}`);
      if (ENDED.has(seen.status)) return false;
      if (end.attempt !== undefined && seen.attempts !== end.attempt) return false;
      const result = { ...(JSON.parse(seen.result) as Record<string, unknown>), ...(end.result ?? {}) };
      const keys = [
        this.k.job(id),
        this.k.runningJobs(),
        this.k.activeJobs(seen.accountId),
        this.k.queuedJobs(seen.kind),
      ];
      if (seen.holdId !== null) keys.push(this.k.hold(seen.holdId), this.k.heldHolds(), this.k.leasedHolds());
      // The webhook event of this end, written by the same script (never without the end, never twice).
      const payload = JSON.parse((await redisStep(() => this.client.hGet(this.k.job(id), 'payload'))) ?? '{}');
      const event = jobEndEvent({
        id,
        kind: seen.kind,
        status: end.status,
        payload: payload as Record<string, unknown>,
        result,
        error: end.error ?? null,
      });
      const reply = arrayOf(
        await redisStep(() =>
          FINISH_JOB.run(this.client, keys, [
            nullable(end.attempt === undefined ? null : String(end.attempt)),
            seen.rev,
            end.status,
            JSON.stringify(result),
            nullable(end.error),
            now.toISOString(),
            end.charge,
            ...emitArgs(this.prefix, seen.accountId, event, now),
          ]),
        ),
      );
      switch (reply[0]) {
        case 'ok':
          return true;
        case 'ended':
          return false;
        case 'retry':
          if (tries >= MAX_TRIES) throw new Error(`job ${id}: its result kept changing under contention`);
          continue;
        case 'nohold':
          throw new Error(`unknown hold ${seen.holdId}`);
        default:
          throw new Error(`unknown job ${id}`);
      }
    }
  }

  async yield(id: string, attempt: number, spent = false): Promise<boolean> {
    const reply = await redisStep(() =>
      YIELD_JOB.run(
        this.client,
        [this.k.job(id), this.k.runningJobs()],
        [attempt, spent ? 0 : 1, this.k.queuedJobs('')],
      ),
    );
    return reply === 1;
  }

  /**
   * Reads the running jobs, picks the stale ones in JS (`isDead` is a function), and requeues them in one script
   * that skips any job changed since it was read.
   */
  async requeueStale(staleBefore: Date, isDead: (worker: string) => boolean = () => false): Promise<Job[]> {
    const ids = await redisStep(() => this.client.sMembers(this.k.runningJobs()));
    if (ids.length === 0) return [];
    const multi = this.client.multi();
    for (const id of ids) multi.hGetAll(this.k.job(id));
    const rows = (await redisStep(() => multi.exec())) as unknown as Record<string, string>[];
    const before = staleBefore.toISOString();
    const stale = rows
      .filter((h) => h.id !== undefined && h.status === 'running')
      .filter(
        (h) => h.heartbeatAt === undefined || h.heartbeatAt < before || (h.worker !== undefined && isDead(h.worker)),
      )
      .sort((x, y) => ((x.order ?? '') < (y.order ?? '') ? -1 : 1));
    if (stale.length === 0) return [];
    const args = stale.flatMap((h) => [h.id!, h.attempts ?? '0', nullable(h.heartbeatAt), nullable(h.worker)]);
    const reply = await redisStep(() =>
      REQUEUE_STALE.run(this.client, [this.k.runningJobs()], [this.k.job(''), this.k.queuedJobs(''), ...args]),
    );
    return arrayOf(reply).map((r) => toJob(hashOf(r)!));
  }

  /** What a result write starts from: the job's state and the result revision the script will check. */
  private async readForWrite(id: string) {
    const [status, attempts, result, rev, holdId, kind, accountId] = await redisStep(() =>
      this.client.hmGet(this.k.job(id), ['status', 'attempts', 'result', 'rev', 'holdId', 'kind', 'accountId']),
    );
    if (status === null || status === undefined) return undefined;
    return {
      status,
      attempts: Number(attempts),
      result: result ?? '{}',
      rev: rev ?? '0',
      holdId: holdId ?? null,
      kind: kind ?? '',
      accountId: accountId ?? '',
    };
  }
}

/** A sorted-set member `<seq, 15 digits>:<id>` -> the id. */
function idOfMember(member: string): string {
  return member.slice(16);
}
