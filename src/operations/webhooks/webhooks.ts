import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import {
  ATTEMPT_LOG_SIZE,
  SECRET_OVERLAP_MS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOKS_PER_ACCOUNT,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookPatch,
} from '../../domain/webhooks/types.js';
import { newWebhookSecret, sealSecret } from '../../jobs/webhooks/secrets.js';
import { checkWebhookUrl, WEBHOOK_URL_MAX } from '../../jobs/webhooks/url-guard.js';
import { requireAccount } from '../account/get-account.js';
import * as out from '../outputs.js';
import { text } from '../schemas.js';
import { defineOperation, type OpContext } from '../types.js';

const NOT_FOUND_HINT = 'List the endpoints with GET /v1/webhooks, with the key of the same account.';

/** An endpoint as the API shows it: never its secret (returned once, at creation and at rotation). */
export function webhookView(e: WebhookEndpoint, now: Date) {
  const overlap = e.previousSecretExpiresAt !== null && Date.parse(e.previousSecretExpiresAt) > now.getTime();
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    credits_low_threshold: e.creditsLowThreshold,
    enabled: e.enabled,
    disabled_at: e.disabledAt,
    disabled_reason: e.disabledReason,
    health: !e.enabled ? 'disabled' : e.failingSince !== null ? 'failing' : e.lastSuccessAt ? 'healthy' : 'new',
    failing_since: e.failingSince,
    last_success_at: e.lastSuccessAt,
    last_failure_at: e.lastFailureAt,
    previous_secret_expires_at: overlap ? e.previousSecretExpiresAt : null,
    created_at: e.createdAt,
    updated_at: e.updatedAt,
  };
}

const webhookOutput = out.obj({
  id: out.str,
  url: out.str,
  description: out.nullable(out.str),
  events: out.list(out.str),
  credits_low_threshold: out.nullable(out.num),
  enabled: out.bool,
  disabled_at: out.nullable(out.str),
  disabled_reason: out.nullable(out.str),
  health: out.str,
  failing_since: out.nullable(out.str),
  last_success_at: out.nullable(out.str),
  last_failure_at: out.nullable(out.str),
  previous_secret_expires_at: out.nullable(out.str),
  created_at: out.str,
  updated_at: out.str,
});

const attemptOutput = out.obj({
  delivery_id: out.str,
  event_id: out.str,
  event: out.str,
  attempt: out.num,
  ok: out.bool,
  status_code: out.nullable(out.num),
  error: out.nullable(out.str),
  duration_ms: out.num,
  at: out.str,
  next_retry_at: out.nullable(out.str),
});

const attemptView = (a: WebhookAttempt) => ({
  delivery_id: a.deliveryId,
  event_id: a.eventId,
  event: a.eventType,
  attempt: a.attempt,
  ok: a.ok,
  status_code: a.statusCode,
  error: a.error,
  duration_ms: Math.round(a.durationMs),
  at: a.at,
  next_retry_at: a.nextRetryAt,
});

const idMember = text('Webhook endpoint id (whk_…).', 100);
const urlMember = v.pipe(
  v.string(),
  v.maxLength(WEBHOOK_URL_MAX, `must be at most ${WEBHOOK_URL_MAX} characters`),
  v.description('Where events are POSTed: an https:// URL of a public host.'),
);
const eventsMember = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES, `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`)),
  v.minLength(1, 'must name at least one event type'),
  v.maxLength(WEBHOOK_EVENT_TYPES.length, `must name at most ${WEBHOOK_EVENT_TYPES.length} event types`),
  v.description(`The event types sent to this endpoint: ${WEBHOOK_EVENT_TYPES.join(', ')}.`),
);
const descriptionMember = v.nullable(text('A note for people reading the endpoint list.', 500));
const thresholdMember = v.nullable(
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(0, 'must be at least 0'),
    v.maxValue(1_000_000_000, 'must be at most 1000000000'),
    v.description(
      'credits.low: sent once per window when the binding window’s remaining credits fall below this number.',
    ),
  ),
);

async function own(ctx: OpContext, id: string): Promise<WebhookEndpoint> {
  const e = /^whk_[0-9A-Za-z]{1,64}$/.test(id)
    ? await ctx.services.state.getWebhook(requireAccount(ctx).id, id)
    : undefined;
  if (!e)
    throw new AppError('webhook.not_found', 'No webhook endpoint with this id on this account.', {
      hint: NOT_FOUND_HINT,
    });
  return e;
}

const unique = (events: readonly WebhookEventType[]) => [...new Set(events)];

