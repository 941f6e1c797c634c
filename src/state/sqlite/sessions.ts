import type { Database, Statement } from 'better-sqlite3';
import type { ConsoleSession } from '../../domain/console-session.js';

interface SessionRow {
  token_hash: string;
  account_id: string;
  key_id: string | null;
  created_at: string;
  expires_at: string;
}

/** Web console sessions: the token's hash only; expired rows are never answered and are swept on each write. */
export class SqliteSessions {
  private readonly insert: Statement<[SessionRow]>;
  private readonly byHash: Statement<[string, string], SessionRow>;
  private readonly rebind: Statement<[string | null, string]>;
  private readonly remove: Statement<[string]>;
  private readonly sweep: Statement<[string]>;

  constructor(db: Database) {
    this.insert = db.prepare(
      'INSERT INTO console_sessions (token_hash, account_id, key_id, created_at, expires_at) VALUES (@token_hash, ' +
        '@account_id, @key_id, @created_at, @expires_at)',
    );
    this.byHash = db.prepare('SELECT * FROM console_sessions WHERE token_hash = ? AND expires_at > ?');
    this.rebind = db.prepare('UPDATE console_sessions SET key_id = ? WHERE token_hash = ?');
    this.remove = db.prepare('DELETE FROM console_sessions WHERE token_hash = ?');
    this.sweep = db.prepare('DELETE FROM console_sessions WHERE expires_at <= ?');
  }

  create(s: ConsoleSession): void {
    this.sweep.run(s.createdAt);
    this.insert.run({
      token_hash: s.tokenHash,
      account_id: s.accountId,
      key_id: s.keyId,
      created_at: s.createdAt,
      expires_at: s.expiresAt,
    });
  }

  get(tokenHash: string, now: Date): ConsoleSession | undefined {
    const r = this.byHash.get(tokenHash, now.toISOString());
    return (
      r && {
        tokenHash: r.token_hash,
        accountId: r.account_id,
        keyId: r.key_id,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
      }
    );
  }

  setKey(tokenHash: string, keyId: string | null): void {
    this.rebind.run(keyId, tokenHash);
  }

  delete(tokenHash: string): void {
    this.remove.run(tokenHash);
  }
}
