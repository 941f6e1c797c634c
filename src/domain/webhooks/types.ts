import { AppError } from '../errors/index.js';

/**
 * Webhooks (issue 43): endpoints an account registers, the events the service records for them in an outbox (in the
 * same transaction or script as the state change that causes each event), and the deliveries of those events, signed
 * to the Standard Webhooks convention. The store's side is WebhookStore (state/port.ts); the sender is
 * jobs/webhooks/deliver.ts.
 */

/** Every event type an endpoint may subscribe to (`ping` is sent by POST /v1/webhooks/{id}/test only). */
export const WEBHOOK_EVENT_TYPES = [
  'export.completed',
  'export.failed',
  'collect.completed',
  'collect.failed',
  'alert.leads',
  'enrichment_run.completed',
  'credits.low',
  'key.revoked',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number] | 'ping';

/** Endpoints per account. */
export const WEBHOOKS_PER_ACCOUNT = 10;
/** How long the previous secret keeps signing beside the new one after a rotation. */
export const SECRET_OVERLAP_MS = 24 * 3_600_000;
/** An endpoint whose deliveries failed without a success for this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3_600_000;
/**
 * How long a delivery that ended (succeeded or failed) is kept, and can be replayed, after it was created; events
 * live a few days longer than that, so a delivery never outlives its event.
 */
export const WEBHOOK_KEEP_MS = 30 * 24 * 3_600_000;
/** Attempts the log keeps per endpoint. */
export const ATTEMPT_LOG_SIZE = 100;

const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
/**
 * Pause before retry n (after failed attempt n): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. An attempt
 * failing after the last pause (the 10th attempt) marks the delivery failed.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  5 * S,
  5 * MIN,
  30 * MIN,
  2 * H,
  5 * H,
  10 * H,
  14 * H,
  20 * H,
  24 * H,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;

/** When attempt `attempt` (1-based, just failed at `at`) is retried, or null when it was the last one. */
export function nextRetryAt(attempt: number, at: Date): Date | null {
  const pause = RETRY_SCHEDULE_MS[attempt - 1];
  return pause === undefined ? null : new Date(at.getTime() + pause);
}

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  /** The signing secret, sealed with the service secret (jobs/webhooks/secrets.ts); never shown after creation. */
  secretSealed: string;
  /** The secret before the last rotation, signing beside the new one until `previousSecretExpiresAt`. */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  /** credits.low: the remaining credits of the binding window below which the event is sent (null: never). */
  creditsLowThreshold: number | null;
  enabled: boolean;
  disabledAt: string | null;
  disabledReason: string | null;
  /** First failed attempt since the last success (null when the last attempt succeeded, or none failed). */
  failingSince: string | null;
  lastSuccessAt: string | null;
  lastFailureAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface NewWebhookEndpoint {
  accountId: string;
  url: string;
  description: string | null;
  events: WebhookEventType[];
  secretSealed: string;
  creditsLowThreshold: number | null;
  now: Date;
}

export interface WebhookPatch {
  url?: string;
  description?: string | null;
  events?: WebhookEventType[];
  creditsLowThreshold?: number | null;
  /** true re-enables a disabled endpoint (its failure streak starts over); false disables it by hand. */
  enabled?: boolean;
  /** A rotation: the new sealed secret; the current one becomes the previous one until `previousExpiresAt`. */
  rotate?: { secretSealed: string; previousExpiresAt: string };
}

/** An event as recorded in the outbox: the body's members (the body is `{type, id, created_at, data}`). */
export interface WebhookEvent {
  id: string;
  accountId: string;
  type: WebhookEventType;
  createdAt: string;
  data: Record<string, unknown>;
}

/** What a state change asks the outbox to record: the type and data; the store adds id and time. */
export interface EventDraft {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

export type DeliveryState = 'pending' | 'sending' | 'succeeded' | 'failed';

/** One event for one endpoint; `webhook-id` is the event id on every attempt and replay. */
export interface WebhookDelivery {
  id: string;
  eventId: string;
  endpointId: string;
  accountId: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAt: string | null;
  createdAt: string;
}

/** A delivery claimed for one attempt, with what sending it needs. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  event: WebhookEvent;
  endpoint: WebhookEndpoint;
}

/** The outcome of one attempt, as the log shows it. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  at: string;
  /** When it is tried again (null: not again — succeeded, or failed for good). */
  nextRetryAt: string | null;
}

export interface WebhookAttempt extends AttemptOutcome {
  deliveryId: string;
  eventId: string;
  eventType: WebhookEventType;
  attempt: number;
}

/** The outbox's backlog (metrics): deliveries waiting, and how long the oldest due one has waited. */
export interface WebhookQueueStats {
  pending: number;
  oldestDueAt: string | null;
}

/** Whether an endpoint subscribed to events of this type (ping goes to whichever endpoint is tested). */
export function subscribes(endpoint: Pick<WebhookEndpoint, 'events' | 'enabled'>, type: WebhookEventType): boolean {
  return endpoint.enabled && endpoint.events.includes(type);
}

export function webhooksLimitReached(max: number): AppError {
  return new AppError('webhooks.limit_reached', `The account already has ${max} webhook endpoints.`, {
    hint: 'Delete an endpoint you no longer use (DELETE /v1/webhooks/{id}), then add the new one.',
  });
}