export const createWebhook = defineOperation({
  name: 'webhooks.create',
  family: 'A',
  method: 'POST',
  path: '/v1/webhooks',
  auth: 'key',
  spends: false,
  summary: 'Add webhook endpoint',
  description:
    'Registers a URL to which the chosen events are POSTed, signed to the Standard Webhooks convention ' +
    '(webhook-id, webhook-timestamp, webhook-signature). Answers the signing secret (whsec_…) once. The URL must be ' +
    `https: on a public host (400 webhook.url_refused). At most ${WEBHOOKS_PER_ACCOUNT} endpoints an account (409 ` +
    'webhooks.limit_reached). Free. See docs/webhooks.md.',
  cost: 'free',
  output: out.obj({ ...webhookOutput.entries, secret: out.str }),
  errors: ['webhook.url_refused', 'webhooks.limit_reached'],
  input: v.object({
    url: urlMember,
    events: eventsMember,
    description: v.optional(descriptionMember),
    credits_low_threshold: v.optional(thresholdMember),
  }),
  handler: async (ctx, input) => {
    const account = requireAccount(ctx);
    const url = await checkWebhookUrl(input.url, ctx.services.config.webhookAllowHosts);
    const secret = newWebhookSecret();
    const e = await ctx.services.state.createWebhook(
      {
        accountId: account.id,
        url: url.href,
        description: input.description ?? null,
        events: unique(input.events),
        secretSealed: sealSecret(ctx.services.secret, secret),
        creditsLowThreshold: input.credits_low_threshold ?? null,
        now: ctx.now,
      },
      WEBHOOKS_PER_ACCOUNT,
    );
    return { status: 201, data: { ...webhookView(e, ctx.now), secret } };
  },
});

export const listWebhooks = defineOperation({
  name: 'webhooks.list',
  family: 'A',
  method: 'GET',
  path: '/v1/webhooks',
  auth: 'key',
  spends: false,
  summary: 'List webhook endpoints',
  description:
    'The endpoints of the account with their health (healthy, failing, disabled and why), without secrets. Free.',
  cost: 'free',
  output: out.list(webhookOutput),
  errors: [],
  input: v.object({}),
  handler: async (ctx) => ({
    data: (await ctx.services.state.listWebhooks(requireAccount(ctx).id)).map((e) => webhookView(e, ctx.now)),
  }),
});

