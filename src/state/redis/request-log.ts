import type { RequestLogEntry } from '../../domain/request-log.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';

/** The request log: a capped list per account (LPUSH then LTRIM in one transaction), newest first. */
export class RedisRequestLog {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
  ) {
    this.k = redisKeys(prefix);
  }

  async append(entries: readonly RequestLogEntry[], cap: number): Promise<void> {
    if (entries.length === 0) return;
    const byAccount = new Map<string, string[]>();
    for (const e of entries) {
      const list = byAccount.get(e.accountId) ?? [];
      list.push(JSON.stringify(e));
      byAccount.set(e.accountId, list);
    }
    const multi = this.client.multi();
    // LPUSH of several values puts the last one at the head: the oldest first in, the newest on top.
    for (const [accountId, list] of byAccount)
      multi.lPush(this.k.requestLog(accountId), list).lTrim(this.k.requestLog(accountId), 0, cap - 1);
    await multi.exec();
  }

  async list(accountId: string): Promise<RequestLogEntry[]> {
    const rows = await this.client.lRange(this.k.requestLog(accountId), 0, -1);
    return rows.map((r) => JSON.parse(r) as RequestLogEntry);
  }

  async get(accountId: string, requestId: string): Promise<RequestLogEntry | undefined> {
    return (await this.list(accountId)).find((e) => e.requestId === requestId);
  }
}
