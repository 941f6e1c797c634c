import type { Context, Middleware } from 'koa';
import type { Account, ApiKeyRecord } from '../../domain/account.js';
import { OPERATIONS } from '../../operations/index.js';
import { requestLogOf, UNLOGGED_OPERATIONS } from '../../operations/requests/recorder.js';
import type { Services } from '../../operations/types.js';
import { onAnswer } from '../middleware/on-answer.js';

const BY_NAME = new Map(OPERATIONS.map((op) => [op.name, op]));

/**
 * Adds an entry to the account's request log for every answered request of a keyed operation over REST or the
 * console (MCP tool calls are logged one by one where they run: mcp/call-tool.ts). Only what the answer was: the
 * operation's route template, status, error code, credits, time, request id and the key's prefix. Never the query
 * string, a body or contact data. It sits outside the error handler, so it sees the status and code the client got.
 */
export function accountRequestLog(services: Services): Middleware {
  const recorder = requestLogOf(services);
  return onAnswer((ctx: Context, status: number, ms: number) => {
    const name = ctx.state.operation;
    const account = ctx.state.account as Account | undefined;
    if (typeof name !== 'string' || !account || UNLOGGED_OPERATIONS.has(name)) return;
    const op = BY_NAME.get(name);
    if (!op) return;
    const key = ctx.state.apiKey as ApiKeyRecord | undefined;
    const client = ctx.state.oauthClient as { id: string; name: string | null } | undefined;
    const error = status >= 400 ? (ctx.body as { error?: { code?: unknown } } | undefined)?.error : undefined;
    recorder.record({
      requestId: String(ctx.state.requestId ?? ''),
      accountId: account.id,
      at: services.clock.now().toISOString(),
      face: ctx.path.startsWith('/app/') ? 'console' : 'rest',
      method: op.method,
      route: op.path,
      operation: op.name,
      status,
      errorCode: typeof error?.code === 'string' ? error.code : status >= 500 ? 'internal.error' : null,
      credits: typeof ctx.state.spent === 'number' ? ctx.state.spent : 0,
      durationMs: Math.round(ms * 10) / 10,
      keyPrefix: key?.prefix ?? null,
      client: client ? (client.name ?? client.id) : null,
    });
  });
}
