import { RedisScript } from '../script.js';
import { EMIT_LUA, emitCall } from '../webhooks.js';
import { HOLD_LUA } from './hold-lua.js';
import { OPT_LUA } from './lua-values.js';

/**
 * The job scripts of RedisJobs, mirroring the IMMEDIATE transactions of state/sqlite/jobs.ts: each state change of
 * a job is one script, and the two that move money (create with its hold, finish with its settlement) carry the
 * hold functions of HOLD_LUA, so a job and its hold are written or settled together or not at all.
 *
 * Keys the scripts derive from stored fields (a job's kind, an orphan's id) are built from key prefixes passed in
 * ARGV: the adapter runs on one Redis primary, not on Cluster.
 */

/** Puts a job back in its kind's queue (status, worker, heartbeat), with `back` attempts uncounted. */
const REQUEUE_LUA = `
local function requeue(job_key, running_set, queued_prefix, back)
  local f = redis.call('HMGET', job_key, 'id', 'kind', 'order', 'score')
  redis.call('HSET', job_key, 'status', 'queued')
  if back ~= 0 then redis.call('HINCRBY', job_key, 'attempts', string.format('%d', -back)) end
  redis.call('HDEL', job_key, 'worker', 'heartbeatAt')
  redis.call('SREM', running_set, f[1])
  redis.call('ZADD', queued_prefix .. f[2], f[4], f[3])
end
`;

/**
 * Create. KEYS: job, job seq, the account's active jobs, the account's jobs, the account's jobs of the kind, the
 * kind's queue, then with a hold: hold, unleased holds, leased holds, every counter. ARGV: the job request (JSON:
 * id, accountId, kind, payload (JSON text), createdAt, score (ms), alertId?, exclusive? { kinds, alertId? },
 * jobPrefix, hold? (HOLD_LUA's request)). Answers {'busy'}, a hold refusal, {'exists'}, or {'ok', job, hold|nil}.
 */
export const CREATE_JOB = new RedisScript(`${HOLD_LUA}
local j = cjson.decode(ARGV[1])
if j.exclusive then
  local kinds = {}
  for _, kind in ipairs(j.exclusive.kinds) do kinds[kind] = true end
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    local f = redis.call('HMGET', j.jobPrefix .. id, 'kind', 'alertId')
    if f[1] and kinds[f[1]] and (j.exclusive.alertId == nil or f[2] == j.exclusive.alertId) then return {'busy'} end
  end
end
local granted
if j.hold then
  local refused
  granted, refused = plan_hold(j.hold)
  if not granted then return refused end
end
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
local hold = false
if j.hold then hold = write_hold(j.hold, granted, KEYS[7], KEYS[8], KEYS[9]) end
local order = string.format('%015d', redis.call('INCR', KEYS[2])) .. ':' .. j.id
local f = {'id', j.id, 'accountId', j.accountId, 'kind', j.kind, 'status', 'queued', 'payload', j.payload,
  'result', '{}', 'attempts', 0, 'createdAt', j.createdAt, 'order', order, 'score', j.score, 'rev', 0}
if j.hold then table.insert(f, 'holdId'); table.insert(f, j.hold.id) end
if j.alertId then table.insert(f, 'alertId'); table.insert(f, j.alertId) end
redis.call('HSET', KEYS[1], unpack(f))
redis.call('SADD', KEYS[3], j.id)
redis.call('ZADD', KEYS[4], j.score, order)
redis.call('ZADD', KEYS[5], j.score, order)
redis.call('ZADD', KEYS[6], j.score, order)
return {'ok', redis.call('HGETALL', KEYS[1]), hold}
`);

/** Moves a queued job (the member `member` of queue `queue`) to running for `worker`, counting one attempt. */
const START_LUA = `
local function start_job(job_key, queue, member, running_set, now, worker)
  redis.call('ZREM', queue, member)
  redis.call('HINCRBY', job_key, 'attempts', 1)
  redis.call('HSET', job_key, 'status', 'running', 'startedAt', now, 'heartbeatAt', now)
  if worker then redis.call('HSET', job_key, 'worker', worker) else redis.call('HDEL', job_key, 'worker') end
  redis.call('SADD', running_set, redis.call('HGET', job_key, 'id'))
  return redis.call('HGETALL', job_key)
end
`;

