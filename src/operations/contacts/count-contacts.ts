import * as v from 'valibot';
import { parseContactFilter } from '../../domain/query/index.js';
import { engineFor } from '../engine-for.js';
import * as out from '../outputs.js';
import { defineOperation, type Warning } from '../types.js';
import { countUnavailableWarning, noRowsWarning } from '../warnings.js';
import { excludeIdsMember, filterMember } from './inputs.js';

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
    'count_unavailable warning; zero matches carry a no_rows warning naming the keys applied.',
  cost: 'free',
  output: out.obj({ count: out.nullable(out.num) }),
  errors: ['data.unavailable', 'query.timeout'],
  input: v.object({ filter: filterMember, exclude_ids: v.optional(excludeIdsMember) }),
  mcp: {
    tool: 'count_matches',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { ir, keysApplied } = parseContactFilter(input);
    const res = await engineFor(ctx).query('contact', ir, { countBudgetMs: ctx.services.config.countBudgetMs });
    const warnings: Warning[] = [];
    if (res.countTimedOut) warnings.push(countUnavailableWarning(ctx.services.config.countBudgetMs));
    if (res.count === 0) warnings.push(noRowsWarning(keysApplied));
    return { data: { count: res.count }, warnings };
  },
});
