import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { AlertPatch, AlertRecord, NewAlert } from '../../network-signals/port.js';
import type { RedisClient } from './client.js';
import { type RedisKeys, redisKeys } from './keys.js';
import { RedisScript } from './script.js';

/** KEYS: alert, account alerts, active alerts, due. ARGV: max active, id, createdAt (ms), then field/value pairs. */
const CREATE = new RedisScript(`
local n = redis.call('SCARD', KEYS[3])
if n >= tonumber(ARGV[1]) then return {0, n} end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
redis.call('ZADD', KEYS[4], ARGV[3], ARGV[2])
return {1}
`);

/**
 * Applies a patch unless the alert is unknown or deleted ({-1}); turning an inactive alert active with a max checks
 * the room first ({0, active count}). Then puts the alert in or out of the active and due sets.
 * KEYS: alert, active alerts, due. ARGV: id, max active ('' = unchecked), updatedAt, number of field/value pairs,
 * the pairs, then fields to delete.
 */
const UPDATE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 or redis.call('HEXISTS', KEYS[1], 'deletedAt') == 1 then return {-1} end
local npairs = tonumber(ARGV[4])
local last = 4 + 2 * npairs
if ARGV[2] ~= '' and redis.call('HGET', KEYS[1], 'active') == '0' then
  for i = 5, last, 2 do
    if ARGV[i] == 'active' and ARGV[i + 1] == '1' then
      local n = redis.call('SCARD', KEYS[2])
      if n >= tonumber(ARGV[2]) then return {0, n} end
    end
  end
end
redis.call('HSET', KEYS[1], 'updatedAt', ARGV[3])
if npairs > 0 then redis.call('HSET', KEYS[1], unpack(ARGV, 5, last)) end
if #ARGV > last then redis.call('HDEL', KEYS[1], unpack(ARGV, last + 1)) end
local h = redis.call('HMGET', KEYS[1], 'active', 'nextRunMs')
if h[1] == '1' then redis.call('SADD', KEYS[2], ARGV[1]) else redis.call('SREM', KEYS[2], ARGV[1]) end
if h[1] == '1' and h[2] then redis.call('ZADD', KEYS[3], h[2], ARGV[1]) else redis.call('ZREM', KEYS[3], ARGV[1]) end
return {1}
`);

/** KEYS: alert, account alerts, active alerts, due. ARGV: id, now. */
const DELETE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if redis.call('HEXISTS', KEYS[1], 'deletedAt') == 0 then
  redis.call('HSET', KEYS[1], 'deletedAt', ARGV[2], 'updatedAt', ARGV[2], 'active', '0')
  redis.call('HDEL', KEYS[1], 'nextRunAt', 'nextRunMs')
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('SREM', KEYS[3], ARGV[1])
  redis.call('ZREM', KEYS[4], ARGV[1])
end
return 1
`);

/** Compare and set of the next run. KEYS: alert, due. ARGV: id, due, next, next (ms), now. */
const CLAIM = new RedisScript(`
local h = redis.call('HMGET', KEYS[1], 'nextRunAt', 'active', 'deletedAt')
if h[1] ~= ARGV[2] or h[2] ~= '1' or h[3] then return 0 end
redis.call('HSET', KEYS[1], 'nextRunAt', ARGV[3], 'nextRunMs', ARGV[4], 'updatedAt', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[1])
return 1
`);

const nullable = (v: string | undefined) => v ?? null;

/** Exported for cds state export (state/transfer). */
export const toAlert = (h: Record<string, string>): AlertRecord => ({
  id: h.id ?? '',
  accountId: h.accountId ?? '',
  kind: h.kind as AlertRecord['kind'],
  target: h.target ?? '',
  intervalMinutes: Number(h.intervalMinutes),
  maxFollowers: h.maxFollowers === undefined ? null : Number(h.maxFollowers),
  active: h.active === '1',
  nextRunAt: nullable(h.nextRunAt),
  lastRunId: nullable(h.lastRunId),
  lastRunAt: nullable(h.lastRunAt),
  lastError: nullable(h.lastError),
  createdAt: h.createdAt ?? '',
  updatedAt: h.updatedAt ?? '',
  deletedAt: nullable(h.deletedAt),
});

/** The due set's score of a run time; a time that is no instant is a caller bug (it could never come due). */
function runMs(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new RangeError(`next run time ${JSON.stringify(iso)} is not an RFC 3339 instant`);
  return ms;
}

/** Redis wants numbers it can parse: an unbounded limit becomes the largest double. */
const limitArg = (n: number) => (Number.isFinite(n) ? n : Number.MAX_VALUE);

function notFound(id: string): AppError {
  return new AppError('alert.not_found', `No alert has the id ${JSON.stringify(id)}.`, { field: 'id' });
}

function limitReached(n: number, maxActive: number): AppError {
  return new AppError(
    'alerts.limit_reached',
    `The account already has ${n} active alerts; at most ${maxActive} may be active.`,
    {
      hint: 'Deactivate (PATCH active: false) or delete an alert first.',
    },
  );
}

/**
 * Alerts as hashes (absent field = null), with three sets kept in step by the scripts that change an alert: the
 * account's alerts not deleted (listing), its active ones (the maxActive check is their count, taken in the same
 * script as the write, so two processes cannot both take the last place) and the due set of all active alerts by
 * next run (the schedulers' read).
 */
