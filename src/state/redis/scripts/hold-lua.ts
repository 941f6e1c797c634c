import { DAILY_USAGE_TTL_MS, SETTLED_HOLD_TTL_MS } from '../keys.js';

/**
 * The Lua functions every money move shares (reserve, settle), pasted into the scripts that need them, so that a
 * job's insert and its hold, or a job's end and its settlement, are one script and one atomic step. They mirror
 * state/sqlite/credits.ts and usage.ts: a hold must fit in every budget (the budget's own counter carries the cap),
 * moves the plan-wide '*' counter and its category's counter of each budget's window, and settling moves exactly
 * those counters back (the hold records their keys).
 *
 * A hold request (`r`, decoded from the JSON that credits.ts builds) holds: id, accountId, kind, category?, amount,
 * exact (all or nothing), minimum?, expected? (the grant the caller computed its payload for), createdAt, leaseMs? and
 * leaseUntil? (a request's lease), jobId? (the job that owns it), counters (JSON text of every counter key) and
 * budgets: [{ cap, keys, ttl? }] with the capped counter first in keys and ttl the counters' expiry in ms ('0' or
 * absent: none).
 *
 * Expiry (keys.ts: USAGE_TTL_MS, SETTLED_HOLD_TTL_MS) is set here, in the same atomic step as the write it follows:
 * taking a hold re-arms its counters' expiry, settling a request's hold (no jobId) gives the hold its expiry. A
 * held hold never expires, and settling takes it out of the held and leased sets in the same step, so those sets
 * never name an expired hold.
 */
export const HOLD_LUA = `
local SETTLED_HOLD_TTL_MS = '${SETTLED_HOLD_TTL_MS}'
local DAILY_USAGE_TTL_MS = '${DAILY_USAGE_TTL_MS}'

-- A whole number as Redis wants it: Lua would write a negated 0 as '-0', which HINCRBY refuses.
local function int(n)
  return string.format('%d', n)
end

-- What a hold may take now: the grant, or nil and the refusal ({'short', remaining…} when an exact hold does not fit,
-- {'minimum', granted, remaining…} when the grant is below the minimum, {'regrant', granted} when it differs from
-- what the caller expected). remaining lists each budget's room, in the budgets' order.
local function plan_hold(r)
  local rem = {}
  local granted = r.amount
  for i, b in ipairs(r.budgets) do
    local v = redis.call('HMGET', b.keys[1], 'used', 'held')
    local left = b.cap - (tonumber(v[1]) or 0) - (tonumber(v[2]) or 0)
    if left < 0 then left = 0 end
    rem[i] = left
    if left < granted then granted = left end
  end
  if granted < r.amount and r.exact then return nil, {'short', rem} end
  if granted < (r.minimum or 0) then return nil, {'minimum', granted, rem} end
  if r.expected ~= nil and granted ~= r.expected then return nil, {'regrant', granted} end
  return granted
end

-- Writes a hold planned by plan_hold: every counter of every budget holds the grant; the hold joins the leased
-- holds (by lease time) or the unleased ones. Answers the hold's hash.
local function write_hold(r, granted, hold_key, held_set, leased_set)
  for _, b in ipairs(r.budgets) do
    for _, k in ipairs(b.keys) do
      redis.call('HINCRBY', k, 'held', int(granted))
      if b.ttl and b.ttl ~= '0' then redis.call('PEXPIRE', k, b.ttl) end
    end
  end
  local f = {'id', r.id, 'accountId', r.accountId, 'kind', r.kind, 'amount', int(granted), 'charged', 0, 'status', 'held',
    'createdAt', r.createdAt, 'counters', r.counters}
  if r.category then table.insert(f, 'category'); table.insert(f, r.category) end
  if r.jobId then table.insert(f, 'jobId'); table.insert(f, r.jobId) end
  if r.line then table.insert(f, 'line'); table.insert(f, r.line) end
  if r.daily then table.insert(f, 'daily'); table.insert(f, r.daily) end
  if r.leaseUntil then
    table.insert(f, 'leaseUntil'); table.insert(f, r.leaseUntil)
    redis.call('ZADD', leased_set, r.leaseMs, r.id)
  else
    redis.call('SADD', held_set, r.id)
  end
  redis.call('HSET', hold_key, unpack(f))
  return redis.call('HGETALL', hold_key)
end

-- Commits (charged > 0 or not) or releases a held hold: charges min(charged, amount) and returns the rest to every
-- counter it moved. A hold already settled is left as it is: never a double charge. False for an unknown hold (or a
-- settled request's hold past its expiry). A counter that expired meanwhile (a hold kept past its window's expiry)
-- is left out rather than brought back without an expiry and with a negative held: nothing reads it any more.
-- A request's hold (no jobId) expires SETTLED_HOLD_TTL_MS after it settles; a job's hold stays with its job.
local function settle_hold(hold_key, status, charged, now, held_set, leased_set)
  local f = redis.call('HMGET', hold_key, 'id', 'status', 'amount', 'counters', 'jobId', 'kind', 'line', 'daily')
  if not f[1] then return false end
  if f[2] ~= 'held' then return true end
  local amount = tonumber(f[3])
  if charged > amount then charged = amount end
  redis.call('HSET', hold_key, 'status', status, 'charged', int(charged), 'settledAt', now)
  redis.call('SREM', held_set, f[1])
  redis.call('ZREM', leased_set, f[1])
  for _, k in ipairs(cjson.decode(f[4])) do
    if redis.call('EXISTS', k) == 1 then
      redis.call('HINCRBY', k, 'held', int(-amount))
      redis.call('HINCRBY', k, 'used', int(charged))
    end
  end
  if not f[5] then redis.call('PEXPIRE', hold_key, SETTLED_HOLD_TTL_MS) end
  -- The usage chart: the charge adds to the account's record of the UTC day of settlement (holds written before
  -- the chart existed name no record and are left out).
  if charged > 0 and f[7] and f[8] then
    local day_key = f[8] .. string.sub(now, 1, 10)
    redis.call('HINCRBY', day_key, f[6] .. ':' .. f[7], int(charged))
    redis.call('PEXPIRE', day_key, DAILY_USAGE_TTL_MS)
  end
  return true
end
`;
