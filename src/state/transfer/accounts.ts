import type { RedisClient } from '../redis/client.js';
import { redisKeys } from '../redis/keys.js';
import { type AccountRow, toAccount } from '../sqlite/accounts.js';
import { hashOf, ms, orNull, type RedisFamilyWriter, type RedisReadContext, type StateRecord } from './records.js';

/**
 * Accounts, their API keys (hashes only: the same CDS_SECRET is needed; revoked keys too), feedback and saved domain
 * lists, in the Redis adapter's layout (redis/keys.ts).
 */
export const ACCOUNT_TABLES = ['accounts', 'api_keys', 'feedback', 'domain_lists'] as const;

export async function* readAccounts({ client, prefix, accountIds }: RedisReadContext): AsyncGenerator<StateRecord> {
  const k = redisKeys(prefix);
  for (const id of accountIds) {
    const a = (await client.hGetAll(k.account(id))) as Record<string, string>;
    yield {
      entity: 'accounts',
      id: a.id,
      name: a.name,
      plan: a.plan,
      billing_day: a.billingDay === undefined ? null : Number(a.billingDay),
      status: a.status,
      created_at: a.createdAt,
    };
  }
  for (const id of accountIds)
    for (const keyId of await client.zRange(k.accountKeys(id), 0, -1)) {
      const h = (await client.hGetAll(k.apiKey(keyId))) as Record<string, string>;
      yield {
        entity: 'api_keys',
        id: h.id,
        account_id: h.accountId,
        prefix: h.prefix,
        hash: h.hash,
        name: orNull(h.name),
        created_at: h.createdAt,
        revoked_at: orNull(h.revokedAt),
        last_used_at: orNull(h.lastUsedAt),
      };
    }
  for (const id of accountIds) {
    for (const json of Object.values((await client.hGetAll(k.feedback(id))) as Record<string, string>)) {
      const f = JSON.parse(json) as { id: string; accountId: string; body: unknown; createdAt: string };
      yield {
        entity: 'feedback',
        id: f.id,
        account_id: f.accountId,
        body: JSON.stringify(f.body),
        created_at: f.createdAt,
      };
    }
    for (const json of Object.values((await client.hGetAll(k.domainLists(id))) as Record<string, string>)) {
      const d = JSON.parse(json) as {
        id: string;
        accountId: string;
        name: string;
        domains: string[];
        createdAt: string;
      };
      yield {
        entity: 'domain_lists',
        id: d.id,
        account_id: d.accountId,
        name: d.name,
        domains: JSON.stringify(d.domains),
        created_at: d.createdAt,
      };
    }
  }
}

export function accountsWriter(client: RedisClient, prefix: string): RedisFamilyWriter {
  const k = redisKeys(prefix);
  return {
    entities: ACCOUNT_TABLES,
    async write(r) {
      const m = client.multi();
      const account = String(r.account_id);
      switch (r.entity) {
        case 'accounts':
          m.hSet(k.account(String(r.id)), hashOf({ ...toAccount(r as unknown as AccountRow) }));
          m.zAdd(k.accounts(), { score: ms(r.created_at), value: String(r.id) });
          break;
        case 'api_keys':
          m.hSet(
            k.apiKey(String(r.id)),
            hashOf({
              id: r.id,
              accountId: r.account_id,
              prefix: r.prefix,
              hash: r.hash,
              name: r.name,
              createdAt: r.created_at,
              revokedAt: r.revoked_at,
              lastUsedAt: r.last_used_at,
            }),
          );
          m.set(k.apiKeyByHash(String(r.hash)), String(r.id));
          m.zAdd(k.accountKeys(account), { score: ms(r.created_at), value: String(r.id) });
          if (r.revoked_at === null) m.set(k.activeKey(account), String(r.id));
          break;
        case 'feedback': {
          const f = { id: r.id, accountId: r.account_id, body: JSON.parse(String(r.body)), createdAt: r.created_at };
          m.hSet(k.feedback(account), String(r.id), JSON.stringify(f));
          m.zAdd(k.feedbackOrder(account), { score: ms(r.created_at), value: String(r.id) });
          break;
        }
        default: {
          const domains = JSON.parse(String(r.domains)) as string[];
          const d = { id: r.id, accountId: r.account_id, name: r.name, domains, createdAt: r.created_at };
          m.hSet(k.domainLists(account), String(r.id), JSON.stringify(d));
          m.zAdd(k.domainListOrder(account), { score: ms(r.created_at), value: String(r.id) });
          m.incrBy(k.domainListDomains(account), domains.length);
        }
      }
      await m.exec();
    },
    async finish() {},
  };
}
