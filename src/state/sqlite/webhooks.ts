import type { Database, Statement } from 'better-sqlite3';
import { newId } from '../../domain/ids.js';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  type EventDraft,
  type NewWebhookEndpoint,
  subscribes,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookPatch,
  type WebhookQueueStats,
  webhooksLimitReached,
} from '../../domain/webhooks/types.js';

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: string;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  credits_low_threshold: number | null;
  credits_low_window: string | null;
  enabled: number;
  disabled_at: string | null;
  disabled_reason: string | null;
  failing_since: string | null;
  last_success_at: string | null;
  last_failure_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  state: WebhookDelivery['state'];
  attempts: number;
  next_attempt_at: string | null;
  lease_until: string | null;
  created_at: string;
}

interface EventRow {
  id: string;
  account_id: string;
  type: WebhookEventType;
  data: string;
  created_at: string;
}

interface AttemptRow {
  delivery_id: string;
  event_id: string;
  event_type: WebhookEventType;
  attempt: number;
  ok: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  at: string;
  next_retry_at: string | null;
}

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  accountId: r.account_id,
  url: r.url,
  description: r.description,
  events: JSON.parse(r.events) as WebhookEventType[],
  secretSealed: r.secret_sealed,
  previousSecretSealed: r.previous_secret_sealed,
  previousSecretExpiresAt: r.previous_secret_expires_at,
  creditsLowThreshold: r.credits_low_threshold,
  enabled: r.enabled === 1,
  disabledAt: r.disabled_at,
  disabledReason: r.disabled_reason,
  failingSince: r.failing_since,
  lastSuccessAt: r.last_success_at,
  lastFailureAt: r.last_failure_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** A webhook_deliveries row as the domain's delivery (also how the state transfer writes one into Redis). */
export const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  eventId: r.event_id,
  endpointId: r.endpoint_id,
  accountId: r.account_id,
  state: r.state,
  attempts: r.attempts,
  nextAttemptAt: r.next_attempt_at,
  createdAt: r.created_at,
});

const toEvent = (r: EventRow): WebhookEvent => ({
  id: r.id,
  accountId: r.account_id,
  type: r.type,
  createdAt: r.created_at,
  data: JSON.parse(r.data) as Record<string, unknown>,
});

/**
 * Webhook endpoints, the outbox and the delivery log (port: domain/webhooks/store.ts). `emitIn` is called inside
 * the transaction of the change that causes an event (jobs.ts finishIn, keys.ts revoke), so the event and its cause
 * commit together.
 */
export class SqliteWebhooks {
  private readonly ofAccount: Statement<[string], EndpointRow>;
  private readonly byId: Statement<[string, string], EndpointRow>;
  private readonly endpointById: Statement<[string], EndpointRow>;
  private readonly insertEndpoint: Statement<[EndpointRow]>;
  private readonly insertEvent: Statement<[EventRow]>;
  private readonly insertDelivery: Statement<[DeliveryRow]>;
  private readonly eventById: Statement<[string], EventRow>;
  private readonly deliveryById: Statement<[string], DeliveryRow>;
  private readonly due: Statement<[{ now: string; limit: number }], DeliveryRow>;
  private readonly insertAttempt: Statement<[AttemptRow & { endpoint_id: string }]>;

  constructor(private readonly db: Database) {
    this.ofAccount = db.prepare('SELECT * FROM webhook_endpoints WHERE account_id = ? ORDER BY created_at, id');
    this.byId = db.prepare('SELECT * FROM webhook_endpoints WHERE account_id = ? AND id = ?');
    this.endpointById = db.prepare('SELECT * FROM webhook_endpoints WHERE id = ?');
    this.insertEndpoint = db.prepare(
      `INSERT INTO webhook_endpoints VALUES (@id, @account_id, @url, @description, @events, @secret_sealed,
       @previous_secret_sealed, @previous_secret_expires_at, @credits_low_threshold, @credits_low_window, @enabled, @disabled_at,
       @disabled_reason, @failing_since, @last_success_at, @last_failure_at, @created_at, @updated_at)`,
    );
    this.insertEvent = db.prepare(
      'INSERT INTO webhook_events (id, account_id, type, data, created_at) VALUES (@id, @account_id, @type, @data, @created_at)',
    );
    this.insertDelivery = db.prepare(
      `INSERT INTO webhook_deliveries (id, event_id, endpoint_id, account_id, state, attempts, next_attempt_at, lease_until, created_at)
       VALUES (@id, @event_id, @endpoint_id, @account_id, @state, @attempts, @next_attempt_at, @lease_until, @created_at)`,
    );
    this.eventById = db.prepare('SELECT * FROM webhook_events WHERE id = ?');
    this.deliveryById = db.prepare('SELECT * FROM webhook_deliveries WHERE id = ?');
    this.due = db.prepare(
      `SELECT * FROM webhook_deliveries WHERE (state = 'pending' AND next_attempt_at <= @now)
       OR (state = 'sending' AND lease_until <= @now) ORDER BY next_attempt_at, id LIMIT @limit`,
    );
    this.insertAttempt = db.prepare(
      `INSERT INTO webhook_attempts (delivery_id, endpoint_id, event_id, event_type, attempt, ok, status_code, error, duration_ms, at, next_retry_at)
       VALUES (@delivery_id, @endpoint_id, @event_id, @event_type, @attempt, @ok, @status_code, @error, @duration_ms, @at, @next_retry_at)`,
    );
  }

