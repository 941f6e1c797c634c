import * as v from 'valibot';
import { sortNewestFirst } from '../../domain/audiences/store.js';
import { AppError } from '../../domain/errors/index.js';
import { parseContactFilter } from '../../domain/query/index.js';
import { filterMember } from '../contacts/inputs.js';
import { engineFor } from '../engine-for.js';
import { listCursorMember, listLimitMember, pageOf } from '../list-paging.js';
import * as out from '../outputs.js';
import { defineOperation, type Warning } from '../types.js';
import { countUnavailableWarning, noRowsWarning } from '../warnings.js';
import {
  AUDIENCES_MAX,
  audienceNotFound,
  audienceOutput,
  audienceView,
  loadAudience,
  recordAudienceCount,
} from './view.js';

const READ = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };

const idMember = v.pipe(
  v.string('must be a string'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.description('The audience id (aud_…).'),
);
const nameMember = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(100, 'must be at most 100 characters'),
  v.description('A name for people: 1 to 100 characters (names need not be unique).'),
);
const descriptionMember = v.nullable(
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.maxLength(1000, 'must be at most 1000 characters'),
    v.description('Optional notes, up to 1,000 characters; null clears them.'),
  ),
);

/** The filter as count takes it: parsed (and so refused with count's errors) before it is saved. */
function checkedFilter(filter: Record<string, unknown>): Record<string, unknown> {
  parseContactFilter({ filter });
  return filter;
}

const HISTORY_NOTE =
  'history holds one point per data release the audience was counted on ({release, count, counted_at}, oldest ' +
  'first; a later count on the same release replaces its point); last_count is the newest point or null.';

export const createAudience = defineOperation({
  name: 'audiences.create',
  family: 'A',
  method: 'POST',
  path: '/v1/audiences',
  auth: 'key',
  spends: false,
  summary: 'Save an audience',
  description:
    'Saves a contact filter under a name, to count, search and export it later by audience_id (POST ' +
    '/v1/contacts/count, /v1/contacts/search, /v1/exports). The filter is checked exactly as count checks it (same ' +
    `errors). At most ${AUDIENCES_MAX} audiences an account (409 audiences.limit_reached). Answers 201 with the ` +
    `audience; ${HISTORY_NOTE} Free.`,
  cost: 'free',
  output: audienceOutput,
  errors: ['audiences.limit_reached'],
  input: v.object({
    name: nameMember,
    filter: filterMember,
    description: v.optional(descriptionMember),
  }),
  mcp: {
    tool: 'save_audience',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const a = await ctx.services.state.createAudience(
      ctx.account!.id,
      {
        name: input.name,
        description: input.description || null,
        filter: checkedFilter(input.filter),
        now: ctx.now,
      },
      AUDIENCES_MAX,
    );
    return { status: 201, data: audienceView(a) };
  },
});

export const listAudiences = defineOperation({
  name: 'audiences.list',
  family: 'A',
  method: 'GET',
  path: '/v1/audiences',
  auth: 'key',
  spends: false,
  summary: 'List saved audiences',
  description:
    'The audiences saved on this account, newest first, page by page (limit default 50, at most 200; ' +
    `page.next_cursor for the next page; page.total is how many are saved). Each with its filter and ${HISTORY_NOTE} ` +
    'Free.',
  cost: 'free',
  output: out.list(audienceOutput),
  errors: [],
  input: v.object({ cursor: listCursorMember, limit: listLimitMember(AUDIENCES_MAX, 50) }),
  mcp: { tool: 'list_audiences', annotations: READ },
  handler: async (ctx, input) => {
    const all = sortNewestFirst(await ctx.services.state.listAudiences(ctx.account!.id));
    const { items, page } = pageOf(all, (a) => [a.createdAt, a.id], input.cursor, input.limit, all.length);
    return { data: items.map(audienceView), page };
  },
});

