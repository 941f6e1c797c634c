import { AppError } from '../domain/errors/index.js';
import { quotaBlock, type Quota } from '../domain/quota/index.js';
import type { Account, ApiKeyRecord } from '../state/port.js';
import { parseInput } from './schemas.js';
import type { OpContext, OpResult, Operation, Services } from './types.js';

/** `release` of every answer: the build and the data release it served (ARCHITECTURE rule 7). */
export function releaseName(services: Services): string {
  return `${services.build.version}+${services.engine.release()?.id ?? 'no-data'}`;
}

export interface Invocation {
  requestId: string;
  account?: Account;
  key?: ApiKeyRecord;
  /** Raw input: merged path params and query string or body (REST), or tool arguments (MCP). */
  input: unknown;
  face?: 'rest' | 'mcp';
}

export interface InvocationResult {
  ctx: OpContext;
  result: OpResult;
  /** The quota block after the call, when an account is known. */
  quota?: Quota;
}

/**
 * Runs one operation for REST and MCP alike: suspension check, input validation, handler, quota. The
 * caller authenticates first (credentials differ by face) and renders the result for its face.
 */
export async function invokeOperation(services: Services, op: Operation, inv: Invocation): Promise<InvocationResult> {
  const now = services.clock.now();
  const ctx: OpContext = { services, requestId: inv.requestId, now, release: releaseName(services), spent: 0, face: inv.face ?? 'rest' };
  if (inv.account) ctx.account = inv.account;
  if (inv.key) ctx.key = inv.key;
  if (op.spends && inv.account?.status === 'suspended') {
    throw new AppError('account.suspended', 'The account is suspended; spending calls are refused until a payment succeeds.', {
      hint: 'Reads that spend nothing keep working. Contact billing to resume the account.',
    });
  }
  const raw = inv.input ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AppError('request.invalid', 'The body must be a JSON object.', { hint: 'Send one JSON object.' });
  }
  const input = parseInput(op.input, raw);
  const result = await op.handler(ctx, input);
  const quota = inv.account ? quotaBlock(services.state.snapshot(inv.account.id, now), now, ctx.spent) : undefined;
  return { ctx, result, ...(quota ? { quota } : {}) };
}
