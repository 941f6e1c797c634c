import { RedisScript } from '../script.js';
import { HOLD_LUA } from './hold-lua.js';

/**
 * The credit scripts of RedisCredits: each money move is one of them, so the cap checks and the counter moves happen
 * in one atomic step (ARCHITECTURE rule 5), whatever other processes do meanwhile.
 */

/**
 * Reserve. KEYS: hold, unleased holds, leased holds, then every counter. ARGV: the hold request (JSON, HOLD_LUA).
 * Answers {'ok', hold hash} or plan_hold's refusal.
 */
export const RESERVE = new RedisScript(`${HOLD_LUA}
local r = cjson.decode(ARGV[1])
local granted, refused = plan_hold(r)
if not granted then return refused end
return {'ok', write_hold(r, granted, KEYS[1], KEYS[2], KEYS[3])}
`);

/**
 * Commit or release. KEYS: hold, unleased holds, leased holds. ARGV: status, charged, now (ISO). Answers the hold
 * hash as settled (the first time), or nil for an unknown hold.
 */
export const SETTLE = new RedisScript(`${HOLD_LUA}
if not settle_hold(KEYS[1], ARGV[1], tonumber(ARGV[2]), ARGV[3], KEYS[2], KEYS[3]) then return false end
return redis.call('HGETALL', KEYS[1])
`);

/**
 * Releases the holds of requests whose process died: a lease that expired before now, or no lease and no queued or
 * running job owning it. KEYS: leased holds, unleased holds. ARGV: now (ms), now (ISO), hold key prefix, job key
 * prefix. Answers how many were released.
 *
 * Both sets hold only held holds, which never expire (settling removes a hold from them in the step that gives it
 * its expiry), so every member has its hash. Should one not (a key deleted by hand), it is dropped from the sets
 * and not counted, rather than looked at again by every sweep.
 */
export const RELEASE_ORPHANS = new RedisScript(`${HOLD_LUA}
local n = 0
local function release(id)
  if settle_hold(ARGV[3] .. id, 'released', 0, ARGV[2], KEYS[2], KEYS[1]) then
    n = n + 1
  else
    redis.call('ZREM', KEYS[1], id)
    redis.call('SREM', KEYS[2], id)
  end
end
for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])) do release(id) end
for _, id in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local job = redis.call('HGET', ARGV[3] .. id, 'jobId')
  local live = false
  if job then
    local status = redis.call('HGET', ARGV[4] .. job, 'status')
    live = status == 'queued' or status == 'running'
  end
  if not live then release(id) end
end
return n
`);

/**
 * Extends the lease of each listed hold still held (a hold without a lease gets one, as in SQLite). KEYS: leased
 * holds, unleased holds. ARGV: until (ms), until (ISO), hold key prefix, then the hold ids.
 */
export const RENEW_LEASES = new RedisScript(`
for i = 4, #ARGV do
  local id = ARGV[i]
  local hold_key = ARGV[3] .. id
  if redis.call('HGET', hold_key, 'status') == 'held' then
    redis.call('HSET', hold_key, 'leaseUntil', ARGV[2])
    redis.call('SREM', KEYS[2], id)
    redis.call('ZADD', KEYS[1], ARGV[1], id)
  end
end
return 0
`);