/**
 * Claim: the oldest queued job (createdAt, then insertion order) of the listed queues goes to running, one attempt
 * counted. KEYS: running jobs, then the kinds' queues. ARGV: now (ISO), worker (nullable), job key prefix. Answers
 * the job's hash, or nil when every queue is empty.
 */
export const CLAIM_JOB = new RedisScript(`${OPT_LUA}${START_LUA}
local best, best_score, best_seq, best_queue
for i = 2, #KEYS do
  local head = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
  if head[1] then
    local score = tonumber(head[2])
    local seq = tonumber(string.sub(head[1], 1, 15))
    if not best or score < best_score or (score == best_score and seq < best_seq) then
      best, best_score, best_seq, best_queue = head[1], score, seq, KEYS[i]
    end
  end
end
if not best then return false end
return start_job(ARGV[3] .. string.sub(best, 17), best_queue, best, KEYS[1], ARGV[1], opt(ARGV[2]))
`);

/**
 * Claim one job by id (a queue's wake-up names it), only if it is queued. KEYS: job, running jobs. ARGV: now (ISO),
 * worker (nullable), queue key prefix. Answers the job's hash, or nil.
 */
export const CLAIM_JOB_BY_ID = new RedisScript(`${OPT_LUA}${START_LUA}
local f = redis.call('HMGET', KEYS[1], 'status', 'kind', 'order')
if f[1] ~= 'queued' then return false end
return start_job(KEYS[1], ARGV[3] .. f[2], f[3], KEYS[2], ARGV[1], opt(ARGV[2]))
`);

/**
 * Queued jobs of every kind, oldest first (createdAt, then insertion order), read in one step. KEYS: the kinds'
 * queues. ARGV: limit (-1 = all), job key prefix. Answers id, kind, attempts of each, flat.
 */
export const QUEUED_JOBS = new RedisScript(`
local limit = tonumber(ARGV[1])
local stop = -1
if limit > 0 then stop = limit - 1 end
local all = {}
for i = 1, #KEYS do
  local r = redis.call('ZRANGE', KEYS[i], 0, stop, 'WITHSCORES')
  for j = 1, #r, 2 do table.insert(all, {r[j], tonumber(r[j + 1]), tonumber(string.sub(r[j], 1, 15))}) end
end
table.sort(all, function(x, y)
  if x[2] ~= y[2] then return x[2] < y[2] end
  return x[3] < y[3]
end)
local out = {}
for i, e in ipairs(all) do
  if limit >= 0 and i > limit then break end
  local f = redis.call('HMGET', ARGV[2] .. string.sub(e[1], 17), 'id', 'kind', 'attempts')
  table.insert(out, f[1]); table.insert(out, f[2]); table.insert(out, f[3])
end
return out
`);

/**
 * Progress: writes the merged result (computed by the caller from revision `rev`) and the heartbeat. KEYS: job.
 * ARGV: attempt (nullable), rev, result (JSON), now. Answers 1, 0 when the job is not running (on that attempt), or
 * -1 when the result changed since it was read (the caller merges again).
 */
export const PROGRESS_JOB = new RedisScript(`${OPT_LUA}
local f = redis.call('HMGET', KEYS[1], 'status', 'attempts', 'rev')
if f[1] ~= 'running' then return 0 end
local attempt = opt(ARGV[1])
if attempt and tonumber(f[2]) ~= tonumber(attempt) then return 0 end
if f[3] ~= ARGV[2] then return -1 end
redis.call('HSET', KEYS[1], 'result', ARGV[3], 'heartbeatAt', ARGV[4])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
return 1
`);

