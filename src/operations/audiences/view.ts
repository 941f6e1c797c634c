import type { Audience } from '../../domain/audiences/store.js';
import { AppError } from '../../domain/errors/index.js';
import * as out from '../outputs.js';
import type { OpContext } from '../types.js';

/** How many audiences an account may save. */
export const AUDIENCES_MAX = 200;

const point = out.obj({ release: out.str, count: out.num, counted_at: out.str });

/** An audience as the API answers it. */
export const audienceOutput = out.obj({
  id: out.str,
  name: out.str,
  description: out.nullable(out.str),
  filter: out.obj({}),
  created_at: out.str,
  updated_at: out.str,
  last_count: out.nullable(point),
  history: out.list(point),
});

export function audienceView(a: Audience) {
  const history = a.history.map((p) => ({ release: p.release, count: p.count, counted_at: p.countedAt }));
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    filter: a.filter,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    last_count: history[history.length - 1] ?? null,
    history,
  };
}

export function audienceNotFound(field = 'id'): AppError {
  return new AppError('audience.not_found', 'Unknown audience id.', {
    field,
    hint: 'GET /v1/audiences lists the audiences saved on this account (MCP: list_audiences).',
  });
}

/** This account's audience, or 404 audience.not_found (an unknown id and another account's id alike). */
export async function loadAudience(ctx: OpContext, id: string, field = 'id'): Promise<Audience> {
  const a = await ctx.services.state.getAudience(ctx.account!.id, id);
  if (!a) throw audienceNotFound(field);
  return a;
}

/**
 * Records a count of the audience on the serving release (one point per release, the latest count wins). A count
 * that could not be made (null: past its time budget) is not recorded; a failure to record is logged, never the
 * count's failure.
 */
export async function recordAudienceCount(
  ctx: OpContext,
  a: Audience,
  count: number | null,
): Promise<Audience | undefined> {
  const release = ctx.services.engine.release()?.id;
  if (count === null || !release || ctx.dryRun) return undefined;
  try {
    return await ctx.services.state.recordAudienceCount(a.accountId, a.id, a.filterVersion, {
      release,
      count,
      countedAt: ctx.now.toISOString(),
    });
  } catch (err) {
    ctx.services.logger.warn({ err, audience: a.id }, 'could not record an audience count');
    return undefined;
  }
}

/**
 * `filter` or `audience_id` (family A count, search, export): exactly one of them; the audience's saved filter is
 * used as if it had been sent. Neither: `filter` is required (or `fallback` when the operation has a default).
 */
export async function filterOrAudience(
  ctx: OpContext,
  input: { filter?: Record<string, unknown> | undefined; audience_id?: string | undefined },
  fallback?: Record<string, unknown>,
): Promise<{ filter: Record<string, unknown>; audience: Audience | undefined }> {
  if (input.filter !== undefined && input.audience_id !== undefined)
    throw new AppError('request.invalid', 'Send either filter or audience_id, not both.', {
      field: 'audience_id',
      hint: "audience_id uses the saved audience's filter; to change it, PATCH /v1/audiences/{id} or send a filter alone.",
    });
  if (input.audience_id !== undefined) {
    const audience = await loadAudience(ctx, input.audience_id, 'audience_id');
    return { filter: audience.filter, audience };
  }
  if (input.filter !== undefined) return { filter: input.filter, audience: undefined };
  if (fallback !== undefined) return { filter: fallback, audience: undefined };
  throw new AppError('request.invalid', 'filter is required.', {
    field: 'filter',
    hint: 'Send "filter": {} to match every row, filter keys to narrow it, or "audience_id" of a saved audience.',
  });
}
