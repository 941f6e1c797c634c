import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import { canonicalJson } from '../domain/cursor.js';
import { AppError } from '../domain/errors/index.js';
import type { Operation, Services } from '../operations/types.js';

/**
 * How long a running Idempotency-Key record holds its key: well past the longest a request may run (three search
 * budgets, at least a minute), so only a record whose process died is ever taken over.
 */
export function idempotencyLeaseMs(services: Services): number {
  return Math.max(60_000, 3 * services.config.searchBudgetMs, 3 * services.config.countBudgetMs);
}

/** What a retry must repeat exactly to be the same request: the operation and its input, canonical JSON. */
export function requestHash(op: Operation, input: unknown): string {
  return createHash('sha256')
    .update(`${op.name}:${canonicalJson(input)}`)
    .digest('hex');
}

export interface Rendered {
  status: number;
  body: Record<string, unknown>;
}

const KEY_RE = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on spending POSTs: a retry with the same key and body within 24 hours gets the first
 * answer again (header `Idempotent-Replayed: true`) and spends nothing; the same key with another body
 * answers 409 idempotency.mismatch; while the first is still running, 409 idempotency.in_progress.
 * Only successful answers are kept: a failed call spent nothing, so its retry runs again.
 */
export async function withIdempotency(
  services: Services,
  ctx: Context,
  op: Operation,
  accountId: string,
  input: unknown,
  run: () => Promise<Rendered>,
): Promise<Rendered> {
  const key = ctx.get('Idempotency-Key');
  if (!key || !op.spends || op.method !== 'POST') return run();
  if (!KEY_RE.test(key)) {
    throw new AppError('request.invalid', 'Idempotency-Key must be 1 to 255 visible ASCII characters.', {
      field: 'header.Idempotency-Key',
      hint: 'Send a UUID, for example.',
    });
  }
  const hash = requestHash(op, input);
  const state = services.state;
  const begun = await state.beginIdempotent(accountId, key, hash, services.clock.now(), idempotencyLeaseMs(services));
  if (begun.state === 'mismatch') {
    throw new AppError('idempotency.mismatch', 'This Idempotency-Key was already used with another request body.', {
      field: 'header.Idempotency-Key',
      hint: 'Use a new key for a new request; keys are kept 24 hours.',
    });
  }
  if (begun.state === 'running') {
    throw new AppError('idempotency.in_progress', 'The first request with this Idempotency-Key is still running.', {
      field: 'header.Idempotency-Key',
      hint: 'Retry in a few seconds to receive its answer.',
    });
  }
  if (begun.state === 'replay') {
    ctx.set('Idempotent-Replayed', 'true');
    return { status: begun.status, body: begun.body as Record<string, unknown> };
  }
  let out: Rendered;
  try {
    out = await run();
  } catch (e) {
    // The first error is the answer; a key left running is claimed again once its lease passes.
    await state.abandonIdempotent(accountId, key).catch(() => undefined);
    throw e;
  }
  // The call is done and paid for: its answer goes out even if the record cannot be saved now (the key is then
  // claimed again after its lease, and the caller, holding this answer, has no reason to retry).
  await state
    .finishIdempotent(accountId, key, out.status, out.body)
    .catch((err: unknown) => services.logger.warn({ err, key }, 'could not save an idempotent answer'));
  return out;
}