/**
 * Finish: ends the job and settles its hold once (charge > 0 commits min(charge, amount), 0 releases). KEYS: job,
 * running jobs, the account's active jobs, the kind's queue, then with a hold: hold, unleased holds, leased holds.
 * ARGV: attempt (nullable), rev, status, result (JSON, merged by the caller from revision `rev`), error (nullable),
 * now, charge, then the webhook event of the end (state/redis/webhooks.ts emitArgs; 8 values, empty when none), written
 * with the end. Answers {'ok'}, {'ended'} (already ended, or on another attempt), {'retry'} (the result changed since
 * it was read), {'unknown'} or {'nohold'}.
 */
export const FINISH_JOB = new RedisScript(`${HOLD_LUA}${OPT_LUA}${EMIT_LUA}
local f = redis.call('HMGET', KEYS[1], 'status', 'attempts', 'rev', 'id', 'order')
if not f[1] then return {'unknown'} end
if f[1] == 'completed' or f[1] == 'failed' or f[1] == 'cancelled' then return {'ended'} end
local attempt = opt(ARGV[1])
if attempt and tonumber(f[2]) ~= tonumber(attempt) then return {'ended'} end
if f[3] ~= ARGV[2] then return {'retry'} end
local has_hold = #KEYS >= 5
if has_hold and redis.call('EXISTS', KEYS[5]) == 0 then return {'nohold'} end
redis.call('HSET', KEYS[1], 'status', ARGV[3], 'result', ARGV[4], 'finishedAt', ARGV[6])
redis.call('HINCRBY', KEYS[1], 'rev', 1)
local err = opt(ARGV[5])
if err then redis.call('HSET', KEYS[1], 'error', err) else redis.call('HDEL', KEYS[1], 'error') end
redis.call('HDEL', KEYS[1], 'heartbeatAt', 'worker')
redis.call('SREM', KEYS[2], f[4])
redis.call('SREM', KEYS[3], f[4])
redis.call('ZREM', KEYS[4], f[5])
if has_hold then
  local charge = tonumber(ARGV[7])
  local status = 'released'
  if charge > 0 then status = 'committed' end
  settle_hold(KEYS[5], status, charge, ARGV[6], KEYS[6], KEYS[7])
end
${emitCall(8)}return {'ok'}
`);

/**
 * Yield: a running job on this attempt goes back to its queue; `back` 1 uncounts the attempt (a clean stop), 0 keeps
 * it (a failed run to retry). KEYS: job, running jobs. ARGV: attempt, back, queue key prefix. Answers 1 or 0.
 */
export const YIELD_JOB = new RedisScript(`${REQUEUE_LUA}
local f = redis.call('HMGET', KEYS[1], 'status', 'attempts')
if f[1] ~= 'running' or tonumber(f[2]) ~= tonumber(ARGV[1]) then return 0 end
requeue(KEYS[1], KEYS[2], ARGV[3], tonumber(ARGV[2]))
return 1
`);

/**
 * Requeue stale: each listed job found stale by the caller goes back to its queue if it is still as the caller saw
 * it (running, same attempt, same heartbeat, same worker): a job that reported or was claimed again since is left
 * alone. KEYS: running jobs. ARGV: job key prefix, queue key prefix, then per job: id, attempts, heartbeatAt
 * (nullable), worker (nullable). Answers the hashes of the requeued jobs.
 */
export const REQUEUE_STALE = new RedisScript(`${REQUEUE_LUA}${OPT_LUA}
local out = {}
for i = 3, #ARGV, 4 do
  local key = ARGV[1] .. ARGV[i]
  local f = redis.call('HMGET', key, 'status', 'attempts', 'heartbeatAt', 'worker')
  if f[1] == 'running' and f[2] == ARGV[i + 1] and (f[3] or nil) == opt(ARGV[i + 2])
    and (f[4] or nil) == opt(ARGV[i + 3]) then
    requeue(key, KEYS[1], ARGV[2], 0)
    table.insert(out, redis.call('HGETALL', key))
  end
end
return out
`);
