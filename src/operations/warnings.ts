import { FAR_FUTURE } from '../domain/quota/index.js';
import { creditsCutResetsAt } from './credits-cut.js';
import type { OpContext, Warning } from './types.js';

/** `no_rows`: names the keys applied and asks for one to be removed. */
export function noRowsWarning(keysApplied: readonly string[]): Warning {
  const last = keysApplied[keysApplied.length - 1];
  return {
    code: 'no_rows',
    message: 'No rows match the filter.',
    hint:
      keysApplied.length > 0
        ? `Remove a key to widen the audience, for example ${last}.`
        : 'The data release holds no rows.',
    keys_applied: [...keysApplied],
  };
}

export function countUnavailableWarning(budgetMs: number): Warning {
  return {
    code: 'count_unavailable',
    message: `The count did not finish inside its ${budgetMs / 1000} second budget.`,
    hint: 'Narrow the filter, or retry: a repeated count is often faster.',
  };
}

/**
 * `page_truncated` (a warning code this service adds; the spec's `export_truncated` for a page): a search page holds
 * fewer rows than its limit because the contact credits left (one per row) cut it while more rows match. The message
 * names the rows returned, the rows asked for and the credits that were left (the answer's page block or body
 * carries `returned` and `limit` as numbers); `resets_at` is when the cap that cut it resets, as on
 * `export_truncated` (the far-future timestamp on the free plan, whose pool is then spent); the hint says how to go
 * on. `continueWith` names the paging member (page.next_cursor, next_offset).
 */
export async function pageTruncatedWarning(
  ctx: OpContext,
  p: { returned: number; limit: number; granted: number; continueWith: string },
): Promise<Warning> {
  const snap = ctx.account
    ? await ctx.services.state.snapshot(ctx.account.id, ctx.now).catch((err: unknown) => {
        ctx.services.logger.warn({ err }, 'page_truncated warning without resets_at: the state store did not answer');
        return undefined;
      })
    : undefined;
  const resetsAt = snap ? creditsCutResetsAt(snap, p.granted, p.limit, 'search') : undefined;
  const pool = resetsAt === FAR_FUTURE;
  return {
    code: 'page_truncated',
    message:
      `The page holds ${p.returned} of the ${p.limit} rows asked for: only ${p.granted} contact credits were ` +
      `left${pool ? " in the free plan's lifetime pool, which is now spent" : ''}.`,
    hint: pool
      ? 'The free pool is spent and never resets; move to a paid plan to read more rows.'
      : resetsAt
        ? `The cap resets at ${resetsAt}; continue with ${p.continueWith} after that, or ask for a smaller limit.`
        : `Continue with ${p.continueWith} once credits are left; GET /v1/credits shows when each cap resets.`,
    ...(resetsAt ? { resets_at: resetsAt } : {}),
  };
}
