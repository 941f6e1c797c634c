import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { AppError } from '../../domain/errors/index.js';
import { quotaBlock } from '../../domain/quota/quota-block.js';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  DISABLE_AFTER_MS,
  nextRetryAt,
  WEBHOOK_KEEP_MS,
  type WebhookEndpoint,
  type WebhookEvent,
} from '../../domain/webhooks/types.js';
import { resultLink } from '../../operations/enrichment-upload/result-link.js';
import type { Services } from '../../operations/types.js';
import { resultFile } from '../enrichment/files.js';
import { exportFile, exportLink, linkExpiry } from '../export/links.js';
import { EXPORT_LINK_TTL_MS, type ExportFamily } from '../export/payload.js';
import type { PeriodicTask } from '../runner.js';
import { openSecret, signMessage } from './secrets.js';
import { hostOf, parseWebhookUrl, webhookLookup } from './url-guard.js';

/** Answer bytes read at most (the rest is ignored). */
const ANSWER_MAX_BYTES = 4096;
/** Deliveries one pass takes at most. */
const BATCH = 20;

/**
 * The webhook sender: a periodic task of the job runner (every worker process runs it). Each pass claims the
 * deliveries due (StateStore.claimWebhookDeliveries: atomic, leased, so two workers or processes never make the same
 * attempt; a sender that dies leaves its lease to run out and the attempt is made again, same webhook-id), sends
 * them, and records each outcome with the next retry of the schedule (domain/webhooks/types.ts).
 */
export function webhookSender(
  services: Services,
  everyMs = 250,
  creditsEveryMs = 2000,
  sweepEveryMs = WAKEUP_SWEEP_MS,
): PeriodicTask {
  let lastCreditsCheck = 0;
  let lastPrune = 0;
  // Redis mode: deliveries come on BullMQ wake-ups (wakeups.ts); this pass claims only every sweepEveryMs, the
  // safety net for a wake-up lost (a process killed between recording an event and announcing it, Redis down).
  let lastSweep = Date.now();
  return {
    name: 'webhook deliveries',
    everyMs,
    run: async () => {
      const { state, clock, metrics } = services;
      if (Date.now() - lastCreditsCheck >= creditsEveryMs) {
        lastCreditsCheck = Date.now();
        await checkCreditsLow(services);
      }
      if (Date.now() - lastPrune >= 3_600_000) {
        lastPrune = Date.now();
        await state.pruneWebhooks(new Date(clock.now().getTime() - WEBHOOK_KEEP_MS), 5000);
      }
      const now = clock.now();
      const stats = await state.webhookQueueStats(now);
      metrics.webhookQueue(
        stats.pending,
        stats.oldestDueAt ? Math.max(0, (now.getTime() - Date.parse(stats.oldestDueAt)) / 1000) : 0,
      );
      if (stats.pending === 0) return;
      if (services.webhookWakeups) {
        if (Date.now() - lastSweep < sweepEveryMs) return;
        lastSweep = Date.now();
      }
      await webhookPass(services);
    },
  };
}

/** Redis mode: how often the sender sweeps for due deliveries no wake-up brought (the safety net). */
export const WAKEUP_SWEEP_MS = 30_000;

/**
 * One pass: claims the deliveries due now (atomically, leased) and sends them. In Redis mode each claimed attempt
 * also gets a wake-up at the end of its lease, so an attempt whose sender died (or could not record its outcome
 * while Redis was down) is made again when the lease runs out, without waiting for the sweep.
 */
export async function webhookPass(services: Services): Promise<number> {
  const { state, clock, config, webhookWakeups } = services;
  const now = clock.now();
  // The lease outlives the attempt's own time limit: past it, the attempt is taken as lost and made again.
  const leaseUntil = new Date(now.getTime() + config.webhookTimeoutMs * 3 + 5000);
  const claimed = await state.claimWebhookDeliveries(now, BATCH, leaseUntil);
  if (webhookWakeups)
    await Promise.all(
      claimed.map((c) =>
        webhookWakeups.announce(
          `lease-${c.delivery.id}#${c.delivery.attempts}`,
          new Date(leaseUntil.getTime() + 500),
          now,
        ),
      ),
    );
  await Promise.all(claimed.map((c) => deliverOne(services, c)));
  return claimed.length;
}

/**
 * credits.low is a level, not an edge: every pass of this check records it for each endpoint whose account's binding
 * window has fewer credits left than the endpoint's threshold, once per window (recordCreditsLow's atomic guard). So a
 * crash between a charge and the check loses nothing — the next check sees the same level — and nothing is sent
 * twice for one window.
 */
