import { Router } from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../domain/errors/index.js';
import { USAGE_LINES, utcDay } from '../../domain/usage-lines.js';
import { withRateLimit } from '../../face/rate-limit.js';
import type { EnrichmentRunPayload, EnrichmentRunResult } from '../../jobs/enrichment/payload.js';
import { UploadStore } from '../../jobs/enrichment/upload-store.js';
import type { Job } from '../../jobs/port.js';
import { runView } from '../../operations/enrichment-upload/run-view.js';
import { uploadPageLink } from '../../operations/enrichment-upload/upload-link.js';
import type { Services } from '../../operations/types.js';
import { answerOperation } from '../rest-router.js';
import { consoleOperation, KEYLESS_OPERATION_NAMES, keylessRefusal, readFor, requireOperation } from './caller-ops.js';
import {
  type ConsoleCaller,
  checkCsrf,
  checkSameOrigin,
  clearSessionCookie,
  csrfTokenOf,
  noSession,
  resolveSession,
} from './session.js';
import { signInWithKey } from './sign-in.js';

const LIST_LIMIT = 50;
const CHART_DAYS = 30;

/**
 * The console's JSON routes under /app/api. Operations run through `answerOperation`, exactly as REST runs them
 * (rate limits of the session's key, envelope, settlement); the lists fan out to the same read operations.
 */
