import type { ConsoleSession } from '../../domain/console-session.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';

/** Sets (or, with an empty id, removes) a session's key id only while the session exists: one step, no race. */
const SET_KEY = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '' then redis.call('HDEL', KEYS[1], 'keyId') else redis.call('HSET', KEYS[1], 'keyId', ARGV[1]) end
return 1
`);

/** Web console sessions on Redis: one hash per token hash, expiring with the session (PEXPIRE by its lifetime). */
export class RedisSessions {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
  ) {
    this.k = redisKeys(prefix);
  }

  async create(s: ConsoleSession): Promise<void> {
    const key = this.k.session(s.tokenHash);
    const fields: Record<string, string> = { accountId: s.accountId, createdAt: s.createdAt, expiresAt: s.expiresAt };
    if (s.keyId !== null) fields.keyId = s.keyId;
    // The lifetime as measured by the service's clock (which tests move), not Redis's.
    const ttl = Math.max(1, Date.parse(s.expiresAt) - Date.parse(s.createdAt));
    await this.client.multi().hSet(key, fields).pExpire(key, ttl).exec();
  }

  async get(tokenHash: string, now: Date): Promise<ConsoleSession | undefined> {
    const h = await this.client.hGetAll(this.k.session(tokenHash));
    if (h.accountId === undefined || h.expiresAt === undefined || h.createdAt === undefined) return undefined;
    // Redis expires the key at expiresAt; a read in the same millisecond is refused here, as in SQLite.
    if (h.expiresAt <= now.toISOString()) return undefined;
    return {
      tokenHash,
      accountId: h.accountId,
      keyId: h.keyId ?? null,
      createdAt: h.createdAt,
      expiresAt: h.expiresAt,
    };
  }

  /** Only a session that still exists is changed (a rebind never brings a signed-out session back). */
  async setKey(tokenHash: string, keyId: string | null): Promise<void> {
    // Checked and written in one script: a sign-out between the two would leave a hash without expiry.
    await SET_KEY.run(this.client, [this.k.session(tokenHash)], [keyId ?? '']);
  }

  async delete(tokenHash: string): Promise<void> {
    await this.client.del(this.k.session(tokenHash));
  }
}
