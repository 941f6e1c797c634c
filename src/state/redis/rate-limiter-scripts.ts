import { createHash } from 'node:crypto';
import type { RedisClient } from './client.js';

/**
 * The Lua scripts of the Redis rate limiter. Each runs atomically on the Redis server, so the check and the
 * write of an acquire cannot interleave with another process's acquire on the same key (a read-then-write from
 * the client would let two processes both see "299" and both admit).
 *
 * Clock: `now` is Redis's `TIME`, the one clock every process of the deployment shares; hosts whose clocks
 * disagree by a second would otherwise shift each other's window edges and lease ends by that second. Since
 * Redis 5 a script replicates its effects rather than its text, so reading `TIME` before writing is allowed.
 */

/** A script and its SHA-1, so the usual call sends the 40-character digest rather than the source. */
export interface LuaScript {
  source: string;
  sha: string;
}

function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const REDIS_NOW_MS = `
local t = redis.call('TIME')
local clock = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS[1] the window (sorted set: one member per accepted unit of weight, scored by its time), KEYS[2] the
 * in-flight slots (sorted set: one member per admitted request, scored by its lease end).
 * ARGV: perMinute, concurrent, weight, leaseMs, slot token, and the caller's time in ms or '' for Redis's clock.
 * Returns {allowed 0|1, reason 0 none|1 rate|2 concurrency, remaining, resetSeconds, retryAfter}, the decision of
 * the memory adapter field for field. Leases always run on Redis's clock: they measure whether a process is alive.
 */
export const ACQUIRE = luaScript(`${REDIS_NOW_MS}
local perMinute = tonumber(ARGV[1])
local concurrent = tonumber(ARGV[2])
local weight = tonumber(ARGV[3])
local leaseMs = tonumber(ARGV[4])
local slot = ARGV[5]
local now = clock
if ARGV[6] ~= '' then now = tonumber(ARGV[6]) end

redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - 60000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', clock)
local count = redis.call('ZCARD', KEYS[1])
local reset = 60
if count > 0 then
  local oldest = tonumber(redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2])
  reset = math.max(1, math.ceil((oldest + 60000 - now) / 1000))
end
if count + weight > perMinute then return {0, 1, 0, reset, reset} end
if redis.call('ZCARD', KEYS[2]) >= concurrent then return {0, 2, perMinute - count, reset, 1} end

local members = {}
for i = 1, weight do
  members[#members + 1] = now
  members[#members + 1] = slot .. ':' .. i
  -- In chunks: unpack() of a very large table would overflow Lua's C stack.
  if #members >= 2000 then
    redis.call('ZADD', KEYS[1], unpack(members))
    members = {}
  end
end
if #members > 0 then redis.call('ZADD', KEYS[1], unpack(members)) end
-- The newest member leaves the window 60 s from now, and so can the whole key.
redis.call('PEXPIRE', KEYS[1], 60000)
redis.call('ZADD', KEYS[2], clock + leaseMs, slot)
redis.call('PEXPIRE', KEYS[2], leaseMs)
return {1, 0, perMinute - count - weight, reset, 0}
`);

/**
 * KEYS[1] the in-flight slots of one key; ARGV: leaseMs, then the slot tokens this process still holds there.
 * Pushes their lease ends to now + leaseMs. Only slots still present are renewed: one whose lease lapsed and was
 * trimmed is not brought back (its place may have gone to another request). Returns how many were renewed.
 */
export const RENEW = luaScript(`${REDIS_NOW_MS}
local leaseMs = tonumber(ARGV[1])
local renewed = 0
for i = 2, #ARGV do
  if redis.call('ZSCORE', KEYS[1], ARGV[i]) then
    redis.call('ZADD', KEYS[1], clock + leaseMs, ARGV[i])
    renewed = renewed + 1
  end
end
if renewed > 0 then redis.call('PEXPIRE', KEYS[1], leaseMs) end
return renewed
`);

/**
 * Runs a script by its digest, sending the source once more when Redis does not know it (first use, a restart,
 * SCRIPT FLUSH); `EVAL` caches it again. This is what the client's own `defineScript` does.
 */
export async function runScript(
  client: RedisClient,
  script: LuaScript,
  keys: string[],
  args: string[],
): Promise<unknown> {
  try {
    return await client.evalSha(script.sha, { keys, arguments: args });
  } catch (e) {
    if (!(e instanceof Error && e.message.startsWith('NOSCRIPT'))) throw e;
    return await client.eval(script.source, { keys, arguments: args });
  }
}
