import type { Database, Statement } from 'better-sqlite3';
import type { Account, AccountStatus, Plan } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { PlanBook } from '../plans.js';

export interface AccountRow {
  id: string;
  name: string;
  plan: string;
  billing_day: number | null;
  status: AccountStatus;
  created_at: string;
}

/** An accounts row as the domain's Account (also how the state transfer writes one into Redis). */
export const toAccount = (r: AccountRow): Account => ({
  id: r.id,
  name: r.name,
  plan: r.plan,
  billingDay: r.billing_day,
  status: r.status,
  createdAt: r.created_at,
});

export function unknownAccount(id: string): AppError {
  return new AppError('request.invalid', `No account has the id ${JSON.stringify(id)}.`, { field: 'account_id' });
}

/** Accounts table. Inputs come from the operator CLI and admin routes, so bad ones are AppErrors, not crashes. */
export class SqliteAccounts {
  private readonly insert: Statement<[AccountRow]>;
  private readonly byId: Statement<[string], AccountRow>;
  private readonly all: Statement<[], AccountRow>;
  private readonly updateStatus: Statement<[{ id: string; status: AccountStatus }]>;
  private readonly updatePlan: Statement<[{ id: string; plan: string; billing_day: number | null }]>;

  constructor(
    db: Database,
    private readonly plans: PlanBook,
  ) {
    this.insert = db.prepare(
      'INSERT INTO accounts (id, name, plan, billing_day, status, created_at) VALUES (@id, @name, @plan, ' +
        '@billing_day, @status, @created_at)',
    );
    this.byId = db.prepare('SELECT * FROM accounts WHERE id = ?');
    this.all = db.prepare('SELECT * FROM accounts ORDER BY created_at, id');
    this.updateStatus = db.prepare('UPDATE accounts SET status = @status WHERE id = @id');
    this.updatePlan = db.prepare('UPDATE accounts SET plan = @plan, billing_day = @billing_day WHERE id = @id');
  }

  create(input: { name: string; plan: string; billingDay: number | null; now: Date }): Account {
    const name = input.name.trim();
    if (!name) throw new AppError('request.invalid', 'An account needs a name.', { field: 'name' });
    this.plans.checkAccountInput(input);
    const row: AccountRow = {
      id: newId('account'),
      name,
      plan: input.plan,
      billing_day: input.billingDay,
      status: 'active',
      created_at: input.now.toISOString(),
    };
    this.insert.run(row);
    return toAccount(row);
  }

  get(id: string): Account | undefined {
    const row = this.byId.get(id);
    return row && toAccount(row);
  }

  require(id: string): Account {
    const account = this.get(id);
    if (!account) throw unknownAccount(id);
    return account;
  }

  list(): Account[] {
    return this.all.all().map(toAccount);
  }

  setStatus(id: string, status: AccountStatus): Account {
    if (status !== 'active' && status !== 'suspended')
      throw new AppError('request.invalid', 'Status is active or suspended.', { field: 'status' });
    if (this.updateStatus.run({ id, status }).changes === 0) throw unknownAccount(id);
    return this.require(id);
  }

  setPlan(id: string, input: { plan: string; billingDay: number | null }): Account {
    this.plans.checkAccountInput(input);
    if (this.updatePlan.run({ id, plan: input.plan, billing_day: input.billingDay }).changes === 0)
      throw unknownAccount(id);
    return this.require(id);
  }

  /** The account's plan (PlanBook.planOf). */
  planOf(account: Account): Plan {
    return this.plans.planOf(account);
  }
}
