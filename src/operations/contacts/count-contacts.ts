import * as v from 'valibot';
import { parseContactFilter } from '../../domain/query/index.js';
import { filterOrAudience, recordAudienceCount } from '../audiences/view.js';
import { engineFor } from '../engine-for.js';
import * as out from '../outputs.js';
import { defineOperation, type Warning } from '../types.js';
import { countUnavailableWarning, noRowsWarning } from '../warnings.js';
import { audienceIdMember, excludeIdsMember, filterMember } from './inputs.js';

export const countContacts = defineOperation({
  name: 'contacts.count',
  family: 'A',
  method: 'POST',
  path: '/v1/contacts/count',
  auth: 'key',
  spends: false,
  summary: 'Count matches',
  description:
    'Exact number of contacts matching a filter. Free. Past its 3 second budget data.count is null with a ' +
    'count_unavailable warning; zero matches carry a no_rows warning naming the keys applied. audience_id instead of ' +
    'filter counts a saved audience and records the count in its history (one point per data release).',
  cost: 'free',
  output: out.obj({ count: out.nullable(out.num) }),
  errors: ['data.unavailable', 'query.timeout', 'audience.not_found'],
  input: v.object({
    filter: v.optional(filterMember),
    audience_id: v.optional(audienceIdMember),
    exclude_ids: v.optional(excludeIdsMember),
  }),
  mcp: {
    tool: 'count_matches',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { filter, audience } = await filterOrAudience(ctx, input);
    const { ir, keysApplied } = parseContactFilter({ filter, exclude_ids: input.exclude_ids });
    const res = await engineFor(ctx).query('contact', ir, { countBudgetMs: ctx.services.config.countBudgetMs });
    const warnings: Warning[] = [];
    if (res.countTimedOut) warnings.push(countUnavailableWarning(ctx.services.config.countBudgetMs));
    if (res.count === 0) warnings.push(noRowsWarning(keysApplied));
    // The audience's history records its own filter's count, not one narrowed by exclude_ids.
    if (audience && input.exclude_ids === undefined) await recordAudienceCount(ctx, audience, res.count);
    return { data: { count: res.count }, warnings };
  },
});
