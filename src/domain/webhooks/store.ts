import type {
  AttemptOutcome,
  ClaimedDelivery,
  EventDraft,
  NewWebhookEndpoint,
  WebhookAttempt,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEvent,
  WebhookPatch,
  WebhookQueueStats,
} from './types.js';

/**
 * The webhook part of the StateStore port. Events caused by a state change (a job's end, a revoked key) are written
 * by that change's own transaction or script, as deliveries to each enabled endpoint of the account subscribed to the
 * type (nothing when none is): an event is never lost nor invented by a crash. Every lookup is scoped to its account.
 */
export interface WebhookStore {
  /** Adds an endpoint unless the account already has `max` (409 webhooks.limit_reached); check and insert atomic. */
  createWebhook(input: NewWebhookEndpoint, max: number): Promise<WebhookEndpoint>;
  getWebhook(accountId: string, id: string): Promise<WebhookEndpoint | undefined>;
  /** The account's endpoints, oldest first. */
  listWebhooks(accountId: string): Promise<WebhookEndpoint[]>;
  updateWebhook(accountId: string, id: string, patch: WebhookPatch, now: Date): Promise<WebhookEndpoint | undefined>;
  /** Deletes the endpoint with its deliveries and log; false when unknown on this account. */
  deleteWebhook(accountId: string, id: string): Promise<boolean>;
  /**
   * Records an event outside a job or key change (ping: to `endpointId` only, whatever it subscribed to). Undefined
   * when no endpoint takes it.
   */
  recordWebhookEvent(
    accountId: string,
    draft: EventDraft,
    now: Date,
    endpointId?: string,
  ): Promise<(WebhookEvent & { deliveryIds: string[] }) | undefined>;
  /**
   * Atomically takes up to `limit` deliveries due at `now` (pending with next attempt due, or sending with a lease
   * that expired: the process sending it died), counting one attempt and leasing them until `leaseUntil`: two workers
   * never take the same attempt.
   */
  claimWebhookDeliveries(now: Date, limit: number, leaseUntil: Date): Promise<ClaimedDelivery[]>;
  /**
   * Records the outcome of attempt `attempt` of a delivery (ignored, false, when the delivery is no longer on that
   * attempt) and the endpoint's health: a success clears its failure streak; a failure starts one, and an endpoint
   * failing since `disableAfterMs` or longer is disabled with the reason. `nextRetryAt` null and !ok: failed.
   */
  finishWebhookAttempt(
    deliveryId: string,
    attempt: number,
    outcome: AttemptOutcome,
    disableAfterMs: number,
  ): Promise<boolean>;
  /** The newest attempts of the endpoint first, at most `limit`. */
  listWebhookAttempts(accountId: string, endpointId: string, limit: number): Promise<WebhookAttempt[]>;
  getWebhookDelivery(accountId: string, endpointId: string, deliveryId: string): Promise<WebhookDelivery | undefined>;
  /** Puts a delivery back in the queue, due now, same webhook-id; undefined when unknown on this endpoint. */
  replayWebhookDelivery(
    accountId: string,
    endpointId: string,
    deliveryId: string,
    now: Date,
  ): Promise<WebhookDelivery | undefined>;
  webhookQueueStats(now: Date): Promise<WebhookQueueStats>;
  /**
   * Deletes up to `limit` deliveries that ended (succeeded or failed) and were created before `before`, and events no
   * delivery refers to any more; answers how many deliveries went. Pending and sending deliveries stay.
   */
  pruneWebhooks(before: Date, limit: number): Promise<number>;
  /** Enabled endpoints of every account subscribed to credits.low with a threshold (the sender checks them). */
  creditsLowEndpoints(): Promise<WebhookEndpoint[]>;
  /**
   * credits.low for one endpoint, once per window: records the event (to this endpoint only) unless it was already
   * recorded for `windowKey`; the check and the write are one atomic step. Undefined when already sent.
   */
  recordCreditsLow(
    accountId: string,
    endpointId: string,
    windowKey: string,
    draft: EventDraft,
    now: Date,
  ): Promise<WebhookEvent | undefined>;
}
