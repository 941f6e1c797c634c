import type { Database, Statement } from 'better-sqlite3';
import type { CreditKind } from '../../domain/credits.js';
import type { DailyUsage, UsageLine } from '../../domain/usage-lines.js';

interface DailyRow {
  account_id: string;
  day: string;
  kind: CreditKind;
  line: UsageLine;
  credits: number;
}

/** Credits charged per UTC day and chart line (the console's usage chart); written in the settling transaction. */
export class SqliteDailyUsage {
  private readonly add_: Statement<[DailyRow]>;
  private readonly range: Statement<[string, string, string], DailyRow>;

  constructor(db: Database) {
    this.add_ = db.prepare(
      'INSERT INTO usage_daily (account_id, day, kind, line, credits) VALUES (@account_id, @day, @kind, @line, ' +
        '@credits) ON CONFLICT DO UPDATE SET credits = credits + excluded.credits',
    );
    this.range = db.prepare(
      'SELECT * FROM usage_daily WHERE account_id = ? AND day >= ? AND day <= ? AND credits > 0 ORDER BY day, kind, line',
    );
  }

  /** Adds a charge; call inside the transaction that settles the hold. */
  add(row: DailyRow): void {
    if (row.credits > 0) this.add_.run(row);
  }

  list(accountId: string, fromDay: string, toDay: string): DailyUsage[] {
    return this.range.all(accountId, fromDay, toDay).map((r) => ({
      day: r.day,
      kind: r.kind,
      line: r.line,
      credits: r.credits,
    }));
  }
}
