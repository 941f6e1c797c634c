import type { Database, Statement } from 'better-sqlite3';
import { type OAuthRecord, type OAuthStored, oldestFirst } from '../../domain/oauth-record.js';

interface OAuthRow {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  account_id: string | null;
  expires_at: string | null;
  consumed_at: string | null;
}

const stored = (r: OAuthRow): OAuthStored => ({
  model: r.model,
  id: r.id,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  grantId: r.grant_id,
  accountId: r.account_id,
  expiresAt: r.expires_at,
  consumedAt: r.consumed_at,
});

/** The OAuth authorization server's records (src/oauth); expired rows are never answered and are swept on writes. */
export class SqliteOAuth {
  private readonly upsert: Statement<[OAuthRow]>;
  private readonly byId: Statement<[string, string, string], OAuthRow>;
  private readonly byUid: Statement<[string, string, string], OAuthRow>;
  private readonly consume: Statement<[string, string, string]>;
  private readonly remove: Statement<[string, string]>;
  private readonly removeGrant: Statement<[string]>;
  private readonly byAccount: Statement<[string, string, string], OAuthRow>;
  private readonly sweep: Statement<[string]>;

  constructor(db: Database) {
    this.upsert = db.prepare(
      'INSERT INTO oauth_records (model, id, payload, grant_id, uid, account_id, expires_at, consumed_at) VALUES ' +
        '(@model, @id, @payload, @grant_id, @uid, @account_id, @expires_at, @consumed_at) ON CONFLICT (model, id) DO ' +
        'UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, uid = excluded.uid, account_id = ' +
        'excluded.account_id, expires_at = excluded.expires_at, consumed_at = NULL',
    );
    const live = '(expires_at IS NULL OR expires_at > ?)';
    this.byId = db.prepare(`SELECT * FROM oauth_records WHERE model = ? AND id = ? AND ${live}`);
    this.byUid = db.prepare(`SELECT * FROM oauth_records WHERE model = ? AND uid = ? AND ${live} LIMIT 1`);
    this.consume = db.prepare(
      'UPDATE oauth_records SET consumed_at = COALESCE(consumed_at, ?) WHERE model = ? AND id = ?',
    );
    this.remove = db.prepare('DELETE FROM oauth_records WHERE model = ? AND id = ?');
    this.removeGrant = db.prepare('DELETE FROM oauth_records WHERE grant_id = ?');
    this.byAccount = db.prepare(`SELECT * FROM oauth_records WHERE account_id = ? AND model = ? AND ${live}`);
    this.sweep = db.prepare('DELETE FROM oauth_records WHERE expires_at IS NOT NULL AND expires_at <= ?');
  }

  put(r: OAuthRecord, now: Date): void {
    this.sweep.run(now.toISOString());
    this.upsert.run({
      model: r.model,
      id: r.id,
      payload: JSON.stringify(r.payload),
      grant_id: r.grantId,
      uid: r.uid,
      account_id: r.accountId,
      expires_at: r.expiresAt,
      consumed_at: null,
    });
  }

  find(model: string, id: string, now: Date): OAuthStored | undefined {
    const r = this.byId.get(model, id, now.toISOString());
    return r && stored(r);
  }

  findByUid(model: string, uid: string, now: Date): OAuthStored | undefined {
    const r = this.byUid.get(model, uid, now.toISOString());
    return r && stored(r);
  }

  markConsumed(model: string, id: string, now: Date): void {
    this.consume.run(now.toISOString(), model, id);
  }

  destroy(model: string, id: string): void {
    this.remove.run(model, id);
  }

  revokeGrant(grantId: string): void {
    this.removeGrant.run(grantId);
  }

  listByAccount(accountId: string, model: string, now: Date): OAuthStored[] {
    return this.byAccount.all(accountId, model, now.toISOString()).map(stored).sort(oldestFirst);
  }
}
