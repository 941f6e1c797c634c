import { newId } from '../../domain/ids.js';
import type {
  AttemptOutcome,
  ClaimedDelivery,
  EventDraft,
  NewWebhookEndpoint,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookEventType,
  WebhookPatch,
  WebhookQueueStats,
} from '../../domain/webhooks/types.js';
import { webhooksLimitReached } from '../../domain/webhooks/types.js';
import type { RedisClient } from './client.js';
import { RedisScript } from './script.js';

/**
 * Webhook endpoints, the outbox and the delivery log on Redis (port: domain/webhooks/store.ts). Key names (all under
 * the store's prefix; written by the Lua below as well, so they are spelled out here once):
 * - `webhook:<id>`: hash of the endpoint (fields of WebhookEndpoint; absent = null; events as JSON and as
 *   `eventsMatch` ",type,type," for the scripts; enabled `1`/`0`);
 * - `account:<acc>:webhooks`: sorted set of the account's endpoint ids by createdAt (ms);
 * - `webhook-event:<evt>`: string, the event's JSON;
 * - `webhook-delivery:<dlv>`: hash: id, eventId, endpointId, accountId, state, attempts, nextAttemptAt, createdAt;
 * - `webhook-due`: sorted set of deliveries waiting, by when they are due (a pending one's next attempt, a sending
 *   one's lease end: a sender that died leaves it due again);
 * - `webhook:<id>:deliveries`: sorted set of the endpoint's delivery ids by createdAt (ms);
 * - `webhook:<id>:attempts`: list of the endpoint's attempts (JSON, newest first, trimmed to 100);
 * - `webhook-ended`: sorted set of the deliveries that ended, by creation (ms), which pruning deletes after 30 days
 *   (events expire by themselves 34 days after they were written);
 * - `webhook-credits-low`: set of the endpoints credits.low may concern.
 * Events are emitted by EMIT_LUA inside the script of their cause (jobs FINISH_JOB, keys REVOKE).
 */
export const EMIT_LUA = `
local function emit_webhook_event(p, acc, etype, eid, ejson, dbase, now, nowms, only)
  local eps = redis.call('ZRANGE', p .. 'account:' .. acc .. ':webhooks', 0, -1)
  local n = 0
  for _, ep in ipairs(eps) do
    local f = redis.call('HMGET', p .. 'webhook:' .. ep, 'enabled', 'eventsMatch')
    local take
    if only ~= '' then take = (ep == only)
    else take = (f[1] == '1' and f[2] ~= false and string.find(f[2], ',' .. etype .. ',', 1, true) ~= nil) end
    if take then
      n = n + 1
      local d = dbase .. n
      redis.call('HSET', p .. 'webhook-delivery:' .. d, 'id', d, 'eventId', eid, 'endpointId', ep, 'accountId', acc,
        'state', 'pending', 'attempts', '0', 'nextAttemptAt', now, 'createdAt', now, 'createdMs', nowms)
      redis.call('ZADD', p .. 'webhook-due', nowms, d)
      redis.call('ZADD', p .. 'webhook:' .. ep .. ':deliveries', nowms, d)
    end
  end
  -- An event outlives every delivery of it (WEBHOOK_KEEP_MS, 30 days, plus 4).
  if n > 0 then redis.call('SET', p .. 'webhook-event:' .. eid, ejson, 'PX', 2937600000) end
  return n
end
`;

/**
 * What a caller passes to EMIT_LUA's function after its own ARGV: prefix, account, type, event id, event JSON,
 * delivery id base, now, now (ms). An empty prefix emits nothing.
 */
export function emitArgs(prefix: string, accountId: string, draft: EventDraft | null, now: Date): string[] {
  if (!draft) return ['', '', '', '', '', '', '', ''];
  const event: WebhookEvent = {
    id: newId('webhookEvent'),
    accountId,
    type: draft.type,
    createdAt: now.toISOString(),
    data: draft.data,
  };
  return [
    prefix,
    accountId,
    draft.type,
    event.id,
    JSON.stringify(event),
    newId('webhookDelivery'),
    event.createdAt,
    String(now.getTime()),
  ];
}

