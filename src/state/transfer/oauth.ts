import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import { hashOf, ms, type RedisFamilyWriter, type RedisReadContext, type StateRecord, scanHashes } from './records.js';

/**
 * The OAuth authorization server's records (clients, grants, codes, access and refresh tokens, sessions of
 * oidc-provider; bearer values only as SHA-256 ids), so connected MCP clients keep working after a move. Records
 * that expired are not moved; the others keep their expiry. The indexes (by grant, uid and account) are rebuilt, each
 * living as long as its longest member, as state/redis/oauth.ts keeps them.
 */
export const OAUTH_TABLES = ['oauth_records'] as const;

export async function* readOAuth({ client, prefix, now }: RedisReadContext): AsyncGenerator<StateRecord> {
  const at = now.toISOString();
  for await (const { rest, h } of scanHashes(client, redisKeys(prefix).oauthRecord('', '').slice(0, -1))) {
    if (h.payload === undefined || (h.expiresAt !== undefined && h.expiresAt <= at)) continue;
    const colon = rest.indexOf(':');
    yield {
      entity: 'oauth_records',
      model: rest.slice(0, colon),
      id: rest.slice(colon + 1),
      payload: h.payload,
      grant_id: h.grantId ?? null,
      uid: h.uid ?? null,
      account_id: h.accountId ?? null,
      expires_at: h.expiresAt ?? null,
      consumed_at: h.consumedAt ?? null,
    };
  }
}

export function oauthWriter(client: RedisClient, prefix: string, now: Date): RedisFamilyWriter {
  const k = redisKeys(prefix);
  /** Index set -> the latest expiry of its members (Infinity: one is kept for good). */
  const indexExpiry = new Map<string, number>();
  const index = (key: string, until: number) => indexExpiry.set(key, Math.max(indexExpiry.get(key) ?? 0, until));
  return {
    entities: OAUTH_TABLES,
    async write(r) {
      const until = r.expires_at === null ? Number.POSITIVE_INFINITY : ms(r.expires_at);
      if (until <= now.getTime()) return;
      const model = String(r.model);
      const id = String(r.id);
      const key = k.oauthRecord(model, id);
      const member = `${model}:${id}`;
      const m = client.multi();
      m.hSet(
        key,
        hashOf({
          payload: r.payload,
          grantId: r.grant_id,
          uid: r.uid,
          accountId: r.account_id,
          expiresAt: r.expires_at,
          consumedAt: r.consumed_at,
        }),
      );
      if (Number.isFinite(until)) m.pExpireAt(key, until);
      if (r.grant_id !== null) {
        m.sAdd(k.oauthGrant(String(r.grant_id)), member);
        index(k.oauthGrant(String(r.grant_id)), until);
      }
      if (r.uid !== null) {
        m.set(k.oauthUid(model, String(r.uid)), id);
        if (Number.isFinite(until)) m.pExpireAt(k.oauthUid(model, String(r.uid)), until);
      }
      if (r.account_id !== null) {
        m.sAdd(k.oauthAccount(String(r.account_id)), member);
        index(k.oauthAccount(String(r.account_id)), until);
      }
      await m.exec();
    },
    async finish() {
      for (const [key, until] of indexExpiry) if (Number.isFinite(until)) await client.pExpireAt(key, until);
    },
  };
}