export async function checkCreditsLow(services: Services): Promise<number> {
  const { state, clock } = services;
  let recorded = 0;
  const snapshots = new Map<string, ReturnType<typeof quotaBlock>>();
  for (const e of await state.creditsLowEndpoints()) {
    const now = clock.now();
    let q = snapshots.get(e.accountId);
    if (!q) {
      q = quotaBlock(await state.snapshot(e.accountId, now), now, 0);
      snapshots.set(e.accountId, q);
    }
    const remaining = q.binding === 'day' ? q.today_remaining : q.month_remaining;
    if (e.creditsLowThreshold === null || remaining >= e.creditsLowThreshold) continue;
    const draft = {
      type: 'credits.low' as const,
      data: {
        binding: q.binding,
        remaining,
        threshold: e.creditsLowThreshold,
        resets_at: q.resets_at,
        plan: q.plan,
      },
    };
    const event = await state.recordCreditsLow(e.accountId, e.id, `${q.binding}:${q.resets_at}`, draft, now);
    if (event) {
      recorded++;
      await services.webhookWakeups?.announce(`credits-${event.id}`, now, now);
    }
  }
  return recorded;
}

async function deliverOne(services: Services, c: ClaimedDelivery): Promise<void> {
  const { state, clock, logger, metrics } = services;
  const attempt = c.delivery.attempts;
  let outcome: AttemptOutcome;
  if (!c.endpoint.enabled) {
    outcome = {
      ok: false,
      statusCode: null,
      error: `not sent: the endpoint is disabled (${c.endpoint.disabledReason ?? 'by the account'})`,
      durationMs: 0,
      at: clock.now().toISOString(),
      nextRetryAt: null,
    };
  } else {
    // Whatever goes wrong before an answer (a body that cannot be built, a secret that cannot be opened) is this
    // attempt's failure, logged and retried like a network error: never a delivery stuck until its lease ends.
    const sent = await bodyOf(services, c.event)
      .then((b) => send(services, c.endpoint, c.event.id, JSON.stringify(b)))
      .catch(
        (e: unknown): Sent => ({
          ok: false,
          retry: true,
          statusCode: null,
          error: `not sent: ${(e as Error).message ?? String(e)}`,
          durationMs: 0,
        }),
      );
    const at = clock.now();
    const retry = !sent.ok && sent.retry ? nextRetryAt(attempt, at) : null;
    outcome = {
      ok: sent.ok,
      statusCode: sent.statusCode,
      error: sent.error,
      durationMs: sent.durationMs,
      at: at.toISOString(),
      nextRetryAt: retry?.toISOString() ?? null,
    };
  }
  metrics.webhookAttempt(outcome.ok ? 'succeeded' : outcome.nextRetryAt ? 'retry' : 'failed');
  const recorded = await state.finishWebhookAttempt(c.delivery.id, attempt, outcome, DISABLE_AFTER_MS);
  if (!recorded) logger.warn({ delivery: c.delivery.id, attempt }, 'webhook attempt outcome not recorded (taken over)');
  // Redis mode: the next attempt of the schedule is a delayed wake-up at its time.
  else if (outcome.nextRetryAt)
    await services.webhookWakeups?.announce(
      `${c.delivery.id}#${attempt + 1}`,
      new Date(outcome.nextRetryAt),
      clock.now(),
    );
}

interface Sent {
  ok: boolean;
  retry: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Signs with the current secret, and the previous one while a rotation's overlap lasts. */
export function signatures(
  services: Services,
  endpoint: WebhookEndpoint,
  id: string,
  ts: number,
  body: string,
): string {
  const now = services.clock.now().getTime();
  const secrets = [openSecret(services.secret, endpoint.secretSealed)];
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousSecretExpiresAt &&
    Date.parse(endpoint.previousSecretExpiresAt) > now
  )
    secrets.push(openSecret(services.secret, endpoint.previousSecretSealed));
  return secrets.map((s) => signMessage(s, id, ts, body)).join(' ');
}

