import { engineFor } from '../engine-for.js';
import * as out from '../outputs.js';
import { defineOperation, type Warning } from '../types.js';
import { countUnavailableWarning, noRowsWarning } from '../warnings.js';
import { FAMILY_B_FILTER_ERRORS, familyBInput } from './input-schema.js';
import { familyBQuery } from './query.js';

export const countContactsB = defineOperation({
  name: 'b.contacts.count',
  family: 'B',
  method: 'POST',
  path: '/api/v1/contacts/search/count',
  auth: 'key',
  spends: false,
  summary: 'Count contacts (family B)',
  description:
    'Exact number of contacts for the same filters and where_sql as search; free. Use it to size an audience under ' +
    '50,000 before paging. Past the 3 second budget `count` is null with a count_unavailable warning.',
  cost: 'free',
  output: out.obj({ count: out.nullable(out.num), warnings: out.list(out.obj({ code: out.str, message: out.str })) }),
  errors: [...FAMILY_B_FILTER_ERRORS, 'data.unavailable', 'query.timeout'],
  input: familyBInput({}),
  mcp: {
    tool: 'count_contacts',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { ir, keysApplied } = await familyBQuery(ctx, input);
    const res = await engineFor(ctx).query('contact', ir, { countBudgetMs: ctx.services.config.countBudgetMs });
    const warnings: Warning[] = [];
    if (res.countTimedOut) warnings.push(countUnavailableWarning(ctx.services.config.countBudgetMs));
    if (res.count === 0) warnings.push(noRowsWarning(keysApplied));
    return { body: { count: res.count, warnings } };
  },
});
