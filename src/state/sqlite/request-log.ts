import type { Database, Statement } from 'better-sqlite3';
import type { RequestLogEntry } from '../../domain/request-log.js';

/** The request log: one row per entry (JSON), trimmed to each account's newest `cap` as entries are appended. */
export class SqliteRequestLog {
  private readonly insert: Statement<[string, string, string]>;
  private readonly trim: Statement<[string, string, number]>;
  private readonly all: Statement<[string], { entry: string }>;
  private readonly one: Statement<[string, string], { entry: string }>;

  constructor(private readonly db: Database) {
    this.insert = db.prepare('INSERT INTO request_log (account_id, request_id, entry) VALUES (?, ?, ?)');
    this.trim = db.prepare(
      'DELETE FROM request_log WHERE account_id = ? AND seq <= (SELECT seq FROM request_log WHERE account_id = ? ' +
        'ORDER BY seq DESC LIMIT 1 OFFSET ?)',
    );
    this.all = db.prepare('SELECT entry FROM request_log WHERE account_id = ? ORDER BY seq DESC');
    this.one = db.prepare(
      'SELECT entry FROM request_log WHERE account_id = ? AND request_id = ? ORDER BY seq DESC LIMIT 1',
    );
  }

  append(entries: readonly RequestLogEntry[], cap: number): void {
    if (entries.length === 0) return;
    this.db
      .transaction(() => {
        const accounts = new Set<string>();
        for (const e of entries) {
          this.insert.run(e.accountId, e.requestId, JSON.stringify(e));
          accounts.add(e.accountId);
        }
        for (const a of accounts) this.trim.run(a, a, cap);
      })
      .immediate();
  }

  list(accountId: string): RequestLogEntry[] {
    return this.all.all(accountId).map((r) => JSON.parse(r.entry) as RequestLogEntry);
  }

  get(accountId: string, requestId: string): RequestLogEntry | undefined {
    const r = this.one.get(accountId, requestId);
    return r ? (JSON.parse(r.entry) as RequestLogEntry) : undefined;
  }
}
