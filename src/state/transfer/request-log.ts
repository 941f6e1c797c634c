import type { RequestLogEntry } from '../../domain/request-log.js';
import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import type { RedisFamilyWriter, RedisReadContext, StateRecord } from './records.js';

/**
 * The request log (each account's newest 1,000 requests, GET /v1/requests): the entries move as they are (JSON
 * text). SQLite numbers every entry with one counter, Redis keeps a list per account: each account's order is kept
 * exactly (every read is one account's), the numbers are made again account by account.
 */
export const REQUEST_LOG_TABLES = ['request_log'] as const;
const CAP = 1000;

export async function* readRequestLog({ client, prefix, accountIds }: RedisReadContext): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  let seq = 0;
  for (const accountId of accountIds)
    for (const json of (await client.lRange(k.requestLog(accountId), 0, -1)).reverse())
      yield {
        entity: 'request_log',
        seq: ++seq,
        account_id: accountId,
        request_id: (JSON.parse(json) as RequestLogEntry).requestId,
        entry: json,
      };
}

export function requestLogWriter(client: RedisClient, prefix: string): RedisFamilyWriter {
  const k = redisKeys(prefix);
  const byAccount = new Map<string, Array<{ seq: number; entry: string }>>();
  return {
    entities: REQUEST_LOG_TABLES,
    async write(r) {
      const list = byAccount.get(String(r.account_id)) ?? [];
      list.push({ seq: Number(r.seq), entry: String(r.entry) });
      byAccount.set(String(r.account_id), list);
    },
    async finish() {
      for (const [accountId, list] of byAccount) {
        const oldestFirst = list.sort((x, y) => x.seq - y.seq).map((x) => x.entry);
        const key = k.requestLog(accountId);
        await client
          .multi()
          .lPush(key, oldestFirst)
          .lTrim(key, 0, CAP - 1)
          .exec();
      }
    },
  };
}