export function consoleApi(services: Services): Router {
  const router = new Router({ prefix: '/app/api' });

  router.post('/session', async (ctx) => {
    checkSameOrigin(ctx, services.config.publicUrl);
    const body = (ctx.state.body ?? {}) as { api_key?: unknown };
    const secret = typeof body.api_key === 'string' ? body.api_key.trim() : '';
    // Signing in again replaces the session this browser had: a new token each time (no fixation).
    const { token, expiresAt } = await signInWithKey(services, ctx, secret);
    ctx.body = { ok: true, csrf_token: csrfTokenOf(services.secret, token), expires_at: expiresAt.toISOString() };
  });

  router.get('/session', async (ctx) => {
    const caller = await mustHave(services, ctx);
    ctx.body = {
      ok: true,
      csrf_token: csrfTokenOf(services.secret, caller.token),
      expires_at: caller.session.expiresAt,
      account: { id: caller.account.id, name: caller.account.name, plan: caller.account.plan },
      key_id: caller.key?.id ?? null,
      base_url: services.config.publicUrl,
      // The key's requests in flight (the rate limiter's, CDS_RATE_CONCURRENT): the console's pages send no more.
      in_flight_limit: services.rateLimiter.concurrent,
    };
  });

  router.delete('/session', async (ctx) => {
    const caller = await mustHave(services, ctx);
    checkCsrf(services, ctx, caller);
    await services.state.deleteSession(caller.session.tokenHash);
    clearSessionCookie(services, ctx);
    ctx.body = { ok: true };
  });

  router.all('/op/:name', async (ctx) => {
    const caller = await mustHave(services, ctx);
    const op = consoleOperation(ctx.params.name ?? '');
    if (!op || op.method !== ctx.method) {
      throw new AppError('route.not_found', `No console operation ${ctx.method} ${ctx.params.name}.`, {
        hint: 'The console calls the operations of the API by name.',
      });
    }
    if (op.method !== 'GET') checkCsrf(services, ctx, caller);
    if (!caller.key && !KEYLESS_OPERATION_NAMES.includes(op.name)) throw keylessRefusal();
    const source: unknown = op.method === 'GET' || op.method === 'DELETE' ? { ...ctx.query } : (ctx.state.body ?? {});
    await answerOperation(
      services,
      op,
      ctx,
      { account: caller.account, key: caller.key, limitId: `console:${caller.account.id}` },
      source,
    );
    await followKey(services, ctx, caller, op.name);
  });

  router.get('/usage', async (ctx) => {
    const caller = await mustHave(services, ctx);
    const to = services.clock.now();
    const from = new Date(to.getTime() - (CHART_DAYS - 1) * 86_400_000);
    const days = Array.from({ length: CHART_DAYS }, (_, i) => utcDay(new Date(from.getTime() + i * 86_400_000)));
    const records = await limited(services, ctx, caller, () =>
      services.state.usageByDay(caller.account.id, utcDay(from), utcDay(to)),
    );
    ctx.body = { ok: true, data: { days, lines: USAGE_LINES, records } };
  });

  router.get('/exports', async (ctx) => {
    const caller = await mustHave(services, ctx);
    // Both hand out signed links (downloads, upload pages): not to a session whose key was revoked.
    if (!caller.key) throw keylessRefusal();
    const getExport = requireOperation('exports.get');
    const rows = await limited(services, ctx, caller, async () => {
      const jobs = await services.state.listJobs(caller.account.id, 'export', LIST_LIMIT);
      return Promise.all(
        jobs.map(async (job) => {
          const read = await readFor(services, ctx, caller, getExport, { id: job.id });
          return 'data' in read
            ? read.data
            : {
                export_id: job.id,
                status: read.error.code === 'export.expired' ? 'expired' : 'unavailable',
                created_at: job.createdAt,
              };
        }),
      );
    });
    ctx.body = { ok: true, data: rows };
  });

  router.get('/activity', async (ctx) => {
    const caller = await mustHave(services, ctx);
    // Both hand out signed links (downloads, upload pages): not to a session whose key was revoked.
    if (!caller.key) throw keylessRefusal();
    const getCollect = requireOperation('signals.collect.get');
    const data = await limited(services, ctx, caller, async () => {
      const [collectJobs, uploadJobs, alerts] = await Promise.all([
        services.state.listJobs(caller.account.id, 'collect', LIST_LIMIT),
        services.state.listJobs(caller.account.id, 'enrichment_run', LIST_LIMIT),
        readFor(services, ctx, caller, requireOperation('signals.alerts.list'), {}),
      ]);
      const collects = await Promise.all(
        collectJobs.map(async (job) => {
          const read = await readFor(services, ctx, caller, getCollect, { id: job.id });
          return 'data' in read ? read.data : { id: job.id, status: job.status, created_at: job.createdAt };
        }),
      );
      // Each run as check_enrichment_status shows it, with its upload page while that page's link is valid.
      const store = new UploadStore(services.config.filesDir);
      const now = services.clock.now();
      const uploads = await Promise.all(
        uploadJobs.map(async (job) => {
          const view = runView(job as unknown as Job<EnrichmentRunPayload, EnrichmentRunResult>);
          const upload = await store.get(view.upload_id, caller.account.id);
          const expires = upload ? new Date(upload.expires_at) : null;
          const page =
            upload && expires && expires > now
              ? uploadPageLink(services.config.publicUrl, services.secret, upload.id, expires)
              : null;
          return { ...view, id: view.run_id, upload_page: page };
        }),
      );
      return { collects, alerts: 'data' in alerts ? alerts.data : [], uploads };
    });
    ctx.body = { ok: true, data };
  });

  return router;
}

async function mustHave(services: Services, ctx: Context): Promise<ConsoleCaller> {
  const caller = await resolveSession(services, ctx);
  if (!caller) {
    clearSessionCookie(services, ctx);
    throw noSession();
  }
  ctx.state.account = caller.account;
  return caller;
}

/** A console read that is not one operation still counts against the session's rate limits. */
function limited<T>(services: Services, ctx: Context, caller: ConsoleCaller, run: () => Promise<T>): Promise<T> {
  return withRateLimit(services.rateLimiter, ctx, caller.key?.id ?? `console:${caller.account.id}`, run);
}

/**
 * The session follows its account's key through the console: revoking the session's own key leaves it key-less
 * (it may only create the next key), and the key it then creates becomes its key.
 */
async function followKey(services: Services, ctx: Context, caller: ConsoleCaller, opName: string): Promise<void> {
  if (ctx.status >= 300) return;
  const data = (ctx.body as { data?: { id?: unknown } } | undefined)?.data;
  const id = typeof data?.id === 'string' ? data.id : undefined;
  if (opName === 'keys.revoke' && id && id === caller.key?.id)
    await services.state.rebindSession(caller.session.tokenHash, null);
  if (opName === 'keys.create' && id && !caller.key) await services.state.rebindSession(caller.session.tokenHash, id);
}
