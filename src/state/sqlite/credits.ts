import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { CreditSnapshot } from '../../domain/account.js';
import type { CreditKind, Hold, UsageCategory } from '../../domain/credits.js';
import { newId } from '../../domain/ids.js';
import {
  type Budget,
  type BudgetScope,
  budgetsFor,
  contactExhausted,
  creditSnapshot,
  premiumExhausted,
  type WindowKind,
} from '../../domain/quota/index.js';
import { lineOf, type UsageLine, utcDay } from '../../domain/usage-lines.js';
import type { ReserveRequest } from '../port.js';
import type { SqliteAccounts } from './accounts.js';
import { type CounterKey, UsageCounters } from './usage.js';
import { SqliteDailyUsage } from './usage-daily.js';

interface HoldRow {
  id: string;
  account_id: string;
  kind: CreditKind;
  category: UsageCategory | null;
  amount: number;
  charged: number;
  status: Hold['status'];
  created_at: string;
  settled_at: string | null;
  lease_until: string | null;
  line: UsageLine | null;
}

const toHold = (r: HoldRow): Hold => ({
  id: r.id,
  accountId: r.account_id,
  kind: r.kind,
  category: r.category,
  amount: r.amount,
  status: r.status,
  charged: r.charged,
  createdAt: r.created_at,
  settledAt: r.settled_at,
});

/**
 * Credits (ARCHITECTURE rule 5): balances change only through reserve -> commit | release, each one
 * IMMEDIATE transaction (the write lock is taken up front, so concurrent processes queue on busy_timeout
 * instead of failing on a lock upgrade), and each cap check is a guarded UPDATE inside it.
 */
export class SqliteCredits {
  private readonly usage: UsageCounters;
  readonly daily: SqliteDailyUsage;
  private readonly insertHold: Statement<[HoldRow]>;
  private readonly insertWindow: Statement<[{ hold_id: string; window_kind: WindowKind; window_start: string }]>;
  private readonly holdById: Statement<[string], HoldRow>;
  private readonly windowsOf: Statement<[string], { window_kind: WindowKind; window_start: string }>;
  private readonly markSettled: Statement<
    [{ id: string; status: 'committed' | 'released'; charged: number; now: string }]
  >;
  private readonly reserveTx: Transaction<(req: ReserveRequest) => Hold>;
  private readonly settleTx: Transaction<
    (holdId: string, charged: number, status: 'committed' | 'released', now: Date) => Hold
  >;
  private readonly snapshotTx: Transaction<(accountId: string, now: Date) => CreditSnapshot>;

  constructor(
    db: Database,
    private readonly accounts: SqliteAccounts,
    private readonly upgradeUrl: string,
  ) {
    this.usage = new UsageCounters(db);
    this.daily = new SqliteDailyUsage(db);
    this.insertHold = db.prepare(
      'INSERT INTO holds (id, account_id, kind, category, amount, charged, status, created_at, settled_at, ' +
        'lease_until, line) VALUES (@id, @account_id, @kind, @category, @amount, @charged, @status, @created_at, ' +
        '@settled_at, @lease_until, @line)',
    );
    this.insertWindow = db.prepare(
      'INSERT INTO hold_windows (hold_id, window_kind, window_start) VALUES (@hold_id, @window_kind, @window_start)',
    );
    this.holdById = db.prepare('SELECT * FROM holds WHERE id = ?');
    this.windowsOf = db.prepare('SELECT window_kind, window_start FROM hold_windows WHERE hold_id = ?');
    this.markSettled = db.prepare(
      "UPDATE holds SET status = @status, charged = @charged, settled_at = @now WHERE id = @id AND status = 'held'",
    );
    this.reserveTx = db.transaction((req) => this.reserveIn(req));
    this.settleTx = db.transaction((holdId, charged, status, now) => this.settleIn(holdId, charged, status, now));
    this.snapshotTx = db.transaction((accountId, now) => this.snapshotIn(accountId, now));
  }

  reserve(req: ReserveRequest): Hold {
    checkCount(req.amount, 'amount');
    return this.reserveTx.immediate(req);
  }

  commit(holdId: string, charged: number, now: Date): Hold {
    checkCount(charged, 'charged');
    return this.settleTx.immediate(holdId, charged, 'committed', now);
  }

  releaseHold(holdId: string, now: Date): Hold {
    return this.settleTx.immediate(holdId, 0, 'released', now);
  }

