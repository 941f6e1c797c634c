import { IDEMPOTENCY_TTL_MS, type IdempotencyBegin } from '../port.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';

const TTL_MS = IDEMPOTENCY_TTL_MS;

/**
 * Claims a key: one script reads the record and, when it is absent, older than 24 hours or a running record past
 * its lease (its process died), writes a fresh running record; two concurrent retries cannot both get `new`.
 * Times are compared as the ISO strings the caller's clock gives (not Redis's clock), as in the SQLite adapter;
 * the Redis expiry only drops old records. KEYS: record. ARGV: request hash, now, 24-hour cutoff, lease cutoff,
 * expiry (ms).
 */
const BEGIN = new RedisScript(`
local r = redis.call('HMGET', KEYS[1], 'requestHash', 'state', 'status', 'body', 'createdAt')
if r[1] and r[5] then
  local stale = r[2] == 'running' and r[5] < ARGV[4]
  if r[5] >= ARGV[3] and not stale then
    if r[1] ~= ARGV[1] then return {'mismatch'} end
    if r[2] == 'running' then return {'running'} end
    if r[4] then return {'replay', r[3] or '', '1', r[4]} end
    return {'replay', r[3] or '', '0', ''}
  end
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'requestHash', ARGV[1], 'state', 'running', 'createdAt', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return {'new'}
`);

/** Stores the answer on a record that still exists (an abandoned or expired one stays gone). KEYS: record. */
const FINISH = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done', 'status', ARGV[1])
if ARGV[2] == '1' then redis.call('HSET', KEYS[1], 'body', ARGV[3]) else redis.call('HDEL', KEYS[1], 'body') end
return 1
`);

/** Idempotency-Key records: one hash per (account, key), living 24 hours. */
export class RedisIdempotency {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
  ) {
    this.k = redisKeys(prefix);
  }

  async begin(accountId: string, key: string, hash: string, now: Date, leaseMs: number): Promise<IdempotencyBegin> {
    const cutoff = new Date(now.getTime() - TTL_MS).toISOString();
    const leaseCutoff = new Date(now.getTime() - leaseMs).toISOString();
    const reply = (await BEGIN.run(
      this.client,
      [this.k.idempotency(accountId, key)],
      [hash, now.toISOString(), cutoff, leaseCutoff, TTL_MS],
    )) as string[];
    switch (reply[0]) {
      case 'new':
        return { state: 'new' };
      case 'running':
        return { state: 'running' };
      case 'mismatch':
        return { state: 'mismatch' };
      case 'replay': {
        const status = reply[1] ? Number(reply[1]) : 200;
        return { state: 'replay', status, body: reply[2] === '1' ? JSON.parse(reply[3] ?? 'null') : null };
      }
      default:
        throw new Error(`idempotency script answered ${JSON.stringify(reply)}`);
    }
  }

  async finish(accountId: string, key: string, status: number, body: unknown): Promise<void> {
    const json = JSON.stringify(body) as string | undefined;
    await FINISH.run(
      this.client,
      [this.k.idempotency(accountId, key)],
      [status, json === undefined ? '0' : '1', json ?? ''],
    );
  }

  async abandon(accountId: string, key: string): Promise<void> {
    await this.client.del(this.k.idempotency(accountId, key));
  }
}
