import { Router } from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../domain/errors/index.js';
import { quotaBlock } from '../domain/quota/index.js';
import { parseInput } from '../operations/schemas.js';
import type { OpContext, Operation, Services } from '../operations/types.js';
import { authenticateKey, authenticateOperator, credentialOf } from './auth.js';
import { successEnvelope } from './envelope.js';

/** `release` of every response: the build and the data release it served (ARCHITECTURE rule 7). */
export function releaseName(services: Services): string {
  return `${services.build.version}+${services.engine.release()?.id ?? 'no-data'}`;
}

/** Builds the REST routes of both families from the operation table; no route is written by hand. */
export function buildRestRouter(services: Services, operations: readonly Operation[]): Router {
  const router = new Router();
  for (const op of operations) {
    const paths = [op.path, ...(op.aliases ?? [])];
    const method = op.method.toLowerCase() as 'get' | 'post' | 'delete' | 'patch';
    for (const path of paths) router[method](path, (ctx) => runOperation(services, op, ctx));
  }
  return router;
}

async function runOperation(services: Services, op: Operation, ctx: Context): Promise<void> {
  const now = services.clock.now();
  const opCtx: OpContext = { services, requestId: ctx.state.requestId as string, now, release: releaseName(services), spent: 0 };
  ctx.state.release = opCtx.release;
  ctx.state.opCtx = opCtx;

  if (op.auth === 'key' || (op.auth === 'optional' && credentialOf(ctx, op.family))) {
    const { account, key } = authenticateKey(services, ctx, op.family);
    opCtx.account = account;
    opCtx.key = key;
    ctx.state.account = account;
    if (op.spends && account.status === 'suspended') {
      throw new AppError('account.suspended', 'The account is suspended; spending calls are refused until a payment succeeds.', {
        hint: 'Reads that spend nothing keep working. Contact billing to resume the account.',
      });
    }
  } else if (op.auth === 'operator') {
    authenticateOperator(services, ctx);
  }

  const source: unknown = op.method === 'GET' || op.method === 'DELETE' ? { ...ctx.query } : (ctx.state.body ?? {});
  if (typeof source !== 'object' || source === null || Array.isArray(source)) {
    throw new AppError('request.invalid', 'The body must be a JSON object.', { hint: 'Send one JSON object.' });
  }
  const input = parseInput(op.input, { ...(source as Record<string, unknown>), ...ctx.params });
  const result = await op.handler(opCtx, input);

  ctx.status = result.status ?? 200;
  ctx.state.spent = opCtx.spent;
  if (op.family === 'B') {
    ctx.body = { ok: true, request_id: opCtx.requestId, release: opCtx.release, ...(result.body ?? {}) };
    return;
  }
  const quota = opCtx.account ? quotaBlock(services.state.snapshot(opCtx.account.id, now), now, opCtx.spent) : undefined;
  const envelope = successEnvelope({
    requestId: opCtx.requestId,
    release: opCtx.release,
    data: result.data,
    ...(result.page ? { page: result.page } : {}),
    quota: quota as never,
    warnings: result.warnings ?? [],
  });
  // Routes that need no key (health) carry no quota when no key was sent: there is no account to describe.
  if (!quota) delete envelope.quota;
  ctx.body = envelope;
}
