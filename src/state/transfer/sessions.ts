import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import { hashOf, ms, type RedisFamilyWriter, type RedisReadContext, type StateRecord, scanHashes } from './records.js';

/**
 * Web console sessions (only the SHA-256 of each cookie's token): the unexpired ones move with their expiry, so a
 * signed-in user stays signed in across the move. They are short-lived, but cheap and exact to move.
 */
export const SESSION_TABLES = ['console_sessions'] as const;

export async function* readSessions({ client, prefix, now }: RedisReadContext): AsyncGenerator<StateRecord> {
  const at = now.toISOString();
  for await (const { rest, h } of scanHashes(client, redisKeys(prefix).session(''))) {
    if (h.accountId === undefined || h.expiresAt === undefined || h.expiresAt <= at) continue;
    yield {
      entity: 'console_sessions',
      token_hash: rest,
      account_id: h.accountId,
      key_id: h.keyId ?? null,
      created_at: h.createdAt,
      expires_at: h.expiresAt,
    };
  }
}

export function sessionsWriter(client: RedisClient, prefix: string, now: Date): RedisFamilyWriter {
  const k = redisKeys(prefix);
  return {
    entities: SESSION_TABLES,
    async write(r) {
      const until = ms(r.expires_at);
      if (until <= now.getTime()) return;
      const key = k.session(String(r.token_hash));
      const fields = { accountId: r.account_id, keyId: r.key_id, createdAt: r.created_at, expiresAt: r.expires_at };
      await client.multi().hSet(key, hashOf(fields)).pExpireAt(key, until).exec();
    },
    async finish() {},
  };
}