/** Lua: call emit with the 8 ARGV starting at index `at`. */
export const emitCall = (at: number) =>
  `if ARGV[${at}] ~= '' then emit_webhook_event(ARGV[${at}], ARGV[${at + 1}], ARGV[${at + 2}], ARGV[${at + 3}], ` +
  `ARGV[${at + 4}], ARGV[${at + 5}], ARGV[${at + 6}], ARGV[${at + 7}], '') end\n`;

/** KEYS: account's endpoints, endpoint. ARGV: max, createdAt ms, id, then field/value pairs. */
const CREATE = new RedisScript(`
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
for i = 4, #ARGV, 2 do redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1]) end
return 1
`);

/**
 * KEYS: endpoint. ARGV: accountId, number of fields to set n, then n pairs, then fields to delete. The rotation's
 * `rotate` field is special: the current secret becomes the previous one first. Answers 0 when not this account's.
 */
const UPDATE = new RedisScript(`
if redis.call('HGET', KEYS[1], 'accountId') ~= ARGV[1] then return 0 end
local n = tonumber(ARGV[2])
for i = 0, n - 1 do
  local f = ARGV[3 + 2 * i]
  local v = ARGV[4 + 2 * i]
  if f == 'rotate' then
    redis.call('HSET', KEYS[1], 'previousSecretSealed', redis.call('HGET', KEYS[1], 'secretSealed'), 'secretSealed', v)
  else
    redis.call('HSET', KEYS[1], f, v)
  end
end
for i = 3 + 2 * n, #ARGV do redis.call('HDEL', KEYS[1], ARGV[i]) end
return 1
`);

/** KEYS: endpoint, account's endpoints, due, endpoint's deliveries, attempts. ARGV: accountId, id, prefix. */
const DELETE = new RedisScript(`
if redis.call('HGET', KEYS[1], 'accountId') ~= ARGV[1] then return 0 end
for _, d in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
  redis.call('DEL', ARGV[3] .. 'webhook-delivery:' .. d)
  redis.call('ZREM', KEYS[3], d)
end
redis.call('DEL', KEYS[1], KEYS[4], KEYS[5])
redis.call('ZREM', KEYS[2], ARGV[2])
return 1
`);

/** ARGV: prefix, account, type, event id, event JSON, delivery base, now, now ms, endpoint (or ''). */
const RECORD = new RedisScript(`${EMIT_LUA}
return emit_webhook_event(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9])
`);

/** KEYS: endpoint. ARGV: accountId, window key, then the emit arguments (emitArgs) and the endpoint id. */
const CREDITS_LOW = new RedisScript(`${EMIT_LUA}
local f = redis.call('HMGET', KEYS[1], 'accountId', 'creditsLowWindow')
if f[1] ~= ARGV[1] or f[2] == ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'creditsLowWindow', ARGV[2])
return emit_webhook_event(ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11])
`);

/**
 * Prune: ended deliveries created before ARGV[1] (ms), at most ARGV[2], go with their place in their endpoint's list.
 * KEYS: ended deliveries. ARGV: before ms, limit, prefix. Answers how many went.
 */
const PRUNE = new RedisScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, d in ipairs(ids) do
  local k = ARGV[3] .. 'webhook-delivery:' .. d
  local ep = redis.call('HGET', k, 'endpointId')
  if ep then redis.call('ZREM', ARGV[3] .. 'webhook:' .. ep .. ':deliveries', d) end
  redis.call('DEL', k)
  redis.call('ZREM', KEYS[1], d)
end
return #ids
`);

/** KEYS: due. ARGV: now ms, limit, lease ms, prefix. Answers the claimed ids. */
const CLAIM = new RedisScript(`
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, d in ipairs(ids) do
  local k = ARGV[4] .. 'webhook-delivery:' .. d
  redis.call('HINCRBY', k, 'attempts', 1)
  redis.call('HSET', k, 'state', 'sending')
  redis.call('ZADD', KEYS[1], ARGV[3], d)
