import type { Context, Middleware } from 'koa';

/**
 * Calls `fn` once a request is answered, with the status the client gets (500 for an exception that passed through)
 * and the time it took in milliseconds; the request logger and the metrics both observe answers this way.
 */
export function onAnswer(fn: (ctx: Context, status: number, ms: number) => void): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    let failed = false;
    try {
      await next();
    } catch (e) {
      failed = true;
      throw e;
    } finally {
      fn(ctx, failed ? 500 : ctx.status, performance.now() - started);
    }
  };
}
