import type { RedisClient } from '../redis/client.js';
import { DAILY_USAGE_TTL_MS, redisKeys, USAGE_TTL_MS } from '../redis/keys.js';
import { type RedisFamilyWriter, type RedisReadContext, type StateRecord, scanKeys } from './records.js';

/**
 * The credit counters of every window (used and held, per account, credit kind, scope and window) and the usage
 * chart's days, each with the expiry the Redis adapter gives it (USAGE_TTL_MS, DAILY_USAGE_TTL_MS). The settled holds
 * move with the jobs (jobs.ts).
 */
export const CREDIT_TABLES = ['usage', 'usage_daily'] as const;

export async function* readCredits({ client, prefix, accountIds }: RedisReadContext): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  for (const id of accountIds) {
    const usagePrefix = `${prefix}account:${id}:usage:`;
    for await (const key of scanKeys(client, usagePrefix)) {
      const [kind, category, windowKind, ...start] = key.slice(usagePrefix.length).split(':');
      const h = (await client.hGetAll(key)) as Record<string, string>;
      yield {
        entity: 'usage',
        account_id: id,
        kind,
        category,
        window_kind: windowKind,
        window_start: start.join(':'),
        used: Number(h.used ?? 0),
        held: Number(h.held ?? 0),
      };
    }
  }
  for (const id of accountIds) {
    const dayPrefix = k.dailyUsagePrefix(id);
    for await (const key of scanKeys(client, dayPrefix)) {
      const h = (await client.hGetAll(key)) as Record<string, string>;
      for (const [field, credits] of Object.entries(h)) {
        const at = field.indexOf(':');
        yield {
          entity: 'usage_daily',
          account_id: id,
          day: key.slice(dayPrefix.length),
          kind: field.slice(0, at),
          line: field.slice(at + 1),
          credits: Number(credits),
        };
      }
    }
  }
}

export function creditsWriter(client: RedisClient, prefix: string): RedisFamilyWriter {
  const k = redisKeys(prefix);
  return {
    entities: CREDIT_TABLES,
    async write(r) {
      const m = client.multi();
      if (r.entity === 'usage') {
        const key = k.usage(
          String(r.account_id),
          String(r.kind),
          String(r.category),
          String(r.window_kind),
          String(r.window_start),
        );
        m.hSet(key, { used: String(r.used), held: String(r.held) });
        const ttl = USAGE_TTL_MS[r.window_kind as keyof typeof USAGE_TTL_MS];
        if (ttl) m.pExpire(key, ttl);
      } else {
        const key = `${k.dailyUsagePrefix(String(r.account_id))}${r.day}`;
        m.hSet(key, `${r.kind}:${r.line}`, String(r.credits));
        m.pExpire(key, DAILY_USAGE_TTL_MS);
      }
      await m.exec();
    },
    async finish() {},
  };
}
