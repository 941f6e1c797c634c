import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Account, ApiKeyRecord } from '../domain/account.js';
import { AppError, isAppError } from '../domain/errors/index.js';
import { newId } from '../domain/ids.js';
import { invokeOperation } from '../operations/invoke.js';
import { recordToolCall } from '../operations/requests/recorder.js';
import type { Settlement } from '../operations/settlement.js';
import type { Services } from '../operations/types.js';
import { columnName, labelPayload } from './labels.js';
import type { ToolEntry } from './tools.js';

export interface Caller {
  account: Account;
  key: ApiKeyRecord;
  /** Set when the caller came through OAuth (the request log names it). */
  oauthClient?: { id: string; name: string | null };
}

/**
 * Runs one tool call through the operation it was generated from, exactly as REST runs it (same
 * invokeOperation, same credits; the per-key rate limit counted the message that carried it). A failure becomes a tool result with
 * `isError: true` carrying the REST error body; protocol errors stay for protocol faults.
 */
export async function callTool(
  services: Services,
  entry: ToolEntry,
  args: Record<string, unknown>,
  caller: Caller,
  /** Takes the call's pending charges, settled with the /mcp response (settleWithResponse's `add`). */
  settle: (s: Settlement) => void,
): Promise<CallToolResult> {
  const requestId = newId('request');
  const startedMs = performance.now();
  const logged = {
    accountId: caller.account.id,
    tool: entry.tool.name,
    operation: entry.op.name,
    requestId,
    startedMs,
  };
  const who = { keyPrefix: caller.key.prefix, client: caller.oauthClient };
  try {
    const input = toolInput(entry, args);
    // The per-key limits were applied to the whole /mcp request, once per JSON-RPC message (endpoint.ts); the
    // charges are settled with that request's response.
    const { ctx, result, quota } = await invokeOperation(services, entry.op, {
      requestId,
      account: caller.account,
      key: caller.key,
      input,
      face: 'mcp',
      deferSettlement: true,
    });
    settle(ctx.settlement);
    recordToolCall(services, { ...logged, ...who, status: 200, errorCode: null, credits: ctx.spent });
    const payload: Record<string, unknown> =
      entry.op.family === 'B'
        ? { ...(result.body ?? {}) }
        : {
            data: result.data,
            ...(result.page ? { page: result.page } : {}),
            warnings: result.warnings ?? [],
            ...(quota ? { quota } : {}),
          };
    const shown = labelPayload(payload) as Record<string, unknown>;
    return {
      content: [{ type: 'text', text: JSON.stringify(shown) }],
      structuredContent: shown,
      _meta: { request_id: requestId, release: ctx.buildLabel },
    };
  } catch (err) {
    const appErr = isAppError(err) ? err : unexpected(services, err, requestId, entry);
    const body = appErr.toBody() as unknown as Record<string, unknown>;
    recordToolCall(services, { ...logged, ...who, status: appErr.status, errorCode: appErr.code, credits: 0 });
    return {
      isError: true,
      content: [{ type: 'text', text: JSON.stringify(body) }],
      structuredContent: body,
      _meta: { request_id: requestId },
    };
  }
}

/**
 * Tool arguments as the operation's input: `columns` labels read as names. The row cap is the operation's
 * (operations/limits.ts rowsPerCall), so a `limit` above it is answered with the cap's rows, not refused.
 */
export function toolInput(entry: ToolEntry, args: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...args };
  if (Array.isArray(input.columns))
    input.columns = input.columns.map((c) => (typeof c === 'string' ? columnName(entry.entity, c) : c));
  return input;
}

function unexpected(services: Services, err: unknown, requestId: string, entry: ToolEntry): AppError {
  services.logger.error({ err, requestId, tool: entry.tool.name }, 'unexpected error in MCP tool');
  return new AppError('internal.error');
}
