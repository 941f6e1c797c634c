import {
  type Audience,
  type AudiencePatch,
  type AudiencePoint,
  audiencesLimitError,
  sortHistory,
  sortNewestFirst,
} from '../../domain/audiences/store.js';
import { newId } from '../../domain/ids.js';
import type { RedisAccounts } from './accounts.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';

/** KEYS: ids set, record hash. ARGV: id, max, field/value pairs. {1} saved, {0, held} refused. */
const CREATE = new RedisScript(`
local n = redis.call('SCARD', KEYS[1])
if n >= tonumber(ARGV[2]) then return {0, n} end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], unpack(ARGV, 3))
return {1}
`);

/**
 * KEYS: record hash, counts hash. ARGV: '1' when the filter changes (version bump, history cleared), '1' when the
 * description becomes null, then field/value pairs. 0 when the audience is unknown.
 */
const UPDATE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '1' then
  redis.call('HINCRBY', KEYS[1], 'filterVersion', 1)
  redis.call('DEL', KEYS[2])
end
if ARGV[2] == '1' then redis.call('HDEL', KEYS[1], 'description') end
if #ARGV > 2 then redis.call('HSET', KEYS[1], unpack(ARGV, 3)) end
return 1
`);

/** KEYS: ids set, record hash, counts hash. ARGV: id. Answers 1 when it existed. */
const DELETE = new RedisScript(`
local n = redis.call('SREM', KEYS[1], ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3])
return n
`);

/** KEYS: record hash, counts hash. ARGV: filter version, release, point JSON. 0 unknown, 1 recorded, 2 filter changed. */
const RECORD = new RedisScript(`
local v = redis.call('HGET', KEYS[1], 'filterVersion')
if not v then return 0 end
if v ~= ARGV[1] then return 2 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1
`);

/** Saved audiences: a hash per audience, a set of the account's ids, a hash of counts per release. */
export class RedisAudiences {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
    private readonly accounts: RedisAccounts,
  ) {
    this.k = redisKeys(prefix);
  }

  async create(
    accountId: string,
    input: { name: string; description: string | null; filter: Record<string, unknown>; now: Date },
    max: number,
  ): Promise<Audience> {
    await this.accounts.require(accountId);
    const at = input.now.toISOString();
    const a: Audience = {
      id: newId('audience'),
      accountId,
      name: input.name,
      description: input.description,
      filter: input.filter,
      filterVersion: 1,
      createdAt: at,
      updatedAt: at,
      history: [],
    };
    const fields = ['name', a.name, 'filter', JSON.stringify(a.filter), 'filterVersion', 1, 'createdAt', at];
    if (a.description !== null) fields.push('description', a.description);
    fields.push('updatedAt', at, 'id', a.id);
    const reply = (await CREATE.run(
      this.client,
      [this.k.audiences(accountId), this.k.audience(accountId, a.id)],
      [a.id, max, ...fields],
    )) as number[];
    if (reply[0] !== 1) throw audiencesLimitError(reply[1] ?? max, max);
    return a;
  }

  async get(accountId: string, id: string): Promise<Audience | undefined> {
    const [h, counts] = (await this.client
      .multi()
      .hGetAll(this.k.audience(accountId, id))
      .hVals(this.k.audienceCounts(accountId, id))
      .exec()) as unknown as [Record<string, string>, string[]];
    return h.id === undefined ? undefined : toAudience(accountId, h, counts);
  }

  async list(accountId: string): Promise<Audience[]> {
    const ids = await this.client.sMembers(this.k.audiences(accountId));
    if (ids.length === 0) return [];
    const multi = this.client.multi();
    for (const id of ids) multi.hGetAll(this.k.audience(accountId, id)).hVals(this.k.audienceCounts(accountId, id));
    const replies = (await multi.exec()) as unknown as Array<Record<string, string> | string[]>;
    const out: Audience[] = [];
    for (let i = 0; i < ids.length; i++) {
      const h = replies[2 * i] as Record<string, string>;
      if (h.id !== undefined) out.push(toAudience(accountId, h, replies[2 * i + 1] as string[]));
    }
    return sortNewestFirst(out);
  }

  async update(accountId: string, id: string, patch: AudiencePatch, now: Date): Promise<Audience | undefined> {
    const fields: Array<string | number> = ['updatedAt', now.toISOString()];
    if (patch.name !== undefined) fields.push('name', patch.name);
    if (patch.description !== undefined && patch.description !== null) fields.push('description', patch.description);
    if (patch.filter !== undefined) fields.push('filter', JSON.stringify(patch.filter));
    const done = await UPDATE.run(
      this.client,
      [this.k.audience(accountId, id), this.k.audienceCounts(accountId, id)],
      [patch.filter !== undefined ? '1' : '0', patch.description === null ? '1' : '0', ...fields],
    );
    return done === 1 ? this.get(accountId, id) : undefined;
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const n = await DELETE.run(
      this.client,
      [this.k.audiences(accountId), this.k.audience(accountId, id), this.k.audienceCounts(accountId, id)],
      [id],
    );
    return n === 1;
  }

  async record(
    accountId: string,
    id: string,
    filterVersion: number,
    point: AudiencePoint,
  ): Promise<Audience | undefined> {
    const done = await RECORD.run(
      this.client,
      [this.k.audience(accountId, id), this.k.audienceCounts(accountId, id)],
      [filterVersion, point.release, JSON.stringify(point)],
    );
    return done === 0 ? undefined : this.get(accountId, id);
  }
}

function toAudience(accountId: string, h: Record<string, string>, counts: string[]): Audience {
  return {
    id: h.id!,
    accountId,
    name: h.name ?? '',
    description: h.description ?? null,
    filter: JSON.parse(h.filter ?? '{}') as Record<string, unknown>,
    filterVersion: Number(h.filterVersion ?? 1),
    createdAt: h.createdAt ?? '',
    updatedAt: h.updatedAt ?? '',
    history: sortHistory(counts.map((c) => JSON.parse(c) as AudiencePoint)),
  };
}
