import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { Account, ApiKeyRecord } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import { keyRevokedEvent } from '../../domain/webhooks/events.js';
import { displayPrefix, generateSecret, hashSecret, isWellFormedSecret, sameDigest } from '../key-hash.js';
import { type AccountRow, type SqliteAccounts, toAccount } from './accounts.js';
import type { SqliteWebhooks } from './webhooks.js';

interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

/** A key row with its account's columns (prefixed `account_`), read by one statement when a request authenticates. */
interface KeyAccountRow extends KeyRow {
  account_name: AccountRow['name'];
  account_plan: AccountRow['plan'];
  account_billing_day: AccountRow['billing_day'];
  account_status: AccountRow['status'];
  account_created_at: AccountRow['created_at'];
}

const toKey = (r: KeyRow): ApiKeyRecord => ({
  id: r.id,
  accountId: r.account_id,
  prefix: r.prefix,
  name: r.name,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
  lastUsedAt: r.last_used_at,
});

/** last_used_at is written at most this often per key, so authentication is not a write per request. */
const LAST_USED_GRANULARITY_MS = 60_000;

/** Keys whose last touch this process remembers; past it the memory starts over (a touch is one guarded UPDATE). */
const TOUCHED_MAX = 10_000;

/** API keys: the secret leaves this module once, at creation; the file holds only its keyed hash. */
export class SqliteKeys {
  /**
   * When last_used_at was last written per key (epoch ms), as this process wrote or read it: within the granularity
   * the guarded UPDATE would change nothing, so it is not run. An UPDATE that changes nothing still takes the write
   * lock and commits, which was half of an authentication (38 against 17 µs). A touch by another process since is
   * caught by the UPDATE's own guard, and read back.
   */
  private readonly touchedAt = new Map<string, number>();
  private readonly insert: Statement<[KeyRow]>;
  private readonly byId: Statement<[string], KeyRow>;
  private readonly byHash: Statement<[string], KeyAccountRow>;
  private readonly activeOf: Statement<[string], KeyRow>;
  private readonly ofAccount: Statement<[string], KeyRow>;
  private readonly revoke_: Statement<[{ id: string; account_id: string; now: string }]>;
  private readonly touch: Statement<[{ id: string; now: string; before: string }]>;
  private readonly createTx: Transaction<
    (accountId: string, name: string | null, now: Date) => { key: ApiKeyRecord; secret: string }
  >;

  constructor(
    private readonly db: Database,
    private readonly pepper: string,
    private readonly accounts: SqliteAccounts,
    private readonly webhooks?: SqliteWebhooks,
  ) {
    this.insert = db.prepare(
      'INSERT INTO api_keys (id, account_id, prefix, hash, name, created_at, revoked_at, last_used_at) VALUES (@id, ' +
        '@account_id, @prefix, @hash, @name, @created_at, @revoked_at, @last_used_at)',
    );
    this.byId = db.prepare('SELECT * FROM api_keys WHERE id = ?');
    // The key and its account in one read: every authenticated request makes it.
    this.byHash = db.prepare(
      'SELECT k.*, a.name AS account_name, a.plan AS account_plan, a.billing_day AS account_billing_day, ' +
        'a.status AS account_status, a.created_at AS account_created_at ' +
        'FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.hash = ?',
    );
    this.activeOf = db.prepare('SELECT * FROM api_keys WHERE account_id = ? AND revoked_at IS NULL');
    this.ofAccount = db.prepare('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id');
    this.revoke_ = db.prepare(
      'UPDATE api_keys SET revoked_at = @now WHERE id = @id AND account_id = @account_id AND revoked_at IS NULL',
    );
    this.touch = db.prepare(
      'UPDATE api_keys SET last_used_at = @now WHERE id = @id AND (last_used_at IS NULL OR last_used_at <= @before)',
    );
    this.createTx = db.transaction((accountId, name, now) => this.createIn(accountId, name, now));
  }

  create(accountId: string, input: { name?: string | null; now: Date }): { key: ApiKeyRecord; secret: string } {
    return this.createTx.immediate(accountId, input.name ?? null, input.now);
  }

  revoke(accountId: string, keyId: string, now: Date): ApiKeyRecord {
    // One guarded statement: unknown, already revoked and other accounts' keys all change nothing. The key.revoked
    // webhook event commits with it.
    return this.db
      .transaction(() => {
        if (this.revoke_.run({ id: keyId, account_id: accountId, now: now.toISOString() }).changes === 0) {
          throw new AppError('key.not_found', `No active key ${JSON.stringify(keyId)} on this account.`, {
            hint: 'List the keys with GET /v1/keys.',
          });
        }
        const key = toKey(this.byId.get(keyId)!);
        this.webhooks?.emitIn(accountId, keyRevokedEvent(key), now);
        return key;
      })
      .immediate();
  }

  list(accountId: string): ApiKeyRecord[] {
    return this.ofAccount.all(accountId).map(toKey);
  }

  authenticate(secret: string, now: Date): { account: Account; key: ApiKeyRecord } | undefined {
    if (!isWellFormedSecret(secret)) return undefined;
    const hash = hashSecret(this.pepper, secret);
    const row = this.byHash.get(hash);
    // The index lookup already matched; the constant-time compare keeps the final decision timing-flat.
    if (!row || !sameDigest(row.hash, hash) || row.revoked_at !== null) return undefined;
    const account = toAccount({
      id: row.account_id,
      name: row.account_name,
      plan: row.account_plan,
      billing_day: row.account_billing_day,
      status: row.account_status,
      created_at: row.account_created_at,
    });
    const at = now.getTime();
    const touched = this.touchedAt.get(row.id);
    if (touched === undefined || at - touched >= LAST_USED_GRANULARITY_MS || at < touched) {
      const before = new Date(at - LAST_USED_GRANULARITY_MS).toISOString();
      let written = at;
      if (this.touch.run({ id: row.id, now: now.toISOString(), before }).changes > 0)
        row.last_used_at = now.toISOString();
      // Recent already (another process wrote it): the next write is due a minute after that one.
      else written = Math.min(Date.parse(row.last_used_at ?? '') || at, at);
      if (this.touchedAt.size >= TOUCHED_MAX) this.touchedAt.clear();
      this.touchedAt.set(row.id, written);
    }
    return { account, key: toKey(row) };
  }

  private createIn(accountId: string, name: string | null, now: Date): { key: ApiKeyRecord; secret: string } {
    this.accounts.require(accountId);
    const active = this.activeOf.get(accountId);
    if (active) {
      throw new AppError('key.limit_reached', 'The account already has its one active key.', {
        hint: `Revoke key ${active.id} (cds_${active.prefix}…) with DELETE /v1/keys/${active.id}, then create a new one.`,
      });
    }
    const secret = generateSecret();
    const row: KeyRow = {
      id: newId('key'),
      account_id: accountId,
      prefix: displayPrefix(secret),
      hash: hashSecret(this.pepper, secret),
      name: name?.trim() || null,
      created_at: now.toISOString(),
      revoked_at: null,
      last_used_at: null,
    };
    this.insert.run(row);
    return { key: toKey(row), secret };
  }
}
