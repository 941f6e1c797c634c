import type { Database, Statement } from 'better-sqlite3';
import { IDEMPOTENCY_TTL_MS, type IdempotencyBegin } from '../port.js';

const TTL_MS = IDEMPOTENCY_TTL_MS;

interface Row {
  request_hash: string;
  state: 'running' | 'done';
  status: number | null;
  body: string | null;
  created_at: string;
}

/**
 * Idempotency-Key records. `begin` claims the key in one immediate transaction, so two concurrent retries
 * cannot both run; an expired record (older than 24 hours) is replaced as if new.
 */
export class SqliteIdempotency {
  private readonly get: Statement<[string, string], Row>;
  private readonly put: Statement<[string, string, string, string]>;
  private readonly del: Statement<[string, string]>;
  private readonly done: Statement<[number, string, string, string]>;
  private readonly purge: Statement<[string]>;
  private readonly beginTx: (
    accountId: string,
    key: string,
    hash: string,
    now: Date,
    leaseMs: number,
  ) => IdempotencyBegin;

  constructor(db: Database) {
    this.get = db.prepare(
      'SELECT request_hash, state, status, body, created_at FROM idempotency WHERE account_id = ? AND key = ?',
    );
    this.put = db.prepare(
      'INSERT OR REPLACE INTO idempotency (account_id, key, request_hash, state, created_at) VALUES (?, ?, ?, ' +
        "'running', ?)",
    );
    this.del = db.prepare('DELETE FROM idempotency WHERE account_id = ? AND key = ?');
    this.done = db.prepare(
      "UPDATE idempotency SET state = 'done', status = ?, body = ? WHERE account_id = ? AND key = ?",
    );
    this.purge = db.prepare('DELETE FROM idempotency WHERE created_at < ?');
    const tx = db.transaction(
      (accountId: string, key: string, hash: string, now: Date, leaseMs: number): IdempotencyBegin => {
        const cutoff = new Date(now.getTime() - TTL_MS).toISOString();
        const leaseCutoff = new Date(now.getTime() - leaseMs).toISOString();
        const row = this.get.get(accountId, key);
        // A running record past its lease belongs to a process that died mid-request: the key is free again.
        const stale = row?.state === 'running' && row.created_at < leaseCutoff;
        if (row && row.created_at >= cutoff && !stale) {
          if (row.request_hash !== hash) return { state: 'mismatch' };
          if (row.state === 'running') return { state: 'running' };
          return { state: 'replay', status: row.status ?? 200, body: row.body === null ? null : JSON.parse(row.body) };
        }
        this.put.run(accountId, key, hash, now.toISOString());
        return { state: 'new' };
      },
    );
    this.beginTx = (a, k, h, n, l) => tx.immediate(a, k, h, n, l);
  }

  begin(accountId: string, key: string, hash: string, now: Date, leaseMs: number): IdempotencyBegin {
    // Old records are dropped now and then on the way, keeping the table small.
    if (Math.random() < 0.01) this.purge.run(new Date(now.getTime() - TTL_MS).toISOString());
    return this.beginTx(accountId, key, hash, now, leaseMs);
  }

  finish(accountId: string, key: string, status: number, body: unknown): void {
    this.done.run(status, JSON.stringify(body), accountId, key);
  }

  abandon(accountId: string, key: string): void {
    this.del.run(accountId, key);
  }
}
