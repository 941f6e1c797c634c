import { Router } from '@koa/router';
import type { Context } from 'koa';
import type { Account, ApiKeyRecord } from '../domain/account.js';
import { answerJson, holdsJsonRows } from '../domain/json-rows.js';
import { authenticateKey, authenticateOperator, credentialOf } from '../face/auth.js';
import { withRateLimit } from '../face/rate-limit.js';
import { buildLabel, invokeOperation } from '../operations/invoke.js';
import { type Settlement, settleWithResponse } from '../operations/settlement.js';
import type { Operation, Services } from '../operations/types.js';
import { successEnvelope } from './envelope.js';
import { type Rendered, withIdempotency } from './idempotency.js';

/** Builds the REST routes of both families from the operation table; no route is written by hand. */
export function buildRestRouter(services: Services, operations: readonly Operation[]): Router {
  const router = new Router();
  for (const op of operations) {
    const paths = [op.path, ...(op.aliases ?? [])];
    const method = op.method.toLowerCase() as 'get' | 'post' | 'delete' | 'patch';
    for (const path of paths) router[method](path, (ctx) => runRest(services, op, ctx));
  }
  return router;
}

async function runRest(services: Services, op: Operation, ctx: Context): Promise<void> {
  ctx.state.buildLabel = buildLabel(services);
  // The metrics' route label (http/metrics.ts): the operation, never the path with its ids.
  ctx.state.operation = op.name;
  let account: Account | undefined;
  let key: ApiKeyRecord | undefined;
  if (op.auth === 'key' || (op.auth === 'optional' && credentialOf(ctx, op.family))) {
    ({ account, key } = await authenticateKey(services, ctx, op.family));
    ctx.state.account = account;
  } else if (op.auth === 'operator') {
    await authenticateOperator(services, ctx);
  }
  const source: unknown = op.method === 'GET' || op.method === 'DELETE' ? { ...ctx.query } : (ctx.state.body ?? {});
  const input =
    source && typeof source === 'object' && !Array.isArray(source)
      ? { ...(source as Record<string, unknown>), ...ctx.params }
      : source;
  await answerOperation(services, op, ctx, { account, key }, input);
}

/** Who calls: the account and key a face resolved (an API key; the console's session), or nobody. */
export interface Caller {
  account: Account | undefined;
  key: ApiKeyRecord | undefined;
  /** The rate-limit identity when there is no key (the console's session after its key was revoked). */
  limitId?: string;
}

/**
 * Runs an authenticated operation and writes its answer as REST does: the caller's rate limits, Idempotency-Key,
 * the family's envelope and the settlement of charges once the answer is written. The web console answers through
 * this too, so credits, limits and errors are those of the API.
 */
export async function answerOperation(
  services: Services,
  op: Operation,
  ctx: Context,
  caller: Caller,
  input: unknown,
): Promise<void> {
  const { account, key } = caller;
  ctx.state.buildLabel = buildLabel(services);
  ctx.state.operation = op.name;
  if (account) ctx.state.account = account;
  // The request log names the key by its prefix.
  if (key) ctx.state.apiKey = key;
  const limitId = key?.id ?? caller.limitId;
  const settlements: Settlement[] = [];
  const render = async (): Promise<Rendered> => {
    const {
      ctx: opCtx,
      result,
      quota,
    } = await invokeOperation(services, op, {
      requestId: ctx.state.requestId as string,
      account,
      key,
      input,
      deferSettlement: true,
    });
    settlements.push(opCtx.settlement);
    ctx.state.spent = opCtx.spent;
    if (op.family === 'B')
      return {
        status: result.status ?? 200,
        body: { ok: true, request_id: opCtx.requestId, release: opCtx.buildLabel, ...(result.body ?? {}) },
      };
    const envelope = successEnvelope({
      requestId: opCtx.requestId,
      buildLabel: opCtx.buildLabel,
      data: result.data,
      ...(result.page ? { page: result.page } : {}),
      quota: quota as never,
      warnings: result.warnings ?? [],
    });
    // Routes that need no key (health) carry no quota when no key was sent: there is no account to describe.
    if (!quota) delete envelope.quota;
    return { status: result.status ?? 200, body: envelope };
  };
  // Every route that took a key counts against that key's limits; keyless calls (health) do not.
  let out: Rendered;
  try {
    out =
      account && limitId
        ? await withRateLimit(services.rateLimiter, ctx, limitId, () =>
            withIdempotency(services, ctx, op, account!.id, input, render),
          )
        : await render();
  } catch (e) {
    // An answer made but not sent (a failure after the operation): its holds are released, never left pending.
    await Promise.all(settlements.map((s) => s.undelivered()));
    throw e;
  }
  // Charged when the answer is written out; a client gone before that pays nothing, and its Idempotency-Key is
  // forgotten so that a retry runs (and pays) again rather than replaying an answer nobody paid for.
  const idempotencyKey = ctx.get('Idempotency-Key');
  settleWithResponse(ctx.res, settlements, () => {
    if (account && idempotencyKey && !ctx.response.get('Idempotent-Replayed'))
      services.state
        .abandonIdempotent(account.id, idempotencyKey)
        .catch((err: unknown) => services.logger.warn({ err }, 'could not forget an undelivered Idempotency-Key'));
  });
  if (services.config.testAnswerDelayMs > 0) await new Promise((r) => setTimeout(r, services.config.testAnswerDelayMs));
  ctx.status = out.status;
  if (holdsJsonRows(out.body)) {
    // Rows that are JSON text already are written as they are (the same JSON koa would write).
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = answerJson(out.body);
  } else ctx.body = out.body;
}