end
return ids
`);

/**
 * KEYS: delivery, due, endpoint, attempts log, ended deliveries (by creation ms). ARGV: attempt, ok (1/0), next retry
 * (iso or ''), next retry ms, attempt JSON, at, at ms, disable after ms, last error text. Answers 1, or 0 when the
 * delivery is not on that attempt.
 */
const FINISH = new RedisScript(`
local f = redis.call('HMGET', KEYS[1], 'state', 'attempts', 'id')
if f[1] ~= 'sending' or tonumber(f[2]) ~= tonumber(ARGV[1]) then return 0 end
local created = redis.call('HGET', KEYS[1], 'createdMs') or ARGV[7]
if ARGV[2] == '1' then
  redis.call('HSET', KEYS[1], 'state', 'succeeded')
  redis.call('HDEL', KEYS[1], 'nextAttemptAt')
  redis.call('ZREM', KEYS[2], f[3])
  redis.call('ZADD', KEYS[5], created, f[3])
elseif ARGV[3] == '' then
  redis.call('HSET', KEYS[1], 'state', 'failed')
  redis.call('HDEL', KEYS[1], 'nextAttemptAt')
  redis.call('ZREM', KEYS[2], f[3])
  redis.call('ZADD', KEYS[5], created, f[3])
else
  redis.call('HSET', KEYS[1], 'state', 'pending', 'nextAttemptAt', ARGV[3])
  redis.call('ZADD', KEYS[2], ARGV[4], f[3])
end
redis.call('LPUSH', KEYS[4], ARGV[5])
redis.call('LTRIM', KEYS[4], 0, 99)
if redis.call('EXISTS', KEYS[3]) == 1 then
  if ARGV[2] == '1' then
    redis.call('HDEL', KEYS[3], 'failingSince', 'failingSinceMs')
    redis.call('HSET', KEYS[3], 'lastSuccessAt', ARGV[6])
  else
    local since = redis.call('HGET', KEYS[3], 'failingSince') or ARGV[6]
    redis.call('HSET', KEYS[3], 'failingSince', since, 'lastFailureAt', ARGV[6])
    local sinceMs = tonumber(redis.call('HGET', KEYS[3], 'failingSinceMs') or ARGV[7])
    redis.call('HSET', KEYS[3], 'failingSinceMs', sinceMs)
    if redis.call('HGET', KEYS[3], 'enabled') == '1' and tonumber(ARGV[7]) - sinceMs >= tonumber(ARGV[8]) then
      redis.call('HSET', KEYS[3], 'enabled', '0', 'disabledAt', ARGV[6], 'disabledReason',
        'Every delivery failed since ' .. since .. ' (5 days); the last attempt at ' .. ARGV[6] .. ': ' .. ARGV[9] ..
        '. Fix the receiver, then PATCH {"enabled": true}.')
    end
  end
end
return 1
`);

/** KEYS: delivery, due, ended deliveries. ARGV: accountId, endpointId, now, now ms. */
const REPLAY = new RedisScript(`
local f = redis.call('HMGET', KEYS[1], 'accountId', 'endpointId', 'state', 'id')
if f[1] ~= ARGV[1] or f[2] ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'nextAttemptAt', ARGV[3])
redis.call('ZREM', KEYS[3], f[4])
if f[3] ~= 'sending' then
  redis.call('HSET', KEYS[1], 'state', 'pending')
  redis.call('ZADD', KEYS[2], ARGV[4], f[4])
