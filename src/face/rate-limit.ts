import type { Context } from 'koa';
import { AppError } from '../domain/errors/index.js';
import type { RateDecision, RateLimiter } from '../state/rate-limiter.js';

/**
 * Applies the per-key limits to one HTTP request (REST or MCP) and sets the IETF draft headers on every
 * response that carries a key: `RateLimit-Policy: "default";q=300;w=60` and `RateLimit: "default";r=R;t=T`
 * (remaining R in the window, T seconds until a slot frees). A refusal is 429 rate.limited with Retry-After.
 * The in-flight slot is held until the answer is written out (or the client disconnects), success or error alike,
 * and released exactly once: a request is in flight until its answer has left. An MCP request counts once per
 * JSON-RPC message it carries (`weight`).
 */
export async function withRateLimit<T>(
  limiter: RateLimiter,
  ctx: Context,
  keyId: string,
  run: () => Promise<T>,
  weight = 1,
): Promise<T> {
  await acquireSlot(limiter, ctx, keyId, {
    subject: 'for this key',
    weight,
    headers: true,
    hint: (retry) => `Retry after ${retry} s; keep at most ${limiter.concurrent} requests in flight per key.`,
  });
  return run();
}

/**
 * Takes one request's place under `limiter` for `key`, or throws 429 rate.limited with Retry-After ("More than N
 * requests in 60 seconds <subject>"); the slot is freed with the response (releaseWithResponse, whose release it
 * answers). `headers` also sets the RateLimit headers. The per-key limit and the OAuth endpoints' per-address limit
 * both come through here.
 */
export async function acquireSlot(
  limiter: RateLimiter,
  ctx: Context,
  key: string,
  o: { subject: string; weight?: number; headers?: boolean; hint?: (retryAfter: number) => string },
): Promise<() => void> {
  const decision = await limiter.acquire(key, Date.now(), o.weight ?? 1);
  if (o.headers) setHeaders(ctx, limiter, decision);
  if (!decision.allowed) {
    ctx.set('Retry-After', String(decision.retryAfter));
    // The metrics count 429s by reason (http/metrics.ts).
    ctx.state.rateLimited = decision.reason ?? 'rate';
    throw new AppError(
      'rate.limited',
      decision.reason === 'concurrency'
        ? `More than ${limiter.concurrent} concurrent requests ${o.subject}.`
        : `More than ${limiter.perMinute} requests in 60 seconds ${o.subject}.`,
      {
        hint: o.hint?.(decision.retryAfter) ?? `Retry after ${decision.retryAfter} s.`,
        details: { retry_after: decision.retryAfter },
      },
    );
  }
  return releaseWithResponse(ctx, limiter, key, decision.slot);
}

/**
 * Frees a concurrency slot once, when the response closes (the answer or the error envelope written, or the
 * connection dropped); returns the release for callers that know earlier that the response is done.
 */
export function releaseWithResponse(ctx: Context, limiter: RateLimiter, key: string, slot: RateDecision['slot']) {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    // Nobody awaits the release; a failed one (Redis unreachable) is freed by the slot's lease instead.
    limiter.releaseSlot(key, slot).catch(() => {});
  };
  if (ctx.res.writableFinished || ctx.res.destroyed) release();
  else ctx.res.once('close', release);
  return release;
}

function setHeaders(ctx: Context, limiter: RateLimiter, d: RateDecision): void {
  ctx.set('RateLimit-Policy', `"default";q=${limiter.perMinute};w=60`);
  ctx.set('RateLimit', `"default";r=${d.remaining};t=${d.resetSeconds}`);
}
