import { IDEMPOTENCY_TTL_MS } from '../port.js';
import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import { hashOf, ms, type RedisFamilyWriter, type RedisReadContext, type StateRecord, scanHashes } from './records.js';

/**
 * Idempotency-Key records of spending POSTs (the first answer, replayed for 24 hours): those not yet expired move
 * with their creation time, so they expire when they would have (on Redis the key's expiry, as
 * state/redis/idempotency.ts sets it); a client retrying across the move gets its first answer again.
 */
export const IDEMPOTENCY_TABLES = ['idempotency'] as const;

export async function* readIdempotency({ client, prefix, now }: RedisReadContext): AsyncGenerator<StateRecord> {
  for await (const { rest, h } of scanHashes(client, redisKeys(prefix).idempotency('', '').slice(0, -1))) {
    if (h.createdAt === undefined || ms(h.createdAt) + IDEMPOTENCY_TTL_MS <= now.getTime()) continue;
    // `<account id>:<key>`: account ids have no colon; the client's key is last and may.
    const colon = rest.indexOf(':');
    yield {
      entity: 'idempotency',
      account_id: rest.slice(0, colon),
      key: rest.slice(colon + 1),
      request_hash: h.requestHash,
      state: h.state,
      status: h.status === undefined ? null : Number(h.status),
      body: h.body ?? null,
      created_at: h.createdAt,
    };
  }
}

export function idempotencyWriter(client: RedisClient, prefix: string, now: Date): RedisFamilyWriter {
  const k = redisKeys(prefix);
  return {
    entities: IDEMPOTENCY_TABLES,
    async write(r) {
      const until = ms(r.created_at) + IDEMPOTENCY_TTL_MS;
      if (until <= now.getTime()) return;
      const key = k.idempotency(String(r.account_id), String(r.key));
      const fields = { requestHash: r.request_hash, state: r.state, status: r.status, body: r.body };
      await client
        .multi()
        .hSet(key, hashOf({ ...fields, createdAt: r.created_at }))
        .pExpireAt(key, until)
        .exec();
    },
    async finish() {},
  };
}
