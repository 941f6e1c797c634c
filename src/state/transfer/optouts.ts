import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import type { RedisFamilyWriter, RedisReadContext, StateRecord } from './records.js';

/** The opt-out list (suppression), its version (servers poll it) and its audit (counts per change, no identifier). */
export const OPTOUT_TABLES = ['optouts', 'optout_version', 'optout_audit'] as const;

export async function* readOptOuts({ client, prefix }: RedisReadContext): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  const created = (await client.hGetAll(k.optOutCreated())) as Record<string, string>;
  for (const entry of await client.zRange(k.optOuts(), 0, -1)) {
    const at = entry.indexOf(':');
    yield { entity: 'optouts', type: entry.slice(0, at), value: entry.slice(at + 1), created_at: created[entry] };
  }
  yield { entity: 'optout_version', version: Number((await client.get(k.optOutVersion())) ?? 0) };
  const records = (await client.hGetAll(k.optOutAuditRecords())) as Record<string, string>;
  const auditCounts = (await client.hGetAll(k.optOutAuditCounts())) as Record<string, string>;
  for (const { value: id, score } of await client.zRangeWithScores(k.optOutAudit(), 0, -1)) {
    const r = JSON.parse(records[id] ?? '{}') as { at: string; action: string; actor: string; type: string };
    yield {
      entity: 'optout_audit',
      seq: score,
      change_id: id.slice(0, id.length - r.type.length - 1),
      type: r.type,
      at: r.at,
      action: r.action,
      actor: r.actor,
      count: Number(auditCounts[id] ?? 0),
    };
  }
}

export function optOutsWriter(client: RedisClient, prefix: string): RedisFamilyWriter {
  const k = redisKeys(prefix);
  let auditSeq = 0;
  return {
    entities: OPTOUT_TABLES,
    async write(r) {
      const m = client.multi();
      if (r.entity === 'optouts') {
        const entry = `${r.type}:${r.value}`;
        m.zAdd(k.optOuts(), { score: 0, value: entry });
        m.hSet(k.optOutCreated(), entry, String(r.created_at));
      } else if (r.entity === 'optout_version') {
        m.set(k.optOutVersion(), String(r.version));
      } else {
        const id = `${r.change_id}:${r.type}`;
        m.zAdd(k.optOutAudit(), { score: Number(r.seq), value: id });
        m.hSet(
          k.optOutAuditRecords(),
          id,
          JSON.stringify({ at: r.at, action: r.action, actor: r.actor, type: r.type }),
        );
        m.hSet(k.optOutAuditCounts(), id, String(r.count));
        auditSeq = Math.max(auditSeq, Number(r.seq));
      }
      await m.exec();
    },
    async finish() {
      if (auditSeq > 0) await client.set(k.optOutAuditSeq(), String(auditSeq));
    },
  };
}
