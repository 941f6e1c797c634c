import type { Context } from 'koa';
import { AppError } from '../domain/errors/index.js';
import type { RateDecision, RateLimiter } from '../state/rate-limiter.js';

/**
 * Applies the per-key limits to one HTTP request (REST or MCP) and sets the IETF draft headers on every
 * response that carries a key: `RateLimit-Policy: "default";q=300;w=60` and `RateLimit: "default";r=R;t=T`
 * (remaining R in the window, T seconds until a slot frees). A refusal is 429 rate.limited with Retry-After.
 * The in-flight slot is released when the handler ends, fails, or the client disconnects — exactly once. An MCP
 * request counts once per JSON-RPC message it carries (`weight`).
 */
export async function withRateLimit<T>(
  limiter: RateLimiter,
  ctx: Context,
  keyId: string,
  run: () => Promise<T>,
  weight = 1,
): Promise<T> {
  const decision = await limiter.acquire(keyId, Date.now(), weight);
  setHeaders(ctx, limiter, decision);
  if (!decision.allowed) {
    ctx.set('Retry-After', String(decision.retryAfter));
    throw new AppError(
      'rate.limited',
      decision.reason === 'concurrency'
        ? `More than ${limiter.concurrent} concurrent requests for this key.`
        : `More than ${limiter.perMinute} requests in 60 seconds for this key.`,
      {
        hint: `Retry after ${decision.retryAfter} s; keep at most ${limiter.concurrent} requests in flight per key.`,
        details: { retry_after: decision.retryAfter },
      },
    );
  }
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    void limiter.releaseSlot(keyId);
  };
  // The response's close fires on finish and on a dropped connection alike.
  ctx.res.once('close', release);
  try {
    return await run();
  } finally {
    release();
  }
}

function setHeaders(ctx: Context, limiter: RateLimiter, d: RateDecision): void {
  ctx.set('RateLimit-Policy', `"default";q=${limiter.perMinute};w=60`);
  ctx.set('RateLimit', `"default";r=${d.remaining};t=${d.resetSeconds}`);
}
