import type { Database, Statement } from 'better-sqlite3';
import { newId } from '../../domain/ids.js';
import type { Feedback } from '../port.js';
import type { SqliteAccounts } from './accounts.js';

interface FeedbackRow {
  id: string;
  account_id: string;
  body: string;
  created_at: string;
}

const toFeedback = (r: FeedbackRow): Feedback => ({
  id: r.id,
  accountId: r.account_id,
  body: JSON.parse(r.body) as Record<string, unknown>,
  createdAt: r.created_at,
});

/** Feedback rows (`POST /v1/feedback`), kept as the JSON the client sent. */
export class SqliteFeedback {
  private readonly insert: Statement<[FeedbackRow]>;
  private readonly ofAccount: Statement<[string], FeedbackRow>;

  constructor(
    db: Database,
    private readonly accounts: SqliteAccounts,
  ) {
    this.insert = db.prepare(
      'INSERT INTO feedback (id, account_id, body, created_at) VALUES (@id, @account_id, @body, @created_at)',
    );
    this.ofAccount = db.prepare('SELECT * FROM feedback WHERE account_id = ? ORDER BY created_at, id');
  }

  add(accountId: string, body: Record<string, unknown>, now: Date): Feedback {
    this.accounts.require(accountId);
    const row: FeedbackRow = {
      id: newId('feedback'),
      account_id: accountId,
      body: JSON.stringify(body),
      created_at: now.toISOString(),
    };
    this.insert.run(row);
    return toFeedback(row);
  }

  list(accountId: string): Feedback[] {
    return this.ofAccount.all(accountId).map(toFeedback);
  }
}
