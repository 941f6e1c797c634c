import type { CreditKind } from '../../domain/credits.js';
import type { DailyUsage, UsageLine } from '../../domain/usage-lines.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';

const DAY_MS = 86_400_000;

/** Reads the usage chart's records, which the settle script writes (scripts/hold-lua.ts settle_hold). */
export class RedisDailyUsage {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
  ) {
    this.k = redisKeys(prefix);
  }

  async list(accountId: string, fromDay: string, toDay: string): Promise<DailyUsage[]> {
    const days: string[] = [];
    for (let t = Date.parse(`${fromDay}T00:00:00Z`); t <= Date.parse(`${toDay}T00:00:00Z`); t += DAY_MS)
      days.push(new Date(t).toISOString().slice(0, 10));
    if (days.length === 0) return [];
    const multi = this.client.multi();
    for (const day of days) multi.hGetAll(`${this.k.dailyUsagePrefix(accountId)}${day}`);
    const rows = (await multi.exec()) as unknown as Record<string, string>[];
    const out: DailyUsage[] = [];
    days.forEach((day, i) => {
      const fields = Object.entries(rows[i] ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [field, value] of fields) {
        const [kind, line] = field.split(':') as [CreditKind, UsageLine];
        const credits = Number(value);
        if (credits > 0) out.push({ day, kind, line, credits });
      }
    });
    return out;
  }
}
