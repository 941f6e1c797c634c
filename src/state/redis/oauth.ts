import { type OAuthRecord, type OAuthStored, oldestFirst } from '../../domain/oauth-record.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';

/**
 * Writes a record and its indexes in one step. KEYS: record, grant set, uid key, account set. ARGV: payload, grantId,
 * uid, accountId, expiresAt, ttl ms (0: kept), member (`model:id`), id. An index set lives as long as its longest
 * member (a set made now by SADD has no expiry yet: it takes this record's).
 */
const UPSERT = new RedisScript(`
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'payload', ARGV[1])
local ttl = tonumber(ARGV[6])
if ARGV[5] ~= '' then redis.call('HSET', KEYS[1], 'expiresAt', ARGV[5]) end
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
local function index_set(key)
  local existed = redis.call('EXISTS', key)
  local current = redis.call('PTTL', key)
  redis.call('SADD', key, ARGV[7])
  if ttl == 0 then
    redis.call('PERSIST', key)
  elseif existed == 0 or (current >= 0 and current < ttl) then
    redis.call('PEXPIRE', key, ttl)
  end
end
if ARGV[2] ~= '' then
  redis.call('HSET', KEYS[1], 'grantId', ARGV[2])
  index_set(KEYS[2])
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'uid', ARGV[3])
  redis.call('SET', KEYS[3], ARGV[8])
  if ttl > 0 then redis.call('PEXPIRE', KEYS[3], ttl) end
end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'accountId', ARGV[4])
  index_set(KEYS[4])
end
return 1
`);

/** Marks a record consumed once, only while it exists (never brings a deleted record back). */
const CONSUME = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSETNX', KEYS[1], 'consumedAt', ARGV[1])
return 1
`);

/** The OAuth authorization server's records on Redis: one hash per (model, id), expiring with the record. */
export class RedisOAuth {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
  ) {
    this.k = redisKeys(prefix);
  }

  async put(r: OAuthRecord, now: Date): Promise<void> {
    // The lifetime as measured by the service's clock (which tests move), not Redis's.
    const ttl = r.expiresAt === null ? 0 : Math.max(1, Date.parse(r.expiresAt) - now.getTime());
    await UPSERT.run(
      this.client,
      [
        this.k.oauthRecord(r.model, r.id),
        this.k.oauthGrant(r.grantId ?? ''),
        this.k.oauthUid(r.model, r.uid ?? ''),
        this.k.oauthAccount(r.accountId ?? ''),
      ],
      [
        JSON.stringify(r.payload),
        r.grantId ?? '',
        r.uid ?? '',
        r.accountId ?? '',
        r.expiresAt ?? '',
        ttl,
        `${r.model}:${r.id}`,
        r.id,
      ],
    );
  }

  async find(model: string, id: string, now: Date): Promise<OAuthStored | undefined> {
    const h = await this.client.hGetAll(this.k.oauthRecord(model, id));
    if (h.payload === undefined) return undefined;
    // Redis expires the key at expiresAt; a read in the same millisecond is refused here, as in SQLite.
    if (h.expiresAt !== undefined && h.expiresAt <= now.toISOString()) return undefined;
    return {
      model,
      id,
      payload: JSON.parse(h.payload) as Record<string, unknown>,
      grantId: h.grantId ?? null,
      accountId: h.accountId ?? null,
      expiresAt: h.expiresAt ?? null,
      consumedAt: h.consumedAt ?? null,
    };
  }

  async findByUid(model: string, uid: string, now: Date): Promise<OAuthStored | undefined> {
    const id = await this.client.get(this.k.oauthUid(model, uid));
    return id === null ? undefined : this.find(model, id, now);
  }

  async consume(model: string, id: string, now: Date): Promise<void> {
    await CONSUME.run(this.client, [this.k.oauthRecord(model, id)], [now.toISOString()]);
  }

  async destroy(model: string, id: string): Promise<void> {
    const key = this.k.oauthRecord(model, id);
    const [grantId, uid, accountId] = await this.client.hmGet(key, ['grantId', 'uid', 'accountId']);
    const member = `${model}:${id}`;
    const m = this.client.multi().del(key);
    if (grantId) m.sRem(this.k.oauthGrant(grantId), member);
    if (uid) m.del(this.k.oauthUid(model, uid));
    if (accountId) m.sRem(this.k.oauthAccount(accountId), member);
    await m.exec();
  }

  async revokeGrant(grantId: string): Promise<void> {
    const set = this.k.oauthGrant(grantId);
    const members = await this.client.sMembers(set);
    const m = this.client.multi();
    for (const member of members) {
      const at = member.indexOf(':');
      m.del(this.k.oauthRecord(member.slice(0, at), member.slice(at + 1)));
    }
    m.del(set);
    await m.exec();
  }

  async listByAccount(accountId: string, model: string, now: Date): Promise<OAuthStored[]> {
    const set = this.k.oauthAccount(accountId);
    const members = (await this.client.sMembers(set)).filter((m) => m.startsWith(`${model}:`));
    const found: OAuthStored[] = [];
    const gone: string[] = [];
    for (const member of members) {
      const record = await this.find(model, member.slice(model.length + 1), now);
      if (record) found.push(record);
      else gone.push(member);
    }
    if (gone.length > 0) await this.client.sRem(set, gone);
    return found.sort(oldestFirst);
  }
}