export const getWebhook = defineOperation({
  name: 'webhooks.get',
  family: 'A',
  method: 'GET',
  path: '/v1/webhooks/:id',
  auth: 'key',
  spends: false,
  summary: 'Get webhook endpoint',
  description:
    'One endpoint: its events, health, and when disabled (after 5 days of failed deliveries) why. Unknown or ' +
    "another account's id: 404 webhook.not_found. Free.",
  cost: 'free',
  output: webhookOutput,
  errors: ['webhook.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => ({ data: webhookView(await own(ctx, input.id), ctx.now) }),
});

export const updateWebhook = defineOperation({
  name: 'webhooks.update',
  family: 'A',
  method: 'PATCH',
  path: '/v1/webhooks/:id',
  auth: 'key',
  spends: false,
  summary: 'Update webhook endpoint',
  description:
    'Changes url, events, description, credits_low_threshold or enabled (true re-enables a disabled endpoint and ' +
    'starts its failure count over; false pauses it: its deliveries fail without being sent). Free.',
  cost: 'free',
  output: webhookOutput,
  errors: ['webhook.not_found', 'webhook.url_refused'],
  input: v.object({
    id: idMember,
    url: v.optional(urlMember),
    events: v.optional(eventsMember),
    description: v.optional(descriptionMember),
    credits_low_threshold: v.optional(thresholdMember),
    enabled: v.optional(v.boolean('must be true or false')),
  }),
  handler: async (ctx, input) => {
    const e = await own(ctx, input.id);
    const patch: WebhookPatch = {};
    if (input.url !== undefined)
      patch.url = (await checkWebhookUrl(input.url, ctx.services.config.webhookAllowHosts)).href;
    if (input.events !== undefined) patch.events = unique(input.events);
    if (input.description !== undefined) patch.description = input.description;
    if (input.credits_low_threshold !== undefined) patch.creditsLowThreshold = input.credits_low_threshold;
    if (input.enabled !== undefined) patch.enabled = input.enabled;
    if (Object.keys(patch).length === 0)
      throw new AppError('request.invalid', 'Nothing to change.', {
        hint: 'Send at least one of url, events, description, credits_low_threshold, enabled.',
      });
    const updated = await ctx.services.state.updateWebhook(e.accountId, e.id, patch, ctx.now);
    if (!updated)
      throw new AppError('webhook.not_found', 'No webhook endpoint with this id on this account.', {
        hint: NOT_FOUND_HINT,
      });
    return { data: webhookView(updated, ctx.now) };
  },
});

export const deleteWebhook = defineOperation({
  name: 'webhooks.delete',
  family: 'A',
  method: 'DELETE',
  path: '/v1/webhooks/:id',
  auth: 'key',
  spends: false,
  summary: 'Delete webhook endpoint',
  description: 'Deletes the endpoint with its pending deliveries and its log; nothing more is sent to it. Free.',
  cost: 'free',
  output: out.obj({ id: out.str, deleted: out.bool }),
  errors: ['webhook.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    const e = await own(ctx, input.id);
    await ctx.services.state.deleteWebhook(e.accountId, e.id);
    return { data: { id: e.id, deleted: true } };
  },
});

export const rotateWebhookSecret = defineOperation({
  name: 'webhooks.rotate_secret',
  family: 'A',
  method: 'POST',
  path: '/v1/webhooks/:id/rotate-secret',
  auth: 'key',
  spends: false,
  summary: 'Rotate webhook secret',
  description:
    'Answers a new signing secret once. For 24 hours the old secret keeps signing beside the new one (two v1 ' +
    'signatures in webhook-signature), so the receiver can switch without losing a message. Free.',
  cost: 'free',
  output: out.obj({ ...webhookOutput.entries, secret: out.str }),
  errors: ['webhook.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    const e = await own(ctx, input.id);
    const secret = newWebhookSecret();
    const updated = await ctx.services.state.updateWebhook(
      e.accountId,
      e.id,
      {
        rotate: {
          secretSealed: sealSecret(ctx.services.secret, secret),
          previousExpiresAt: new Date(ctx.now.getTime() + SECRET_OVERLAP_MS).toISOString(),
        },
      },
      ctx.now,
    );
    if (!updated)
      throw new AppError('webhook.not_found', 'No webhook endpoint with this id on this account.', {
        hint: NOT_FOUND_HINT,
      });
    return { data: { ...webhookView(updated, ctx.now), secret } };
  },
});

export const testWebhook = defineOperation({
  name: 'webhooks.test',
  family: 'A',
  method: 'POST',
  path: '/v1/webhooks/:id/test',
  auth: 'key',
  spends: false,
  summary: 'Send a test event',
  description:
    'Queues a `ping` event to this endpoint (whatever events it subscribed to) and answers 202 with its event and ' +
    'delivery ids; the outcome shows in GET /v1/webhooks/{id}/deliveries. Free.',
  cost: 'free',
  output: out.obj({ event_id: out.str, delivery_id: out.str, type: out.str, created_at: out.str }),
  errors: ['webhook.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    const e = await own(ctx, input.id);
    const event = await ctx.services.state.recordWebhookEvent(
      e.accountId,
      { type: 'ping', data: { webhook_id: e.id } },
      ctx.now,
      e.id,
    );
    if (!event)
      throw new AppError('webhook.not_found', 'No webhook endpoint with this id on this account.', {
        hint: NOT_FOUND_HINT,
      });
    for (const id of event.deliveryIds) await ctx.services.webhookWakeups?.announce(`${id}#1`, ctx.now, ctx.now);
    return {
      status: 202,
      data: {
        event_id: event.id,
        delivery_id: event.deliveryIds[0] ?? '',
        type: event.type,
        created_at: event.createdAt,
      },
    };
  },
});

export const listWebhookDeliveries = defineOperation({
  name: 'webhooks.deliveries',
  family: 'A',
  method: 'GET',
  path: '/v1/webhooks/:id/deliveries',
  auth: 'key',
  spends: false,
  summary: 'Webhook delivery log',
  description:
    `The last ${ATTEMPT_LOG_SIZE} attempts to this endpoint, newest first: event, attempt number, status code or ` +
    'error, duration and next retry. Free.',
  cost: 'free',
  output: out.list(attemptOutput),
  errors: ['webhook.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    const e = await own(ctx, input.id);
    const attempts = await ctx.services.state.listWebhookAttempts(e.accountId, e.id, ATTEMPT_LOG_SIZE);
    return { data: attempts.map(attemptView) };
  },
});

export const replayWebhookDelivery = defineOperation({
  name: 'webhooks.replay',
  family: 'A',
  method: 'POST',
  path: '/v1/webhooks/:id/deliveries/:delivery_id/replay',
  auth: 'key',
  spends: false,
  summary: 'Replay a webhook delivery',
  description:
    'Sends the delivery again now, with the same webhook-id and body (a receiver that already processed it can ' +
    'tell by the id); a failed delivery gets one more attempt, and retries on the schedule if that fails too. ' +
    'Answers 202. Free.',
  cost: 'free',
  output: out.obj({ delivery_id: out.str, event_id: out.str, state: out.str, next_attempt_at: out.nullable(out.str) }),
  errors: ['webhook.not_found', 'webhook.delivery_not_found'],
  input: v.object({ id: idMember, delivery_id: text('Delivery id (dlv_…), from the delivery log.', 100) }),
  handler: async (ctx, input) => {
    const e = await own(ctx, input.id);
    const d = /^dlv_[0-9A-Za-z]{1,70}$/.test(input.delivery_id)
      ? await ctx.services.state.replayWebhookDelivery(e.accountId, e.id, input.delivery_id, ctx.now)
      : undefined;
    if (!d)
      throw new AppError('webhook.delivery_not_found', 'No delivery with this id for this endpoint.', {
        hint: 'Take delivery_id from GET /v1/webhooks/{id}/deliveries.',
      });
    await ctx.services.webhookWakeups?.announce(`${d.id}#replay-${ctx.now.getTime()}`, ctx.now, ctx.now);
    return {
      status: 202,
      data: { delivery_id: d.id, event_id: d.eventId, state: d.state, next_attempt_at: d.nextAttemptAt },
    };
  },
});

/** In the order the examples run: what a step reads was made by an earlier one; the delete last. */
export const WEBHOOK_OPERATIONS = [
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  rotateWebhookSecret,
  testWebhook,
  listWebhookDeliveries,
  replayWebhookDelivery,
  deleteWebhook,
];
