import type { Database, Statement } from 'better-sqlite3';
import type { CreditKind, UsageCategory } from '../../domain/credits.js';
import type { BudgetScope, WindowKind } from '../../domain/quota/index.js';

/** Primary key of one usage counter. */
export interface CounterKey {
  account_id: string;
  kind: CreditKind;
  category: BudgetScope;
  window_kind: WindowKind;
  window_start: string;
}

const KEY =
  'account_id = @account_id AND kind = @kind AND category = @category AND window_kind = @window_kind AND ' +
  'window_start = @window_start';

/**
 * Usage counters (used and held per window). Every change is one statement; the cap check is part of the
 * statement's update itself (`... WHERE used + held + amount <= cap`), never a read followed by a write.
 */
export class UsageCounters {
  private readonly read_: Statement<[CounterKey], { used: number; held: number }>;
  private readonly holdCapped: Statement<[CounterKey & { amount: number; cap: number }]>;
  private readonly holdUncapped: Statement<[CounterKey & { amount: number }]>;
  private readonly settle_: Statement<
    [Omit<CounterKey, 'category'> & { hold_category: UsageCategory | null; amount: number; charged: number }]
  >;

  constructor(db: Database) {
    this.read_ = db.prepare(`SELECT used, held FROM usage WHERE ${KEY}`);
    // A counter is created by its first hold: one upsert, whose update is skipped (no change) past the cap.
    const upsert =
      'INSERT INTO usage (account_id, kind, category, window_kind, window_start, held) VALUES (@account_id, @kind, ' +
      '@category, @window_kind, @window_start, @amount) ON CONFLICT DO UPDATE SET held = held + excluded.held';
    this.holdCapped = db.prepare(`${upsert} WHERE used + held + excluded.held <= @cap`);
    this.holdUncapped = db.prepare(upsert);
    // A hold moved the plan-wide counter and its category's counter; settling moves both back.
    this.settle_ = db.prepare(
      `UPDATE usage SET held = held - @amount, used = used + @charged
       WHERE account_id = @account_id AND kind = @kind AND category IN ('*', @hold_category) AND window_kind = @window_kind AND window_start = @window_start`,
    );
  }

  read(key: CounterKey): { used: number; held: number } {
    return this.read_.get(key) ?? { used: 0, held: 0 };
  }

  /** Adds `amount` to held only if the cap still allows it; false when it does not. */
  holdWithin(key: CounterKey, amount: number, cap: number): boolean {
    // A new counter starts at `amount`, which the cap must allow as well.
    if (amount > cap) return false;
    return this.holdCapped.run({ ...key, amount, cap }).changes === 1;
  }

  hold(key: CounterKey, amount: number): void {
    this.holdUncapped.run({ ...key, amount });
  }

  settle(key: Omit<CounterKey, 'category'>, holdCategory: UsageCategory | null, amount: number, charged: number): void {
    this.settle_.run({ ...key, hold_category: holdCategory, amount, charged });
  }
}
