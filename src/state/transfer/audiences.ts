import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import {
  hashOf,
  orNull,
  type RedisFamilyWriter,
  type RedisReadContext,
  type StateRecord,
  TransferRefused,
} from './records.js';

/** Saved audiences and their count history (one count per data release). */
export const AUDIENCE_TABLES = ['audiences', 'audience_counts'] as const;

export async function* readAudiences({ client, prefix, accountIds }: RedisReadContext): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  for (const id of accountIds)
    for (const audienceId of await client.sMembers(k.audiences(id))) {
      const h = (await client.hGetAll(k.audience(id, audienceId))) as Record<string, string>;
      if (h.id === undefined) continue;
      yield {
        entity: 'audiences',
        id: h.id,
        account_id: id,
        name: h.name,
        description: orNull(h.description),
        filter: h.filter,
        filter_version: Number(h.filterVersion),
        created_at: h.createdAt,
        updated_at: h.updatedAt,
      };
      for (const json of await client.hVals(k.audienceCounts(id, audienceId))) {
        const point = JSON.parse(json) as { release: string; count: number; countedAt: string };
        yield {
          entity: 'audience_counts',
          audience_id: audienceId,
          release: point.release,
          count: point.count,
          counted_at: point.countedAt,
        };
      }
    }
}

export function audiencesWriter(client: RedisClient, prefix: string): RedisFamilyWriter {
  const k = redisKeys(prefix);
  /** The account of each audience written (audience_counts name only their audience, and come after it). */
  const audienceAccount = new Map<string, string>();
  return {
    entities: AUDIENCE_TABLES,
    async write(r) {
      const m = client.multi();
      if (r.entity === 'audiences') {
        const fields = hashOf({
          id: r.id,
          name: r.name,
          description: r.description,
          filter: r.filter,
          filterVersion: r.filter_version,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
        });
        m.sAdd(k.audiences(String(r.account_id)), String(r.id));
        m.hSet(k.audience(String(r.account_id), String(r.id)), fields);
        audienceAccount.set(String(r.id), String(r.account_id));
      } else {
        const account = audienceAccount.get(String(r.audience_id));
        if (account === undefined) throw new TransferRefused(`audience_counts of an unknown audience ${r.audience_id}`);
        const point = { release: r.release, count: r.count, countedAt: r.counted_at };
        m.hSet(k.audienceCounts(account, String(r.audience_id)), String(r.release), JSON.stringify(point));
      }
      await m.exec();
    },
    async finish() {},
  };
}
