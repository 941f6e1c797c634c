import type { WebhookAttempt, WebhookEvent } from '../../domain/webhooks/types.js';
import type { RedisClient } from '../redis/client.js';
import { eventsMatch, toDelivery, toEndpoint } from '../redis/webhooks.js';
import { type DeliveryRow, toDelivery as deliveryOfRow } from '../sqlite/webhooks.js';
import { hashOf, ms, type RedisFamilyWriter, type RedisReadContext, type StateRecord, scanKeys } from './records.js';

/**
 * Webhook endpoints (with their sealed secrets: the same CDS_SECRET opens them), the outbox (events, deliveries in
 * every state) and each endpoint's attempt log (its newest 100). Key names as in state/redis/webhooks.ts, which
 * spells them out once (its Lua writes them too). An event lives on Redis 34 days after it was written (WEBHOOK
 * events past that are not written). The attempt log's `seq` is one counter over every endpoint in SQLite and a list
 * per endpoint on Redis: each endpoint's order is kept exactly (every read is one endpoint's), the numbers are made
 * again endpoint by endpoint.
 */
export const WEBHOOK_TABLES = [
  'webhook_endpoints',
  'webhook_events',
  'webhook_deliveries',
  'webhook_attempts',
] as const;

/** How long Redis keeps an event after it was written (EMIT_LUA's PX). */
const EVENT_KEEP_MS = 2_937_600_000;
const ATTEMPTS_KEPT = 100;

function names(p: string) {
  return {
    endpoint: (id: string) => `${p}webhook:${id}`,
    accountEndpoints: (acc: string) => `${p}account:${acc}:webhooks`,
    event: (id: string) => `${p}webhook-event:${id}`,
    delivery: (id: string) => `${p}webhook-delivery:${id}`,
    due: () => `${p}webhook-due`,
    deliveries: (ep: string) => `${p}webhook:${ep}:deliveries`,
    attempts: (ep: string) => `${p}webhook:${ep}:attempts`,
    ended: () => `${p}webhook-ended`,
    creditsLow: () => `${p}webhook-credits-low`,
  };
}

export async function* readWebhooks({ client, prefix, accountIds }: RedisReadContext): AsyncGenerator<StateRecord> {
  const n = names(prefix);
  const endpointIds: string[] = [];
  for (const acc of accountIds)
    for (const id of await client.zRange(n.accountEndpoints(acc), 0, -1)) {
      const h = (await client.hGetAll(n.endpoint(id))) as Record<string, string>;
      if (h.id === undefined) continue;
      const e = toEndpoint(h);
      endpointIds.push(id);
      yield {
        entity: 'webhook_endpoints',
        id: e.id,
        account_id: e.accountId,
        url: e.url,
        description: e.description,
        events: h.events ?? '[]',
        secret_sealed: e.secretSealed,
        previous_secret_sealed: e.previousSecretSealed,
        previous_secret_expires_at: e.previousSecretExpiresAt,
        credits_low_threshold: e.creditsLowThreshold,
        credits_low_window: h.creditsLowWindow ?? null,
        enabled: e.enabled ? 1 : 0,
        disabled_at: e.disabledAt,
        disabled_reason: e.disabledReason,
        failing_since: e.failingSince,
        last_success_at: e.lastSuccessAt,
        last_failure_at: e.lastFailureAt,
        created_at: e.createdAt,
        updated_at: e.updatedAt,
      };
    }
  const eventKeys: string[] = [];
  for await (const key of scanKeys(client, n.event(''))) eventKeys.push(key);
  const events: WebhookEvent[] = [];
  for (const key of eventKeys) {
    const json = await client.get(key);
    if (json !== null) events.push(JSON.parse(json) as WebhookEvent);
  }
  events.sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1));
  for (const e of events)
    yield {
      entity: 'webhook_events',
      id: e.id,
      account_id: e.accountId,
      type: e.type,
      data: JSON.stringify(e.data),
      created_at: e.createdAt,
    };
  const attempts: Array<{ a: WebhookAttempt; endpointId: string }> = [];
  for (const ep of endpointIds) {
    for (const id of await client.zRange(n.deliveries(ep), 0, -1)) {
      const h = (await client.hGetAll(n.delivery(id))) as Record<string, string>;
      if (h.id === undefined) continue;
      const d = toDelivery(h);
      // A delivery being sent holds its lease as its place in the due set.
      const lease = d.state === 'sending' ? await client.zScore(n.due(), id) : null;
      yield {
        entity: 'webhook_deliveries',
        id: d.id,
        event_id: d.eventId,
        endpoint_id: d.endpointId,
        account_id: d.accountId,
        state: d.state,
        attempts: d.attempts,
        next_attempt_at: d.nextAttemptAt,
        lease_until: lease === null ? null : new Date(lease).toISOString(),
        created_at: d.createdAt,
      };
    }
    const log = (await client.lRange(n.attempts(ep), 0, -1)).reverse();
    for (const json of log) attempts.push({ a: JSON.parse(json) as WebhookAttempt, endpointId: ep });
  }
  let seq = 0;
  for (const { a, endpointId } of attempts)
    yield {
      entity: 'webhook_attempts',
      seq: ++seq,
      delivery_id: a.deliveryId,
      endpoint_id: endpointId,
      event_id: a.eventId,
      event_type: a.eventType,
      attempt: a.attempt,
      ok: a.ok ? 1 : 0,
      status_code: a.statusCode,
      error: a.error,
      duration_ms: a.durationMs,
      at: a.at,
      next_retry_at: a.nextRetryAt,
    };
}