/** One POST: 10 s (CDS_WEBHOOK_TIMEOUT_MS) for all of it, redirects not followed, at most 4 KB of the answer read. */
function send(services: Services, endpoint: WebhookEndpoint, id: string, body: string): Promise<Sent> {
  const { config, clock } = services;
  const started = performance.now();
  const took = () => performance.now() - started;
  let url: URL;
  try {
    url = parseWebhookUrl(endpoint.url, config.webhookAllowHosts);
  } catch (e) {
    const message = e instanceof AppError ? e.message : String(e);
    return Promise.resolve({ ok: false, retry: false, statusCode: null, error: message, durationMs: 0 });
  }
  const ts = Math.floor(clock.now().getTime() / 1000);
  const allowed = config.webhookAllowHosts.includes(hostOf(url));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Sent>((resolve) => {
    let done = false;
    const finish = (s: Omit<Sent, 'durationMs'>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...s, durationMs: took() });
    };
    const req = request(
      url,
      {
        method: 'POST',
        lookup: webhookLookup(allowed),
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'User-Agent': 'contact-data-service-webhooks',
          'webhook-id': id,
          'webhook-timestamp': String(ts),
          'webhook-signature': signatures(services, endpoint, id, ts, body),
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          // Past 4 KB the answer is not read further.
          if (read > ANSWER_MAX_BYTES) res.destroy();
        });
        const settle = () => {
          if (status >= 200 && status < 300) finish({ ok: true, retry: false, statusCode: status, error: null });
          else
            finish({
              ok: false,
              retry: status === 429 || status >= 500,
              statusCode: status,
              error: status >= 300 && status < 400 ? 'redirects are not followed' : null,
            });
        };
        res.on('end', settle);
        res.on('close', settle);
        res.on('error', settle);
      },
    );
    const timer = setTimeout(() => {
      finish({
        ok: false,
        retry: true,
        statusCode: null,
        error: `no answer within ${config.webhookTimeoutMs} ms`,
      });
      req.destroy();
    }, config.webhookTimeoutMs);
    req.on('error', (e: NodeJS.ErrnoException) => {
      const error =
        e.code === 'CDS_ADDRESS_REFUSED'
          ? `the host resolves to a private, loopback, link-local or metadata address (${e.message})`
          : `network error: ${e.code ?? e.message}`;
      finish({ ok: false, retry: true, statusCode: null, error });
    });
    req.end(body);
  });
}

/**
 * The body sent: `{type, id, created_at, data}`. Links are made when sent, by the polling routes' rules: the polling
 * route of the job, and for a completed export its signed download link, for a completed CSV enrichment run its signed
 * result_url (each bound to the account's active key, expiring as the polling route's does) while the file is there.
 */
export async function bodyOf(services: Services, event: WebhookEvent): Promise<Record<string, unknown>> {
  const { config, secret, clock, state } = services;
  const data: Record<string, unknown> = { ...event.data };
  const base = config.publicUrl;
  if (event.type === 'export.completed' || event.type === 'export.failed') {
    const id = String(data.export_id);
    const family = (data.family === 'B' ? 'B' : 'A') as ExportFamily;
    data.links = {
      self: family === 'A' ? `${base}/v1/exports/${id}` : `${base}/api/v1/contacts/search/export/${id}`,
    };
    if (event.type === 'export.completed') {
      const expiresAt = linkExpiry(event.createdAt, EXPORT_LINK_TTL_MS[family]);
      const key = (await state.listKeys(event.accountId)).find((k) => k.revokedAt === null);
      if (clock.now() < expiresAt && existsSync(exportFile(config.filesDir, id))) {
        data.download_url = exportLink(base, secret, id, expiresAt, key?.id);
        data.expires_at = expiresAt.toISOString();
      }
    }
  } else if (event.type === 'enrichment_run.completed') {
    // The polling route's link (GET /v1/enrichment-runs/{id} gives the same): signed, valid one hour from when this
    // attempt is made, bound to the account's active key; left out once the result file is gone (kept 7 days).
    const id = String(data.run_id);
    data.links = { self: `${base}/v1/enrichment-runs/${id}` };
    const key = (await state.listKeys(event.accountId)).find((k) => k.revokedAt === null);
    if (existsSync(resultFile(config.filesDir, id))) {
      const link = resultLink(services, id, clock.now(), key?.id);
      data.result_url = link.url;
      data.result_expires_at = link.expiresAt.toISOString();
    }
  } else if (event.type === 'collect.completed' || event.type === 'collect.failed') {
    data.links = { self: `${base}/v1/signals/collect/${String(data.collect_id)}` };
  } else if (event.type === 'alert.leads') {
    data.links = {
      alert: `${base}/v1/signals/alerts/${String(data.alert_id)}`,
      signals: `${base}/v1/signals?source_type=alert&source_id=${String(data.alert_id)}&run_id=${String(data.run_id)}`,
    };
  }
  return { type: event.type, id: event.id, created_at: event.createdAt, data };
}
