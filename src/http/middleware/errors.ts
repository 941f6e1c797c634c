import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { AppError, isAppError } from '../../domain/errors/index.js';
import type { Quota } from '../../domain/quota/index.js';
import { SignInRefused } from '../../face/sign-in-throttle.js';
import { errorEnvelope } from '../envelope.js';

/**
 * Turns every failure into the error envelope (ARCHITECTURE rule 4): AppErrors keep their code;
 * anything else is a 500 with the request id and no stack. Unmatched routes answer 404 route.not_found.
 */
export function errorHandler(
  logger: Logger,
  quotaFor: (ctx: { state: Record<string, unknown>; get(h: string): string }) => Promise<Quota | undefined>,
): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('route.not_found', `No route ${ctx.method} ${ctx.path}.`, {
          hint: 'See GET /docs (or GET /openapi.json) for the routes.',
        });
      }
    } catch (err) {
      const appErr = toAppError(err);
      if (appErr.status >= 500) {
        logger.error({ err, requestId: ctx.state.requestId, path: ctx.path }, 'unexpected error');
      }
      let quota: Quota | undefined;
      try {
        quota = appErr.code === 'auth.invalid_key' ? undefined : await quotaFor(ctx);
      } catch {
        quota = undefined;
      }
      ctx.status = appErr.status;
      ctx.body = errorEnvelope({
        requestId: ctx.state.requestId as string,
        buildLabel: ctx.state.buildLabel as string | undefined,
        error: appErr,
        quota,
      });
      if (appErr.code === 'rate.limited' && appErr.details?.retry_after !== undefined)
        ctx.set('Retry-After', String(appErr.details.retry_after));
      // The metrics' reason of a 429 the rate limiter did not note: the sign-in throttle's, or another bound's.
      if (appErr.status === 429 && ctx.state.rateLimited === undefined)
        ctx.state.rateLimited = appErr instanceof SignInRefused ? 'sign_in' : 'other';
    }
  };
}

function toAppError(err: unknown): AppError {
  if (isAppError(err)) return err;
  const e = err as { status?: number; expose?: boolean; message?: string; type?: string; code?: string };
  // A storage failure (corrupt or unreadable SQLite or DuckDB file) is the service's outage, not a bug in the request.
  if (
    (typeof e?.code === 'string' && e.code.startsWith('SQLITE_')) ||
    /^(IO|Serialization|Corruption) Error/.test(e?.message ?? '')
  ) {
    return new AppError('data.unavailable', 'Data is unavailable for a short time.', {
      hint: 'Retry in a minute; the operator has been told.',
    });
  }
  // Koa / body errors that carry a client status are the client's fault, never a 500.
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return new AppError('request.invalid', e.expose && e.message ? e.message : 'The request is malformed.');
  }
  return new AppError('internal.error');
}