  create(input: NewWebhookEndpoint, max: number): WebhookEndpoint {
    return this.db
      .transaction(() => {
        if (this.ofAccount.all(input.accountId).length >= max) throw webhooksLimitReached(max);
        const at = input.now.toISOString();
        const row: EndpointRow = {
          id: newId('webhook'),
          account_id: input.accountId,
          url: input.url,
          description: input.description,
          events: JSON.stringify(input.events),
          secret_sealed: input.secretSealed,
          previous_secret_sealed: null,
          previous_secret_expires_at: null,
          credits_low_threshold: input.creditsLowThreshold,
          credits_low_window: null,
          enabled: 1,
          disabled_at: null,
          disabled_reason: null,
          failing_since: null,
          last_success_at: null,
          last_failure_at: null,
          created_at: at,
          updated_at: at,
        };
        this.insertEndpoint.run(row);
        return toEndpoint(row);
      })
      .immediate();
  }

  get(accountId: string, id: string): WebhookEndpoint | undefined {
    const row = this.byId.get(accountId, id);
    return row && toEndpoint(row);
  }

  list(accountId: string): WebhookEndpoint[] {
    return this.ofAccount.all(accountId).map(toEndpoint);
  }

  update(accountId: string, id: string, patch: WebhookPatch, now: Date): WebhookEndpoint | undefined {
    return this.db
      .transaction(() => {
        const row = this.byId.get(accountId, id);
        if (!row) return undefined;
        const next: EndpointRow = { ...row, updated_at: now.toISOString() };
        if (patch.url !== undefined) next.url = patch.url;
        if (patch.description !== undefined) next.description = patch.description;
        if (patch.events !== undefined) next.events = JSON.stringify(patch.events);
        if (patch.creditsLowThreshold !== undefined) next.credits_low_threshold = patch.creditsLowThreshold;
        if (patch.enabled === true && row.enabled === 0) {
          Object.assign(next, { enabled: 1, disabled_at: null, disabled_reason: null, failing_since: null });
        } else if (patch.enabled === false && row.enabled === 1) {
          Object.assign(next, {
            enabled: 0,
            disabled_at: now.toISOString(),
            disabled_reason: 'Disabled by the account.',
          });
        }
        if (patch.rotate) {
          next.previous_secret_sealed = row.secret_sealed;
          next.previous_secret_expires_at = patch.rotate.previousExpiresAt;
          next.secret_sealed = patch.rotate.secretSealed;
        }
        this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id);
        this.insertEndpoint.run(next);
        return toEndpoint(next);
      })
      .immediate();
  }

  delete(accountId: string, id: string): boolean {
    return this.db
      .transaction(() => {
        if (!this.byId.get(accountId, id)) return false;
        this.db.prepare('DELETE FROM webhook_attempts WHERE endpoint_id = ?').run(id);
        this.db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ?').run(id);
        this.db.prepare('DELETE FROM webhook_endpoints WHERE id = ?').run(id);
        return true;
      })
      .immediate();
  }

  /**
   * Inside the caller's transaction: records the event and one delivery, due now, per enabled endpoint of the account
   * subscribed to its type (or to `endpointId` only); nothing at all when none takes it.
   */
  emitIn(
    accountId: string,
    draft: EventDraft,
    now: Date,
    endpointId?: string,
  ): (WebhookEvent & { deliveryIds: string[] }) | undefined {
    const endpoints = this.ofAccount
      .all(accountId)
      .map(toEndpoint)
      .filter((e) => (endpointId !== undefined ? e.id === endpointId : subscribes(e, draft.type)));
    if (endpoints.length === 0) return undefined;
    const at = now.toISOString();
    const event: EventRow = {
      id: newId('webhookEvent'),
      account_id: accountId,
      type: draft.type,
      data: JSON.stringify(draft.data),
      created_at: at,
    };
    this.insertEvent.run(event);
    const deliveryIds: string[] = [];
    for (const e of endpoints) {
      const id = newId('webhookDelivery');
      deliveryIds.push(id);
      this.insertDelivery.run({
        id,
        event_id: event.id,
        endpoint_id: e.id,
        account_id: accountId,
        state: 'pending',
        attempts: 0,
        next_attempt_at: at,
        lease_until: null,
        created_at: at,
      });
    }
    return { ...toEvent(event), deliveryIds };
  }

  record(
    accountId: string,
    draft: EventDraft,
    now: Date,
    endpointId?: string,
  ): (WebhookEvent & { deliveryIds: string[] }) | undefined {
    return this.db.transaction(() => this.emitIn(accountId, draft, now, endpointId)).immediate();
  }

  claim(now: Date, limit: number, leaseUntil: Date): ClaimedDelivery[] {
    return this.db
      .transaction(() => {
        const out: ClaimedDelivery[] = [];
        const take = this.db.prepare(
          "UPDATE webhook_deliveries SET state = 'sending', attempts = attempts + 1, lease_until = ? WHERE id = ? RETURNING *",
        );
        for (const d of this.due.all({ now: now.toISOString(), limit })) {
          const row = take.get(leaseUntil.toISOString(), d.id) as DeliveryRow;
          const endpoint = this.endpointById.get(row.endpoint_id);
          const event = this.eventById.get(row.event_id);
          if (!endpoint || !event) continue;
          out.push({ delivery: toDelivery(row), event: toEvent(event), endpoint: toEndpoint(endpoint) });
        }
        return out;
      })
      .immediate();
  }

  finish(deliveryId: string, attempt: number, o: AttemptOutcome, disableAfterMs: number): boolean {
    return this.db
      .transaction(() => {
        const d = this.deliveryById.get(deliveryId);
        if (!d || d.state !== 'sending' || d.attempts !== attempt) return false;
        const event = this.eventById.get(d.event_id);
        const state = o.ok ? 'succeeded' : o.nextRetryAt === null ? 'failed' : 'pending';
        this.db
          .prepare('UPDATE webhook_deliveries SET state = ?, next_attempt_at = ?, lease_until = NULL WHERE id = ?')
          .run(state, o.nextRetryAt, deliveryId);
        this.insertAttempt.run({
          delivery_id: deliveryId,
          endpoint_id: d.endpoint_id,
          event_id: d.event_id,
          event_type: event?.type ?? 'ping',
          attempt,
          ok: o.ok ? 1 : 0,
          status_code: o.statusCode,
          error: o.error,
          duration_ms: Math.round(o.durationMs),
          at: o.at,
          next_retry_at: o.nextRetryAt,
        });
        // The log keeps the newest attempts of each endpoint.
        this.db
          .prepare(
            'DELETE FROM webhook_attempts WHERE endpoint_id = ? AND seq <= (SELECT seq FROM webhook_attempts WHERE ' +
              'endpoint_id = ? ORDER BY seq DESC LIMIT 1 OFFSET 100)',
          )
          .run(d.endpoint_id, d.endpoint_id);
        const ep = this.endpointById.get(d.endpoint_id);
        if (ep) {
          if (o.ok) {
            this.db
              .prepare('UPDATE webhook_endpoints SET failing_since = NULL, last_success_at = ? WHERE id = ?')
              .run(o.at, ep.id);
          } else {
            const since = ep.failing_since ?? o.at;
            const disable = ep.enabled === 1 && Date.parse(o.at) - Date.parse(since) >= disableAfterMs;
            this.db
              .prepare(
                'UPDATE webhook_endpoints SET failing_since = ?, last_failure_at = ?, enabled = ?, disabled_at = ?, ' +
                  'disabled_reason = ? WHERE id = ?',
              )
              .run(
                since,
                o.at,
                disable ? 0 : ep.enabled,
                disable ? o.at : ep.disabled_at,
                disable ? disabledReason(since, o) : ep.disabled_reason,
                ep.id,
              );
          }
        }
        return true;
      })
      .immediate();
  }

  attempts(accountId: string, endpointId: string, limit: number): WebhookAttempt[] {
    if (!this.byId.get(accountId, endpointId)) return [];
    return this.db
      .prepare<[string, number], AttemptRow>(
        'SELECT * FROM webhook_attempts WHERE endpoint_id = ? ORDER BY seq DESC LIMIT ?',
      )
      .all(endpointId, limit)
      .map((r) => ({
        deliveryId: r.delivery_id,
        eventId: r.event_id,
        eventType: r.event_type,
        attempt: r.attempt,
        ok: r.ok === 1,
        statusCode: r.status_code,
        error: r.error,
        durationMs: r.duration_ms,
        at: r.at,
        nextRetryAt: r.next_retry_at,
      }));
  }

  delivery(accountId: string, endpointId: string, deliveryId: string): WebhookDelivery | undefined {
    const d = this.deliveryById.get(deliveryId);
    return d && d.account_id === accountId && d.endpoint_id === endpointId ? toDelivery(d) : undefined;
  }

  replay(accountId: string, endpointId: string, deliveryId: string, now: Date): WebhookDelivery | undefined {
    return this.db
      .transaction(() => {
        if (!this.delivery(accountId, endpointId, deliveryId)) return undefined;
        // A delivery being sent now keeps its lease; it is due again right after.
        this.db
          .prepare(
            "UPDATE webhook_deliveries SET state = CASE WHEN state = 'sending' THEN state ELSE 'pending' END, " +
              'next_attempt_at = ? WHERE id = ?',
          )
          .run(now.toISOString(), deliveryId);
        return toDelivery(this.deliveryById.get(deliveryId)!);
      })
      .immediate();
  }

  creditsLowEndpoints(): WebhookEndpoint[] {
    return this.db
      .prepare<[], EndpointRow>(
        "SELECT * FROM webhook_endpoints WHERE enabled = 1 AND credits_low_threshold IS NOT NULL AND EXISTS (SELECT 1 FROM json_each(events) WHERE value = 'credits.low')",
      )
      .all()
      .map(toEndpoint);
  }

  recordCreditsLow(
    accountId: string,
    endpointId: string,
    windowKey: string,
    draft: EventDraft,
    now: Date,
  ): WebhookEvent | undefined {
    return this.db
      .transaction(() => {
        const taken = this.db
          .prepare(
            'UPDATE webhook_endpoints SET credits_low_window = ? WHERE id = ? AND account_id = ? AND ' +
              '(credits_low_window IS NULL OR credits_low_window <> ?)',
          )
          .run(windowKey, endpointId, accountId, windowKey);
        return taken.changes === 1 ? this.emitIn(accountId, draft, now, endpointId) : undefined;
      })
      .immediate();
  }

  prune(before: Date, limit: number): number {
    return this.db
      .transaction(() => {
        const gone = this.db
          .prepare(
            "DELETE FROM webhook_deliveries WHERE id IN (SELECT id FROM webhook_deliveries WHERE state IN ('succeeded', " +
              "'failed') AND created_at < ? LIMIT ?)",
          )
          .run(before.toISOString(), limit).changes;
        this.db
          .prepare(
            'DELETE FROM webhook_events WHERE created_at < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE ' +
              'd.event_id = webhook_events.id)',
          )
          .run(before.toISOString());
        return gone;
      })
      .immediate();
  }

  stats(): WebhookQueueStats {
    const r = this.db
      .prepare<[], { n: number; oldest: string | null }>(
        "SELECT count(*) AS n, min(next_attempt_at) AS oldest FROM webhook_deliveries WHERE state IN ('pending', 'sending')",
      )
      .get();
    return { pending: r?.n ?? 0, oldestDueAt: r?.oldest ?? null };
  }
}

export function disabledReason(since: string, o: AttemptOutcome): string {
  const last = o.statusCode !== null ? `HTTP ${o.statusCode}` : (o.error ?? 'no answer');
  return `Every delivery failed since ${since} (5 days); the last attempt at ${o.at}: ${last}. Fix the receiver, then PATCH {"enabled": true}.`;
}