export class RedisAlerts {
  private readonly k: RedisKeys;

  constructor(
    private readonly client: RedisClient,
    prefix: string,
  ) {
    this.k = redisKeys(prefix);
  }

  async create(input: NewAlert, maxActive: number): Promise<AlertRecord> {
    const now = input.now.toISOString();
    const alert: AlertRecord = {
      id: newId('alert'),
      accountId: input.accountId,
      kind: input.kind,
      target: input.target,
      intervalMinutes: input.intervalMinutes,
      maxFollowers: input.maxFollowers,
      active: true,
      // The first run is due at once: it records who engages today; later runs find who is new.
      nextRunAt: now,
      lastRunId: null,
      lastRunAt: null,
      lastError: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    const fields: (string | number)[] = [
      'id',
      alert.id,
      'accountId',
      alert.accountId,
      'kind',
      alert.kind,
      'target',
      alert.target,
      'intervalMinutes',
      alert.intervalMinutes,
      'active',
      '1',
      'nextRunAt',
      now,
      'nextRunMs',
      input.now.getTime(),
      'createdAt',
      now,
      'updatedAt',
      now,
    ];
    if (alert.maxFollowers !== null) fields.push('maxFollowers', alert.maxFollowers);
    const k = this.k;
    const reply = (await CREATE.run(
      this.client,
      [k.alert(alert.id), k.accountAlerts(alert.accountId), k.activeAlerts(alert.accountId), k.dueAlerts()],
      [limitArg(maxActive), alert.id, input.now.getTime(), ...fields],
    )) as number[];
    if (reply[0] !== 1) throw limitReached(reply[1] ?? 0, maxActive);
    return alert;
  }

  async get(id: string): Promise<AlertRecord | undefined> {
    const h = (await this.client.hGetAll(this.k.alert(id))) as Record<string, string>;
    return h.id === undefined ? undefined : toAlert(h);
  }

  /** Not deleted, newest first (created_at, then id, both descending). */
  async list(accountId: string): Promise<AlertRecord[]> {
    return this.read(await this.client.zRange(this.k.accountAlerts(accountId), 0, -1, { REV: true }));
  }

  async update(id: string, patch: AlertPatch, now: Date, maxActive?: number): Promise<AlertRecord> {
    // An alert never changes account: its account (to name the active set) can be read before the script.
    const accountId = await this.client.hGet(this.k.alert(id), 'accountId');
    if (accountId === null) throw notFound(id);
    const set: (string | number)[] = [];
    const del: string[] = [];
    const put = (field: string, value: string | number | null) => {
      if (value === null) del.push(field);
      else set.push(field, value);
    };
    if (patch.intervalMinutes !== undefined) put('intervalMinutes', patch.intervalMinutes);
    if (patch.maxFollowers !== undefined) put('maxFollowers', patch.maxFollowers);
    if (patch.active !== undefined) put('active', patch.active ? '1' : '0');
    if (patch.nextRunAt !== undefined) {
      put('nextRunAt', patch.nextRunAt);
      put('nextRunMs', patch.nextRunAt === null ? null : runMs(patch.nextRunAt));
    }
    if (patch.lastRunId !== undefined) put('lastRunId', patch.lastRunId);
    if (patch.lastRunAt !== undefined) put('lastRunAt', patch.lastRunAt);
    if (patch.lastError !== undefined) put('lastError', patch.lastError);
    const k = this.k;
    const reply = (await UPDATE.run(
      this.client,
      [k.alert(id), k.activeAlerts(accountId), k.dueAlerts()],
      [id, maxActive === undefined ? '' : limitArg(maxActive), now.toISOString(), set.length / 2, ...set, ...del],
    )) as number[];
    if (reply[0] === -1) throw notFound(id);
    if (reply[0] === 0) throw limitReached(reply[1] ?? 0, maxActive ?? 0);
    return (await this.get(id)) as AlertRecord;
  }

  async delete(id: string, now: Date): Promise<AlertRecord> {
    const accountId = await this.client.hGet(this.k.alert(id), 'accountId');
    if (accountId === null) throw notFound(id);
    const k = this.k;
    await DELETE.run(
      this.client,
      [k.alert(id), k.accountAlerts(accountId), k.activeAlerts(accountId), k.dueAlerts()],
      [id, now.toISOString()],
    );
    return (await this.get(id)) as AlertRecord;
  }

  /** Active alerts due at `now`, oldest due first (next run, then id). */
  async due(now: Date, limit: number): Promise<AlertRecord[]> {
    const ids = await this.client.zRange(this.k.dueAlerts(), '-inf', now.getTime(), {
      BY: 'SCORE',
      LIMIT: { offset: 0, count: limit },
    });
    return this.read(ids);
  }

  async claimSlot(id: string, due: string, next: string, now: Date): Promise<boolean> {
    const reply = await CLAIM.run(
      this.client,
      [this.k.alert(id), this.k.dueAlerts()],
      [id, due, next, runMs(next), now.toISOString()],
    );
    return reply === 1;
  }

  private async read(ids: string[]): Promise<AlertRecord[]> {
    if (ids.length === 0) return [];
    const multi = this.client.multi();
    for (const id of ids) multi.hGetAll(this.k.alert(id));
    const rows = (await multi.exec()) as unknown as Record<string, string>[];
    return rows.filter((h) => h.id !== undefined).map(toAlert);
  }
}