end
return 1
`);

/** Exported for cds state export (state/transfer). */
export const toEndpoint = (h: Record<string, string>): WebhookEndpoint => ({
  id: h.id ?? '',
  accountId: h.accountId ?? '',
  url: h.url ?? '',
  description: h.description ?? null,
  events: JSON.parse(h.events ?? '[]') as WebhookEventType[],
  secretSealed: h.secretSealed ?? '',
  previousSecretSealed: h.previousSecretSealed ?? null,
  previousSecretExpiresAt: h.previousSecretExpiresAt ?? null,
  creditsLowThreshold: h.creditsLowThreshold === undefined ? null : Number(h.creditsLowThreshold),
  enabled: h.enabled === '1',
  disabledAt: h.disabledAt ?? null,
  disabledReason: h.disabledReason ?? null,
  failingSince: h.failingSince ?? null,
  lastSuccessAt: h.lastSuccessAt ?? null,
  lastFailureAt: h.lastFailureAt ?? null,
  createdAt: h.createdAt ?? '',
  updatedAt: h.updatedAt ?? '',
});

/** Exported for cds state export (state/transfer). */
export const toDelivery = (h: Record<string, string>): WebhookDelivery => ({
  id: h.id ?? '',
  eventId: h.eventId ?? '',
  endpointId: h.endpointId ?? '',
  accountId: h.accountId ?? '',
  state: (h.state ?? 'pending') as WebhookDelivery['state'],
  attempts: Number(h.attempts ?? 0),
  nextAttemptAt: h.nextAttemptAt ?? null,
  createdAt: h.createdAt ?? '',
});

export const eventsMatch = (events: readonly string[]) => `,${events.join(',')},`;

export class RedisWebhooks {
  constructor(
    private readonly client: RedisClient,
    private readonly p: string,
  ) {}

  private endpointKey = (id: string) => `${this.p}webhook:${id}`;
  private accountKey = (acc: string) => `${this.p}account:${acc}:webhooks`;
  private deliveryKey = (id: string) => `${this.p}webhook-delivery:${id}`;
  private dueKey = () => `${this.p}webhook-due`;
  /** Sorted set of deliveries that ended (succeeded or failed), by creation (ms): what pruning takes. */
  private endedKey = () => `${this.p}webhook-ended`;

  async create(input: NewWebhookEndpoint, max: number): Promise<WebhookEndpoint> {
    const at = input.now.toISOString();
    const e: WebhookEndpoint = {
      id: newId('webhook'),
      accountId: input.accountId,
      url: input.url,
      description: input.description,
      events: input.events,
      secretSealed: input.secretSealed,
      previousSecretSealed: null,
      previousSecretExpiresAt: null,
      creditsLowThreshold: input.creditsLowThreshold,
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      failingSince: null,
      lastSuccessAt: null,
      lastFailureAt: null,
      createdAt: at,
      updatedAt: at,
    };
    const fields: string[] = [
      'id',
      e.id,
      'accountId',
      e.accountId,
      'url',
      e.url,
      'events',
      JSON.stringify(e.events),
      'eventsMatch',
      eventsMatch(e.events),
      'secretSealed',
      e.secretSealed,
      'enabled',
      '1',
      'createdAt',
      at,
      'updatedAt',
      at,
    ];
    if (e.description !== null) fields.push('description', e.description);
    if (e.creditsLowThreshold !== null) fields.push('creditsLowThreshold', String(e.creditsLowThreshold));
    const ok = await CREATE.run(
      this.client,
      [this.accountKey(e.accountId), this.endpointKey(e.id)],
      [max, input.now.getTime(), e.id, ...fields],
    );
    if (ok !== 1) throw webhooksLimitReached(max);
    await this.syncCreditsLow(e, e.id);
    return e;
  }

  async get(accountId: string, id: string): Promise<WebhookEndpoint | undefined> {
    const h = (await this.client.hGetAll(this.endpointKey(id))) as Record<string, string>;
    return h.accountId === accountId ? toEndpoint(h) : undefined;
  }

  async list(accountId: string): Promise<WebhookEndpoint[]> {
    const ids = await this.client.zRange(this.accountKey(accountId), 0, -1);
    const out: WebhookEndpoint[] = [];
    for (const id of ids) {
      const e = await this.get(accountId, id);
      if (e) out.push(e);
    }
    return out;
  }

  async update(accountId: string, id: string, patch: WebhookPatch, now: Date): Promise<WebhookEndpoint | undefined> {
    const current = await this.get(accountId, id);
    if (!current) return undefined;
    const set: string[] = ['updatedAt', now.toISOString()];
    const del: string[] = [];
    if (patch.url !== undefined) set.push('url', patch.url);
    if (patch.description !== undefined) {
      if (patch.description === null) del.push('description');
      else set.push('description', patch.description);
    }
    if (patch.events !== undefined)
      set.push('events', JSON.stringify(patch.events), 'eventsMatch', eventsMatch(patch.events));
    if (patch.creditsLowThreshold !== undefined) {
      if (patch.creditsLowThreshold === null) del.push('creditsLowThreshold');
      else set.push('creditsLowThreshold', String(patch.creditsLowThreshold));
    }
    if (patch.enabled === true && !current.enabled) {
      set.push('enabled', '1');
      del.push('disabledAt', 'disabledReason', 'failingSince', 'failingSinceMs');
    } else if (patch.enabled === false && current.enabled) {
      set.push('enabled', '0', 'disabledAt', now.toISOString(), 'disabledReason', 'Disabled by the account.');
    }
    if (patch.rotate)
      set.push('rotate', patch.rotate.secretSealed, 'previousSecretExpiresAt', patch.rotate.previousExpiresAt);
    const ok = await UPDATE.run(this.client, [this.endpointKey(id)], [accountId, set.length / 2, ...set, ...del]);
    if (ok !== 1) return undefined;
    const updated = await this.get(accountId, id);
    await this.syncCreditsLow(updated, id);
    return updated;
  }

  async delete(accountId: string, id: string): Promise<boolean> {
    const e = this.endpointKey(id);
    const ok = await DELETE.run(
      this.client,
      [e, this.accountKey(accountId), this.dueKey(), `${e}:deliveries`, `${e}:attempts`],
      [accountId, id, this.p],
    );
    if (ok === 1) await this.client.sRem(this.creditsLowKey(), id);
    return ok === 1;
  }

  async record(
    accountId: string,
    draft: EventDraft,
    now: Date,
    endpointId?: string,
  ): Promise<(WebhookEvent & { deliveryIds: string[] }) | undefined> {
    const args = emitArgs(this.p, accountId, draft, now);
    const n = Number(await RECORD.run(this.client, [], [...args, endpointId ?? '']));
    if (n === 0) return undefined;
    const deliveryIds = Array.from({ length: n }, (_, i) => `${args[5]!}${i + 1}`);
    return { ...(JSON.parse(args[4]!) as WebhookEvent), deliveryIds };
  }

  async claim(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]> {
    const ids = (await CLAIM.run(
      this.client,
      [this.dueKey()],
      [now.getTime(), limit, leaseUntil.getTime(), this.p],
    )) as string[];
    const out: ClaimedDelivery[] = [];
    for (const id of ids) {
      const d = toDelivery((await this.client.hGetAll(this.deliveryKey(id))) as Record<string, string>);
      const eventJson = await this.client.get(`${this.p}webhook-event:${d.eventId}`);
      const endpoint = await this.get(d.accountId, d.endpointId);
      if (!eventJson || !endpoint) {
        // Its endpoint was deleted, or its event expired, meanwhile: nothing to send.
        await this.client.zRem(this.dueKey(), id);
        await this.client.hSet(this.deliveryKey(id), 'state', 'failed');
        continue;
      }
      out.push({ delivery: d, event: JSON.parse(eventJson) as WebhookEvent, endpoint });
    }
    return out;
  }

  async finish(deliveryId: string, attempt: number, o: AttemptOutcome, disableAfterMs: number): Promise<boolean> {
    const d = toDelivery((await this.client.hGetAll(this.deliveryKey(deliveryId))) as Record<string, string>);
    const eventJson = await this.client.get(`${this.p}webhook-event:${d.eventId}`);
    const type = eventJson ? (JSON.parse(eventJson) as WebhookEvent).type : 'ping';
    const log: WebhookAttempt = { ...o, deliveryId, eventId: d.eventId, eventType: type, attempt };
    const last = o.statusCode !== null ? `HTTP ${o.statusCode}` : (o.error ?? 'no answer');
    const ok = await FINISH.run(
      this.client,
      [
        this.deliveryKey(deliveryId),
        this.dueKey(),
        this.endpointKey(d.endpointId),
        `${this.endpointKey(d.endpointId)}:attempts`,
        this.endedKey(),
      ],
      [
        attempt,
        o.ok ? '1' : '0',
        o.nextRetryAt ?? '',
        o.nextRetryAt ? Date.parse(o.nextRetryAt) : 0,
        JSON.stringify({ ...log, durationMs: Math.round(o.durationMs) }),
        o.at,
        Date.parse(o.at),
        disableAfterMs,
        last,
      ],
    );
    return ok === 1;
  }

  async attempts(accountId: string, endpointId: string, limit: number): Promise<WebhookAttempt[]> {
    if (!(await this.get(accountId, endpointId))) return [];
    const rows = await this.client.lRange(`${this.endpointKey(endpointId)}:attempts`, 0, limit - 1);
    return rows.map((r) => JSON.parse(r) as WebhookAttempt);
  }

  async delivery(accountId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
    const h = (await this.client.hGetAll(this.deliveryKey(deliveryId))) as Record<string, string>;
    return h.accountId === accountId && h.endpointId === endpointId ? toDelivery(h) : undefined;
  }

  async replay(
    accountId: string,
    endpointId: string,
    deliveryId: string,
    now: Date,
  ): Promise<WebhookDelivery | undefined> {
    const ok = await REPLAY.run(
      this.client,
      [this.deliveryKey(deliveryId), this.dueKey(), this.endedKey()],
      [accountId, endpointId, now.toISOString(), now.getTime()],
    );
    return ok === 1 ? this.delivery(accountId, endpointId, deliveryId) : undefined;
  }

  /** The set of endpoints credits.low may concern, kept beside each write of an endpoint. */
  private creditsLowKey = () => `${this.p}webhook-credits-low`;

  private async syncCreditsLow(e: WebhookEndpoint | undefined, id: string): Promise<void> {
    if (e?.enabled && e.creditsLowThreshold !== null && e.events.includes('credits.low'))
      await this.client.sAdd(this.creditsLowKey(), id);
    else await this.client.sRem(this.creditsLowKey(), id);
  }

  async creditsLowEndpoints(): Promise<WebhookEndpoint[]> {
    const out: WebhookEndpoint[] = [];
    for (const id of await this.client.sMembers(this.creditsLowKey())) {
      const h = (await this.client.hGetAll(this.endpointKey(id))) as Record<string, string>;
      const e = h.id ? toEndpoint(h) : undefined;
      if (e?.enabled && e.creditsLowThreshold !== null && e.events.includes('credits.low')) out.push(e);
    }
    return out;
  }

  async recordCreditsLow(
    accountId: string,
    endpointId: string,
    windowKey: string,
    draft: EventDraft,
    now: Date,
  ): Promise<WebhookEvent | undefined> {
    const args = emitArgs(this.p, accountId, draft, now);
    const n = Number(
      await CREDITS_LOW.run(this.client, [this.endpointKey(endpointId)], [accountId, windowKey, ...args, endpointId]),
    );
    return n > 0 ? (JSON.parse(args[4]!) as WebhookEvent) : undefined;
  }

  async prune(before: Date, limit: number): Promise<number> {
    return Number(await PRUNE.run(this.client, [this.endedKey()], [before.getTime(), limit, this.p]));
  }

  async stats(): Promise<WebhookQueueStats> {
    const pending = await this.client.zCard(this.dueKey());
    const first = await this.client.zRangeWithScores(this.dueKey(), 0, 0);
    const oldest = first[0];
    return { pending, oldestDueAt: oldest ? new Date(oldest.score).toISOString() : null };
  }
}
