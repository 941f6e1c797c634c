import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { DomainList, DomainListLimits } from '../port.js';
import type { RedisAccounts } from './accounts.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';

/**
 * The limit check and the insert in one script, so two processes saving lists at once cannot both pass a check
 * made before the other's insert. KEYS: lists, order, domains counter. ARGV: id, record JSON, createdAt (ms),
 * domains in the new list, max lists, max domains. Answers {1} when saved, {0, lists, domains} when refused.
 */
const CREATE = new RedisScript(`
local lists = redis.call('HLEN', KEYS[1])
local domains = tonumber(redis.call('GET', KEYS[3]) or '0')
if lists + 1 > tonumber(ARGV[5]) or domains + tonumber(ARGV[4]) > tonumber(ARGV[6]) then
  return {0, lists, domains}
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
redis.call('INCRBY', KEYS[3], ARGV[4])
return {1}
`);

/** Redis wants numbers it can parse: an unbounded limit becomes the largest double. */
const limitArg = (n: number) => (Number.isFinite(n) ? n : Number.MAX_VALUE);

/** Saved domain lists; reads always name the owning account, so another account's id is simply unknown. */
export class RedisDomainLists {
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
    input: { name: string; domains: string[]; now: Date },
    limits: DomainListLimits,
  ): Promise<DomainList> {
    await this.accounts.require(accountId);
    const list: DomainList = {
      id: newId('domainList'),
      accountId,
      name: input.name,
      domains: [...input.domains],
      createdAt: input.now.toISOString(),
    };
    const k = this.k;
    const reply = (await CREATE.run(
      this.client,
      [k.domainLists(accountId), k.domainListOrder(accountId), k.domainListDomains(accountId)],
      [
        list.id,
        JSON.stringify(list),
        input.now.getTime(),
        list.domains.length,
        limitArg(limits.lists),
        limitArg(limits.domains),
      ],
    )) as number[];
    if (reply[0] !== 1) {
      const [, lists, domains] = reply;
      throw new AppError(
        'domain_lists.limit_reached',
        `The account holds ${lists} lists with ${domains} domains; at most ${limits.lists} lists ` +
          `and ${limits.domains} domains in all may be saved.`,
        { hint: 'Saved lists cannot be deleted yet; use the domains filter for one-off lists.' },
      );
    }
    return list;
  }

  async get(accountId: string, id: string): Promise<DomainList | undefined> {
    const r = await this.client.hGet(this.k.domainLists(accountId), id);
    return typeof r === 'string' ? (JSON.parse(r) as DomainList) : undefined;
  }

  /** Oldest first (created_at, then id). */
  async list(accountId: string): Promise<DomainList[]> {
    const ids = await this.client.zRange(this.k.domainListOrder(accountId), 0, -1);
    if (ids.length === 0) return [];
    const rows = await this.client.hmGet(this.k.domainLists(accountId), ids);
    return rows.filter((r): r is string => typeof r === 'string').map((r) => JSON.parse(r) as DomainList);
  }
}
