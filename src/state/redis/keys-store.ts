import type { Account, ApiKeyRecord } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import { keyRevokedEvent } from '../../domain/webhooks/events.js';
import { displayPrefix, generateSecret, hashSecret, isWellFormedSecret, sameDigest } from '../key-hash.js';
import type { RedisAccounts } from './accounts.js';
import { unknownAccount } from './accounts.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';
import { EMIT_LUA, emitArgs, emitCall } from './webhooks.js';

/** last_used_at is written at most this often per key, so authentication is not a write per request. */
const LAST_USED_GRANULARITY_MS = 60_000;

/**
 * The "one active key" rule: the active-key slot is taken only while empty, in the same script that checks the
 * account and writes the key, so two processes creating a key at once cannot both succeed.
 * KEYS: account, activeKey, apiKey, apiKeyByHash, accountKeys. ARGV: id, accountId, prefix, hash, name ('' =
 * none), createdAt, createdAt (ms).
 */
const CREATE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 'account' end
local active = redis.call('GET', KEYS[2])
if active then return 'limit:' .. active end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[3], 'id', ARGV[1], 'accountId', ARGV[2], 'prefix', ARGV[3], 'hash', ARGV[4], 'createdAt', ARGV[6])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[3], 'name', ARGV[5]) end
redis.call('SET', KEYS[4], ARGV[1])
redis.call('ZADD', KEYS[5], ARGV[7], ARGV[1])
return 'ok'
`);

/**
 * Revokes only an active key of this account (unknown, other accounts' and revoked keys change nothing) and frees
 * the active-key slot, writing the key.revoked webhook event with it. KEYS: apiKey, activeKey of the account. ARGV:
 * accountId, now, keyId, then the event (webhooks.ts emitArgs).
 */
const REVOKE = new RedisScript(`${EMIT_LUA}
local h = redis.call('HMGET', KEYS[1], 'accountId', 'revokedAt')
if h[1] ~= ARGV[1] or h[2] then return 0 end
redis.call('HSET', KEYS[1], 'revokedAt', ARGV[2])
if redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
${emitCall(4)}return 1
`);

/** Records the last use unless one was recorded within the minute. KEYS: apiKey. ARGV: now, before. */
const TOUCH = new RedisScript(`
local last = redis.call('HGET', KEYS[1], 'lastUsedAt')
if (not last) or last <= ARGV[2] then
  redis.call('HSET', KEYS[1], 'lastUsedAt', ARGV[1])
  return 1
end
return 0
`);

const toKey = (h: Record<string, string>): ApiKeyRecord => ({
  id: h.id ?? '',
  accountId: h.accountId ?? '',
  prefix: h.prefix ?? '',
  name: h.name ?? null,
  createdAt: h.createdAt ?? '',
  revokedAt: h.revokedAt ?? null,
  lastUsedAt: h.lastUsedAt ?? null,
});

/** API keys: the secret leaves this module once, at creation; Redis holds only its keyed hash. */
export class RedisApiKeys {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    private readonly storePrefix: string,
    private readonly pepper: string,
    private readonly accounts: RedisAccounts,
  ) {
    this.k = redisKeys(storePrefix);
  }

  async create(
    accountId: string,
    input: { name?: string | null; now: Date },
  ): Promise<{ key: ApiKeyRecord; secret: string }> {
    const secret = generateSecret();
    const key: ApiKeyRecord = {
      id: newId('key'),
      accountId,
      prefix: displayPrefix(secret),
      name: input.name?.trim() || null,
      createdAt: input.now.toISOString(),
      revokedAt: null,
      lastUsedAt: null,
    };
    const hash = hashSecret(this.pepper, secret);
    const k = this.k;
    const outcome = await CREATE.run(
      this.client,
      [k.account(accountId), k.activeKey(accountId), k.apiKey(key.id), k.apiKeyByHash(hash), k.accountKeys(accountId)],
      [key.id, accountId, key.prefix, hash, key.name ?? '', key.createdAt, input.now.getTime()],
    );
    if (outcome === 'account') throw unknownAccount(accountId);
    if (typeof outcome === 'string' && outcome.startsWith('limit:')) {
      const activeId = outcome.slice('limit:'.length);
      const activePrefix = (await this.client.hGet(k.apiKey(activeId), 'prefix')) ?? '';
      throw new AppError('key.limit_reached', 'The account already has its one active key.', {
        hint: `Revoke key ${activeId} (cds_${activePrefix}…) with DELETE /v1/keys/${activeId}, then create a new one.`,
      });
    }
    return { key, secret };
  }

  async revoke(accountId: string, keyId: string, now: Date): Promise<ApiKeyRecord> {
    const prefix = (await this.client.hGet(this.k.apiKey(keyId), 'prefix')) ?? '';
    const event = keyRevokedEvent({ id: keyId, prefix, revokedAt: now.toISOString() });
    const revoked = await REVOKE.run(
      this.client,
      [this.k.apiKey(keyId), this.k.activeKey(accountId)],
      [accountId, now.toISOString(), keyId, ...emitArgs(this.storePrefix, accountId, event, now)],
    );
    if (revoked !== 1) {
      throw new AppError('key.not_found', `No active key ${JSON.stringify(keyId)} on this account.`, {
        hint: 'List the keys with GET /v1/keys.',
      });
    }
    return toKey((await this.client.hGetAll(this.k.apiKey(keyId))) as Record<string, string>);
  }

  /** Oldest first (created_at, then id). */
  async list(accountId: string): Promise<ApiKeyRecord[]> {
    const ids = await this.client.zRange(this.k.accountKeys(accountId), 0, -1);
    if (ids.length === 0) return [];
    const multi = this.client.multi();
    for (const id of ids) multi.hGetAll(this.k.apiKey(id));
    const rows = (await multi.exec()) as unknown as Record<string, string>[];
    return rows.filter((h) => h.id !== undefined).map(toKey);
  }

  async authenticate(secret: string, now: Date): Promise<{ account: Account; key: ApiKeyRecord } | undefined> {
    if (!isWellFormedSecret(secret)) return undefined;
    const hash = hashSecret(this.pepper, secret);
    const id = await this.client.get(this.k.apiKeyByHash(hash));
    if (id === null) return undefined;
    const h = (await this.client.hGetAll(this.k.apiKey(id))) as Record<string, string>;
    // The lookup by hash already matched; the constant-time compare keeps the final decision timing-flat.
    if (h.hash === undefined || !sameDigest(h.hash, hash) || h.revokedAt !== undefined) return undefined;
    const account = await this.accounts.get(h.accountId ?? '');
    if (!account) return undefined;
    const before = new Date(now.getTime() - LAST_USED_GRANULARITY_MS).toISOString();
    if ((await TOUCH.run(this.client, [this.k.apiKey(id)], [now.toISOString(), before])) === 1)
      h.lastUsedAt = now.toISOString();
    return { account, key: toKey(h) };
  }
}