export const getAudience = defineOperation({
  name: 'audiences.get',
  family: 'A',
  method: 'GET',
  path: '/v1/audiences/:id',
  auth: 'key',
  spends: false,
  summary: 'Get an audience',
  description: `One saved audience with its filter and history. ${HISTORY_NOTE} Another account's id answers 404 audience.not_found, as an unknown id does. Free.`,
  cost: 'free',
  output: audienceOutput,
  errors: ['audience.not_found'],
  input: v.object({ id: idMember }),
  mcp: { tool: 'get_audience', annotations: READ },
  handler: async (ctx, input) => ({ data: audienceView(await loadAudience(ctx, input.id)) }),
});

export const updateAudience = defineOperation({
  name: 'audiences.update',
  family: 'A',
  method: 'PATCH',
  path: '/v1/audiences/:id',
  auth: 'key',
  spends: false,
  summary: 'Change an audience',
  description:
    'Changes the name, the description or the filter of a saved audience (at least one). A new filter is checked as ' +
    'count checks it and clears the history: the old counts were of another filter (the same filter again keeps it). ' +
    "Another account's id answers 404 audience.not_found. Free.",
  cost: 'free',
  output: audienceOutput,
  errors: ['audience.not_found'],
  input: v.object({
    id: idMember,
    name: v.optional(nameMember),
    description: v.optional(descriptionMember),
    filter: v.optional(filterMember),
  }),
  handler: async (ctx, input) => {
    if (input.name === undefined && input.description === undefined && input.filter === undefined)
      throw new AppError('request.invalid', 'Send at least one of name, description or filter.', {
        hint: 'PATCH changes only the members sent.',
      });
    const current = await loadAudience(ctx, input.id);
    const filterChanged =
      input.filter !== undefined && JSON.stringify(checkedFilter(input.filter)) !== JSON.stringify(current.filter);
    const a = await ctx.services.state.updateAudience(
      ctx.account!.id,
      input.id,
      {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description || null } : {}),
        ...(filterChanged ? { filter: input.filter } : {}),
      },
      ctx.now,
    );
    if (!a) throw audienceNotFound();
    return { data: audienceView(a) };
  },
});

export const deleteAudience = defineOperation({
  name: 'audiences.delete',
  family: 'A',
  method: 'DELETE',
  path: '/v1/audiences/:id',
  auth: 'key',
  spends: false,
  summary: 'Delete an audience',
  description:
    "Deletes a saved audience and its history; answers {id, deleted: true}. Another account's id (or one already " +
    'deleted) answers 404 audience.not_found. Exports already started from it are not affected. Free.',
  cost: 'free',
  output: out.obj({ id: out.str, deleted: out.bool }),
  errors: ['audience.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    if (!(await ctx.services.state.deleteAudience(ctx.account!.id, input.id))) throw audienceNotFound();
    return { data: { id: input.id, deleted: true } };
  },
});

export const countAudience = defineOperation({
  name: 'audiences.count',
  family: 'A',
  method: 'POST',
  path: '/v1/audiences/:id/count',
  auth: 'key',
  spends: false,
  summary: 'Count an audience',
  description:
    'Counts the contacts matching a saved audience in the serving release, as POST /v1/contacts/count with its ' +
    'audience_id does, and records the count in its history (one point per release; a later count on the same ' +
    'release replaces it; a null count past the 3 second budget is not recorded). Answers {count, release, ' +
    "audience}. Another account's id answers 404 audience.not_found. Free.",
  cost: 'free',
  output: out.obj({ count: out.nullable(out.num), release: out.nullable(out.str), audience: audienceOutput }),
  errors: [
    'audience.not_found',
    'data.unavailable',
    'query.timeout',
    'filter.unknown_key',
    'filter.unknown_value',
    'filter.rejected',
  ],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    const audience = await loadAudience(ctx, input.id);
    const { ir, keysApplied } = parseContactFilter({ filter: audience.filter });
    const engine = engineFor(ctx);
    const res = await engine.query('contact', ir, { countBudgetMs: ctx.services.config.countBudgetMs });
    const warnings: Warning[] = [];
    if (res.countTimedOut) warnings.push(countUnavailableWarning(ctx.services.config.countBudgetMs));
    if (res.count === 0) warnings.push(noRowsWarning(keysApplied));
    const recorded = await recordAudienceCount(ctx, audience, res.count);
    return {
      data: { count: res.count, release: engine.release()?.id ?? null, audience: audienceView(recorded ?? audience) },
      warnings,
    };
  },
});
