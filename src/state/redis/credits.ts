import type { CreditSnapshot } from '../../domain/account.js';
import type { CreditKind, Hold } from '../../domain/credits.js';
import { newId } from '../../domain/ids.js';
import { type Budget, creditSnapshot, snapshotBudgets } from '../../domain/quota/index.js';
import type { ReserveRequest } from '../port.js';
import type { RedisAccounts } from './accounts.js';
import { type RedisClient, redisStep } from './client.js';
import { type HoldAsk, type HoldPlan, planHold, refusal, toHold } from './holds.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RELEASE_ORPHANS, RENEW_LEASES, RESERVE, SETTLE } from './scripts/credit-scripts.js';
import { arrayOf, hashOf, type LuaReply } from './scripts/lua-values.js';

/**
 * Credits on Redis (ARCHITECTURE rule 5), mirroring state/sqlite/credits.ts: balances change only through reserve ->
 * commit | release, and each of those is one Lua script (scripts/credit-scripts.ts) in which the cap checks and the
 * counter moves happen together, so concurrent processes can never pass a cap or settle a hold twice. JS computes
 * the budgets (plans are configuration) and builds the errors; Redis does the arithmetic. Those scripts also set the
 * expiry of settled request holds and of day and month counters (keys.ts: SETTLED_HOLD_TTL_MS, USAGE_TTL_MS).
 */
export class RedisCredits {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
    private readonly accounts: RedisAccounts,
    private readonly upgradeUrl: string,
  ) {
    this.k = redisKeys(prefix);
  }

  async reserve(req: ReserveRequest): Promise<Hold> {
    checkCount(req.amount, 'amount');
    const plan = await this.plan({ ...req, holdId: newId('hold') });
    const reply = arrayOf(
      await redisStep(() => RESERVE.run(this.client, this.scriptKeys(plan), [JSON.stringify(plan.lua)])),
    );
    if (reply[0] !== 'ok') throw refusal(plan, reply, this.upgradeUrl);
    return this.holdOf(reply[1]);
  }

  async commit(holdId: string, charged: number, now: Date): Promise<Hold> {
    checkCount(charged, 'charged');
    return this.settle(holdId, charged, 'committed', now);
  }

  async releaseHold(holdId: string, now: Date): Promise<Hold> {
    return this.settle(holdId, 0, 'released', now);
  }

  /**
   * Undefined for an unknown hold, and for a request's hold settled more than SETTLED_HOLD_TTL_MS ago (keys.ts: it
   * expired; a job's hold never does).
   */
  async getHold(holdId: string): Promise<Hold | undefined> {
    const h = await redisStep(() => this.client.hGetAll(this.k.hold(holdId)));
    return h.id === undefined ? undefined : toHold(h as Record<string, string>);
  }

  /** See StateStore.releaseOrphanHolds: one script, so a hold is never released while its job is being created. */
  async releaseOrphanHolds(now: Date): Promise<number> {
    const reply = await redisStep(() =>
      RELEASE_ORPHANS.run(
        this.client,
        [this.k.leasedHolds(), this.k.heldHolds()],
        [now.getTime(), now.toISOString(), this.k.hold(''), this.k.job('')],
      ),
    );
    return Number(reply);
  }

  async renewHoldLeases(holdIds: readonly string[], until: Date): Promise<void> {
    if (holdIds.length === 0) return;
    await redisStep(() =>
      RENEW_LEASES.run(
        this.client,
        [this.k.leasedHolds(), this.k.heldHolds()],
        [until.getTime(), until.toISOString(), this.k.hold(''), ...holdIds],
      ),
    );
  }

  /** Read in one MULTI so the windows are mutually consistent. */
  async snapshot(accountId: string, now: Date): Promise<CreditSnapshot> {
    const account = await this.accounts.require(accountId);
    const plan = this.accounts.planOf(account);
    const counterOf = (kind: CreditKind, b: Budget) => this.k.usage(account.id, kind, b.scope, b.window, b.start);
    const counters = snapshotBudgets(plan, account, now).map(({ kind, budget }) => counterOf(kind, budget));
    const multi = this.client.multi();
    for (const key of counters) multi.hmGet(key, ['used', 'held']);
    const rows = (await redisStep(() => multi.exec())) as unknown as (string | null)[][];
    const read = new Map(counters.map((key, i) => [key, rows[i] ?? []]));
    return creditSnapshot(plan, account, now, (kind, b) => {
      const row = read.get(counterOf(kind, b)) ?? [];
      return { used: Number(row[0] ?? 0), held: Number(row[1] ?? 0) };
    });
  }

  /** The budgets and script request of a hold on the account as it is now (throws for an unknown account). */
  async plan(ask: Omit<HoldAsk, 'account' | 'plan'> & { accountId: string }): Promise<HoldPlan> {
    const account = await this.accounts.require(ask.accountId);
    const { accountId: _, ...rest } = ask;
    return planHold(this.k, { ...rest, account, plan: this.accounts.planOf(account) });
  }

  /** KEYS of a hold script: the hold, the unleased and the leased holds, then every counter the hold moves. */
  scriptKeys(plan: HoldPlan): string[] {
    return [this.k.hold(plan.ask.holdId), this.k.heldHolds(), this.k.leasedHolds(), ...plan.counters];
  }

  /** The error a refused hold raises (the store's own *.exhausted 402). */
  refusal(plan: HoldPlan, reply: LuaReply[]): Error {
    return refusal(plan, reply, this.upgradeUrl);
  }

  holdOf(reply: LuaReply | undefined): Hold {
    const h = hashOf(reply);
    if (!h) throw new Error('hold script answered no hold');
    return toHold(h);
  }

  private async settle(holdId: string, charged: number, status: 'committed' | 'released', now: Date): Promise<Hold> {
    const reply = await redisStep(() =>
      SETTLE.run(
        this.client,
        [this.k.hold(holdId), this.k.heldHolds(), this.k.leasedHolds()],
        [status, charged, now.toISOString()],
      ),
    );
    const h = hashOf(reply as LuaReply);
    if (!h) throw new Error(`unknown hold ${holdId}`);
    return toHold(h);
  }
}

/** Credit amounts are whole, non-negative numbers; anything else is a caller bug, not client input. */
function checkCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number >= 0, got ${n}`);
}
