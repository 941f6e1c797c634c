import type { Context } from 'koa';
import { AppError, isAppError } from '../../domain/errors/index.js';
import { OPERATIONS } from '../../operations/index.js';
import { invokeOperation } from '../../operations/invoke.js';
import type { Operation, Services } from '../../operations/types.js';
import type { ConsoleCaller } from './session.js';

/**
 * The operations the console may call, by name: the same table entries REST and MCP run (no rule is written twice).
 * Operator routes and family B are left out: the console acts for one account holder, with family A's answers.
 */
export const CONSOLE_OPERATION_NAMES = [
  'account.get',
  'credits.get',
  'contacts.schema',
  'contacts.values',
  'contacts.count',
  'contacts.search',
  'companies.schema',
  'companies.values',
  'companies.count',
  'companies.search',
  'enrichments.create',
  'audiences.create',
  'audiences.list',
  'audiences.get',
  'audiences.update',
  'audiences.delete',
  'audiences.count',
  'enrichment_uploads.create',
  'enrichment_runs.list',
  'enrichment_runs.get',
  'requests.list',
  'requests.get',
  'exports.create',
  'exports.get',
  'keys.list',
  'keys.create',
  'keys.revoke',
  'signals.collect.get',
  'signals.alerts.list',
  'webhooks.list',
  'webhooks.create',
  'webhooks.update',
  'webhooks.delete',
  'webhooks.test',
  'webhooks.deliveries',
  'webhooks.replay',
] as const;

/** What a session that revoked its own key may still do: look at the account and create the next key. */
export const KEYLESS_OPERATION_NAMES: readonly string[] = ['account.get', 'credits.get', 'keys.list', 'keys.create'];

const BY_NAME = new Map<string, Operation>(
  OPERATIONS.filter((op) => (CONSOLE_OPERATION_NAMES as readonly string[]).includes(op.name)).map((op) => [
    op.name,
    op,
  ]),
);

export function consoleOperation(name: string): Operation | undefined {
  return BY_NAME.get(name);
}

export function requireOperation(name: (typeof CONSOLE_OPERATION_NAMES)[number]): Operation {
  const op = BY_NAME.get(name);
  if (!op) throw new Error(`operation ${name} is not in the table`);
  return op;
}

/**
 * Runs a free read for a console list (one operation per listed item, inside the list request's own rate-limit
 * slot): the operation's `data`, or the AppError it raised (an expired export, for example).
 */
export async function readFor(
  services: Services,
  ctx: Context,
  caller: ConsoleCaller,
  op: Operation,
  input: Record<string, unknown>,
): Promise<{ data: unknown } | { error: AppError }> {
  if (op.spends) throw new Error(`readFor runs free reads only, not ${op.name}`);
  try {
    const { result } = await invokeOperation(services, op, {
      requestId: ctx.state.requestId as string,
      account: caller.account,
      ...(caller.key ? { key: caller.key } : {}),
      input,
    });
    return { data: result.data };
  } catch (e) {
    if (isAppError(e)) return { error: e };
    throw e;
  }
}

export const keylessRefusal = (): AppError =>
  new AppError('auth.invalid_key', 'This session revoked its key: create a new key to go on.', {
    hint: 'Open Integrations and create a key; the session moves to it.',
    details: { session: 'keyless' },
  });
