import type { Account, AccountStatus, Plan } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { PlanBook } from '../plans.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';

/** An account id no account has: the same AppError as the SQLite adapter's. */
export function unknownAccount(id: string): AppError {
  return new AppError('request.invalid', `No account has the id ${JSON.stringify(id)}.`, { field: 'account_id' });
}

const toAccount = (h: Record<string, string>): Account => ({
  id: h.id ?? '',
  name: h.name ?? '',
  plan: h.plan ?? '',
  billingDay: h.billingDay === undefined ? null : Number(h.billingDay),
  status: h.status as AccountStatus,
  createdAt: h.createdAt ?? '',
});

/**
 * Accounts as Redis hashes (layout in keys.ts). Accounts are never deleted, so "exists, then update" needs no
 * script: once an account exists it stays, and each update writes only its own fields (a plan change and a
 * suspension at the same moment both land). Inputs come from the operator CLI and admin routes, so bad ones are
 * AppErrors, as in the SQLite adapter.
 */
export class RedisAccounts {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
    private readonly plans: PlanBook,
  ) {
    this.k = redisKeys(prefix);
  }

  async create(input: { name: string; plan: string; billingDay: number | null; now: Date }): Promise<Account> {
    const name = input.name.trim();
    if (!name) throw new AppError('request.invalid', 'An account needs a name.', { field: 'name' });
    this.plans.checkAccountInput(input);
    const account: Account = {
      id: newId('account'),
      name,
      plan: input.plan,
      billingDay: input.billingDay,
      status: 'active',
      createdAt: input.now.toISOString(),
    };
    const fields: Record<string, string> = {
      id: account.id,
      name,
      plan: account.plan,
      status: account.status,
      createdAt: account.createdAt,
    };
    if (account.billingDay !== null) fields.billingDay = String(account.billingDay);
    await this.client
      .multi()
      .hSet(this.k.account(account.id), fields)
      .zAdd(this.k.accounts(), { score: input.now.getTime(), value: account.id })
      .exec();
    return account;
  }

  async get(id: string): Promise<Account | undefined> {
    const h = (await this.client.hGetAll(this.k.account(id))) as Record<string, string>;
    return h.id === undefined ? undefined : toAccount(h);
  }

  async require(id: string): Promise<Account> {
    const account = await this.get(id);
    if (!account) throw unknownAccount(id);
    return account;
  }

  /** Oldest first (created_at, then id), as the SQLite adapter lists them. */
  async list(): Promise<Account[]> {
    const ids = await this.client.zRange(this.k.accounts(), 0, -1);
    if (ids.length === 0) return [];
    const multi = this.client.multi();
    for (const id of ids) multi.hGetAll(this.k.account(id));
    const rows = (await multi.exec()) as unknown as Record<string, string>[];
    return rows.filter((h) => h.id !== undefined).map(toAccount);
  }

  async setStatus(id: string, status: AccountStatus): Promise<Account> {
    if (status !== 'active' && status !== 'suspended')
      throw new AppError('request.invalid', 'Status is active or suspended.', { field: 'status' });
    await this.require(id);
    await this.client.hSet(this.k.account(id), 'status', status);
    return this.require(id);
  }

  async setPlan(id: string, input: { plan: string; billingDay: number | null }): Promise<Account> {
    this.plans.checkAccountInput(input);
    await this.require(id);
    const key = this.k.account(id);
    const multi = this.client.multi().hSet(key, 'plan', input.plan);
    if (input.billingDay === null) multi.hDel(key, 'billingDay');
    else multi.hSet(key, 'billingDay', String(input.billingDay));
    await multi.exec();
    return this.require(id);
  }

  /** The account's plan (PlanBook.planOf). */
  planOf(account: Account): Plan {
    return this.plans.planOf(account);
  }
}
