import * as v from 'valibot';
import type { Account, ApiKeyRecord } from '../domain/account.js';
import { AppError, isAppError } from '../domain/errors/index.js';
import { plainRows } from '../domain/json-rows.js';
import { asSettled, type Quota, quotaBlock } from '../domain/quota/index.js';
import { contactAvailable, contactQuote, QuoteReady, quoteBody, quoteOutput } from './dry-run.js';
import { errorCodesOf } from './error-codes.js';
import { refuseReservedKeys, refuseUnknownMembers } from './input-members.js';
import { parseInput } from './schemas.js';
import { Settlement } from './settlement.js';
import type { OpContext, Operation, OpResult, Services } from './types.js';

/**
 * The build label of every answer (JSON member `release`): the build and the data release that served it,
 * `<version>+<release id>` (ARCHITECTURE rule 7). In code, "release" alone means a data release.
 */
export function buildLabel(services: Services, releaseId: string | undefined = services.engine.release()?.id): string {
  return `${services.build.version}+${releaseId ?? 'no-data'}`;
}

export interface Invocation {
  requestId: string;
  account?: Account;
  key?: ApiKeyRecord;
  /** Raw input: merged path params and query string or body (REST), or tool arguments (MCP). */
  input: unknown;
  face?: 'rest' | 'mcp';
  /**
   * The face settles the charges once its answer is written (settleWithResponse); without it they are settled as
   * delivered when the operation returns.
   */
  deferSettlement?: boolean;
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
  const ctx: OpContext = {
    services,
    requestId: inv.requestId,
    now,
    buildLabel: buildLabel(services),
    spent: 0,
    face: inv.face ?? 'rest',
    settlement: new Settlement(),
    dryRun: false,
  };
  if (inv.account) ctx.account = inv.account;
  if (inv.key) ctx.key = inv.key;
  if (op.spends && inv.account?.status === 'suspended') {
    throw new AppError(
      'account.suspended',
      'The account is suspended; spending calls are refused until a payment succeeds.',
      {
        hint: 'Reads that spend nothing keep working. Contact billing to resume the account.',
      },
    );
  }
  const raw = inv.input ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new AppError('request.invalid', 'The body must be a JSON object.', { hint: 'Send one JSON object.' });
  }
  refuseReservedKeys(op, raw);
  refuseUnknownMembers(op, raw);
  const input = parseInput(op.input, raw);
  ctx.dryRun = op.spends && (input as { dry_run?: unknown }).dry_run === true;
  const run = () => (ctx.dryRun ? quoted(ctx, op, input) : op.handler(ctx, input));
  let result: OpResult;
  try {
    result = services.config.checkContracts ? await checked(op, run, ctx.dryRun) : await run();
  } catch (e) {
    await ctx.settlement.undelivered();
    throw e;
  }
  if (!inv.deferSettlement) await ctx.settlement.delivered();
  // The answer is made and its charges are pending: the quota block is best effort from here on. A store that
  // cannot be read just now leaves the block out rather than failing an answer that is already paid for.
  const quota = inv.account
    ? await services.state.snapshot(inv.account.id, now).then(
        (snap) => quotaBlock(asSettled(snap, ctx.settlement.charges()), now, ctx.spent),
        (err: unknown) => {
          services.logger.warn({ err }, 'quota block left out: the state store did not answer');
          return undefined;
        },
      )
    : undefined;
  return { ctx, result, ...(quota ? { quota } : {}) };
}

/**
 * CDS_CHECK_CONTRACTS=1 (the test suite): an operation's answer must match its declared `output`, and an error
 * it raises must be one errorCodesOf lists. A mismatch is a programming error: it fails loudly (500).
 */
/** A dry run: the handler runs until it would move credits, and the answer is the quote it recorded. */
async function quoted(ctx: OpContext, op: Operation, input: unknown): Promise<OpResult> {
  let warnings: OpResult['warnings'];
  try {
    warnings = (await op.handler(ctx, input)).warnings;
  } catch (e) {
    if (!(e instanceof QuoteReady)) throw e;
  }
  // Nothing to pay (no matches, nothing found): a quote of nothing.
  const quote = ctx.quote ?? contactQuote(await contactAvailable(ctx, 'search'), 0, 0, 'up_to');
  const body = quoteBody(quote);
  return op.family === 'B' ? { body } : { data: body, ...(warnings ? { warnings } : {}) };
}

async function checked(op: Operation, run: () => Promise<OpResult>, dryRun = false): Promise<OpResult> {
  let result: OpResult;
  try {
    result = await run();
  } catch (e) {
    if (isAppError(e) && !errorCodesOf(op).includes(e.code)) {
      throw new Error(`operation ${op.name} raised ${e.code}, which it does not declare (errors)`);
    }
    throw e;
  }
  const answer = op.family === 'B' ? result.body : plainRows(result.data);
  const parsed = v.safeParse(dryRun ? quoteOutput : op.output, answer);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '(root)';
    throw new Error(`operation ${op.name} answered outside its output schema at ${path}: ${issue.message}`);
  }
  return result;
}
