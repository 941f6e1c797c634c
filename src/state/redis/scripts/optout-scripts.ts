import { RedisScript } from '../script.js';

/**
 * The opt-out scripts of RedisOptOuts, mirroring the IMMEDIATE transactions of state/sqlite/optouts.ts: one chunk of
 * a change is one script, holding the chunk's writes, its audit counts and the version bump together, so the list,
 * its version and its audit never disagree, whichever process writes.
 *
 * KEYS (both): entries (sorted set), createdAt (hash), version, audit seq, audit (sorted set), audit records (hash),
 * audit counts (hash). ARGV: createdAt / at (RFC 3339), change id, action, actor, then the entry keys `type:value`.
 * Answers the number of entries the chunk changed.
 */
const AUDIT_LUA = `
local function audit(counts, order)
  local total = 0
  for _, t in ipairs(order) do
    local id = ARGV[2] .. ':' .. t
    if redis.call('HEXISTS', KEYS[6], id) == 0 then
      redis.call('ZADD', KEYS[5], redis.call('INCR', KEYS[4]), id)
      redis.call('HSET', KEYS[6], id, cjson.encode({at = ARGV[1], action = ARGV[3], actor = ARGV[4], type = t}))
    end
    redis.call('HINCRBY', KEYS[7], id, counts[t])
    total = total + counts[t]
  end
  if total > 0 then redis.call('INCR', KEYS[3]) end
  return total
end

local function count(counts, order, member)
  local t = string.match(member, '^([^:]+):')
  if counts[t] == nil then
    counts[t] = 0
    order[#order + 1] = t
  end
  counts[t] = counts[t] + 1
end
`;

export const ADD_OPT_OUTS = new RedisScript(`${AUDIT_LUA}
local counts, order = {}, {}
for i = 5, #ARGV do
  if redis.call('ZADD', KEYS[1], 'NX', 0, ARGV[i]) == 1 then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[1])
    count(counts, order, ARGV[i])
  end
end
return audit(counts, order)
`);

export const REMOVE_OPT_OUTS = new RedisScript(`${AUDIT_LUA}
local counts, order = {}, {}
for i = 5, #ARGV do
  if redis.call('ZREM', KEYS[1], ARGV[i]) == 1 then
    redis.call('HDEL', KEYS[2], ARGV[i])
    count(counts, order, ARGV[i])
  end
end
return audit(counts, order)
`);

/**
 * One page, read in one script so the entries, their creation times and the total agree. KEYS: entries, createdAt.
 * ARGV: ZRANGEBYLEX min, max, count, and the ZLEXCOUNT range ('-' '+' for every type). Answers {total, key, createdAt,
 * key, createdAt, …}.
 */
export const OPT_OUT_PAGE = new RedisScript(`
local keys = redis.call('ZRANGEBYLEX', KEYS[1], ARGV[1], ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {redis.call('ZLEXCOUNT', KEYS[1], ARGV[4], ARGV[5])}
-- HMGET in slices: unpack of a long page would pass Lua's C stack.
for from = 1, #keys, 1000 do
  local to = math.min(from + 999, #keys)
  local created = redis.call('HMGET', KEYS[2], unpack(keys, from, to))
  for i = from, to do
    out[#out + 1] = keys[i]
    out[#out + 1] = created[i - from + 1] or ''
  end
end
return out
`);