  /**
   * Commits a held hold inside the caller's transaction (a signal batch and its charge in one step); undefined,
   * with nothing moved, when the hold is unknown or no longer held.
   */
  commitWithin(holdId: string, charged: number, now: Date): Hold | undefined {
    checkCount(charged, 'charged');
    if (this.holdById.get(holdId)?.status !== 'held') return undefined;
    return this.settleIn(holdId, charged, 'committed', now);
  }

  getHold(holdId: string): Hold | undefined {
    const row = this.holdById.get(holdId);
    return row && toHold(row);
  }

  /** Read in one transaction so the windows are mutually consistent. */
  snapshot(accountId: string, now: Date): CreditSnapshot {
    return this.snapshotTx.deferred(accountId, now);
  }

  private reserveIn(req: ReserveRequest): Hold {
    const account = this.accounts.require(req.accountId);
    const plan = this.accounts.planOf(account);
    const budgets = budgetsFor(plan, account.billingDay, req.kind, req.category, req.now);
    const counter = (b: Budget, category: BudgetScope): CounterKey => ({
      account_id: account.id,
      kind: req.kind,
      category,
      window_kind: b.window,
      window_start: b.start,
    });

    const left = budgets.map((b) => {
      const u = this.usage.read(counter(b, b.scope));
      return { budget: b, remaining: Math.max(0, b.cap - u.used - u.held) };
    });
    const short = left.filter((l) => l.remaining < req.amount);
    let granted = req.amount;
    if (short.length > 0) {
      if (req.mode === 'exact') {
        throw req.kind === 'premium'
          ? premiumExhausted(short[0]!.budget, short[0]!.remaining, req.amount, this.upgradeUrl)
          : contactExhausted(short, req.amount);
      }
      granted = Math.min(...short.map((s) => s.remaining));
    }

    // Every hold moves the plan-wide counter and, when it names one, its category's counter.
    const scopes: BudgetScope[] = req.category ? ['*', req.category] : ['*'];
    for (const b of budgets) {
      for (const scope of scopes) {
        if (scope !== b.scope) this.usage.hold(counter(b, scope), granted);
        else if (!this.usage.holdWithin(counter(b, scope), granted, b.cap))
          throw new Error(`credit guard refused a hold on ${b.window} ${b.start}`);
      }
    }

    const row: HoldRow = {
      id: newId('hold'),
      account_id: account.id,
      kind: req.kind,
      category: req.category,
      amount: granted,
      charged: 0,
      status: 'held',
      created_at: req.now.toISOString(),
      settled_at: null,
      lease_until: req.leaseUntil ? req.leaseUntil.toISOString() : null,
      line: req.line ?? null,
    };
    this.insertHold.run(row);
    for (const b of budgets) this.insertWindow.run({ hold_id: row.id, window_kind: b.window, window_start: b.start });
    return toHold(row);
  }

  private settleIn(holdId: string, charged: number, status: 'committed' | 'released', now: Date): Hold {
    const row = this.holdById.get(holdId);
    if (!row) throw new Error(`unknown hold ${holdId}`);
    // Settling twice is a no-op that returns the hold as settled the first time: never a double charge.
    if (row.status !== 'held') return toHold(row);
    const settled = Math.min(charged, row.amount);
    const settledAt = now.toISOString();
    if (this.markSettled.run({ id: holdId, status, charged: settled, now: settledAt }).changes !== 1)
      return toHold(this.holdById.get(holdId)!);
    for (const w of this.windowsOf.all(holdId)) {
      this.usage.settle(
        { account_id: row.account_id, kind: row.kind, window_kind: w.window_kind, window_start: w.window_start },
        row.category,
        row.amount,
        settled,
      );
    }
    this.daily.add({
      account_id: row.account_id,
      day: utcDay(now),
      kind: row.kind,
      line: lineOf(row.kind, row.category, row.line),
      credits: settled,
    });
    // The row as the UPDATE above left it.
    return toHold({ ...row, status, charged: settled, settled_at: settledAt });
  }

  private snapshotIn(accountId: string, now: Date): CreditSnapshot {
    const account = this.accounts.require(accountId);
    const plan = this.accounts.planOf(account);
    return creditSnapshot(plan, account, now, (kind, b) =>
      this.usage.read({
        account_id: account.id,
        kind,
        category: b.scope,
        window_kind: b.window,
        window_start: b.start,
      }),
    );
  }
}

/** Credit amounts are whole, non-negative numbers; anything else is a caller bug, not client input. */
function checkCount(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number >= 0, got ${n}`);
}