export function webhooksWriter(client: RedisClient, prefix: string, now: Date): RedisFamilyWriter {
  const n = names(prefix);
  /** Each endpoint's attempts in seq order (pushed in finish, newest on top). */
  const attempts = new Map<string, Array<{ seq: number; json: string }>>();
  return {
    entities: WEBHOOK_TABLES,
    async write(r) {
      const m = client.multi();
      switch (r.entity) {
        case 'webhook_endpoints': {
          const id = String(r.id);
          const events = JSON.parse(String(r.events)) as string[];
          const enabled = r.enabled === 1 || r.enabled === true;
          m.hSet(
            n.endpoint(id),
            hashOf({
              id,
              accountId: r.account_id,
              url: r.url,
              description: r.description,
              events: r.events,
              eventsMatch: eventsMatch(events),
              secretSealed: r.secret_sealed,
              previousSecretSealed: r.previous_secret_sealed,
              previousSecretExpiresAt: r.previous_secret_expires_at,
              creditsLowThreshold: r.credits_low_threshold,
              creditsLowWindow: r.credits_low_window,
              enabled: enabled ? '1' : '0',
              disabledAt: r.disabled_at,
              disabledReason: r.disabled_reason,
              failingSince: r.failing_since,
              failingSinceMs: r.failing_since === null ? null : ms(r.failing_since),
              lastSuccessAt: r.last_success_at,
              lastFailureAt: r.last_failure_at,
              createdAt: r.created_at,
              updatedAt: r.updated_at,
            }),
          );
          m.zAdd(n.accountEndpoints(String(r.account_id)), { score: ms(r.created_at), value: id });
          if (enabled && r.credits_low_threshold !== null && events.includes('credits.low')) m.sAdd(n.creditsLow(), id);
          break;
        }
        case 'webhook_events': {
          const left = ms(r.created_at) + EVENT_KEEP_MS - now.getTime();
          if (left <= 0) return;
          const event: WebhookEvent = {
            id: String(r.id),
            accountId: String(r.account_id),
            type: r.type as WebhookEvent['type'],
            createdAt: String(r.created_at),
            data: JSON.parse(String(r.data)) as WebhookEvent['data'],
          };
          m.set(n.event(event.id), JSON.stringify(event), { PX: left });
          break;
        }
        case 'webhook_deliveries': {
          const id = String(r.id);
          const created = ms(r.created_at);
          m.hSet(n.delivery(id), hashOf({ ...deliveryOfRow(r as unknown as DeliveryRow), createdMs: created }));
          m.zAdd(n.deliveries(String(r.endpoint_id)), { score: created, value: id });
          if (r.state === 'pending') m.zAdd(n.due(), { score: ms(r.next_attempt_at), value: id });
          else if (r.state === 'sending') m.zAdd(n.due(), { score: ms(r.lease_until ?? r.next_attempt_at), value: id });
          else m.zAdd(n.ended(), { score: created, value: id });
          break;
        }
        default: {
          const a: WebhookAttempt = {
            ok: r.ok === 1 || r.ok === true,
            statusCode: r.status_code as number | null,
            error: r.error as string | null,
            durationMs: Number(r.duration_ms),
            at: String(r.at),
            nextRetryAt: r.next_retry_at as string | null,
            deliveryId: String(r.delivery_id),
            eventId: String(r.event_id),
            eventType: r.event_type as WebhookAttempt['eventType'],
            attempt: Number(r.attempt),
          };
          const list = attempts.get(String(r.endpoint_id)) ?? [];
          list.push({ seq: Number(r.seq), json: JSON.stringify(a) });
          attempts.set(String(r.endpoint_id), list);
          return;
        }
      }
      await m.exec();
    },
    async finish() {
      for (const [ep, list] of attempts) {
        const newestLast = list.sort((x, y) => x.seq - y.seq).map((x) => x.json);
        await client
          .multi()
          .lPush(n.attempts(ep), newestLast)
          .lTrim(n.attempts(ep), 0, ATTEMPTS_KEPT - 1)
          .exec();
      }
    },
  };
}
