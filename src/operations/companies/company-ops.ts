import * as v from 'valibot';
import { parseCompanyFilter } from '../../domain/query/index.js';
import { resolveColumns } from '../contacts/columns.js';
import { columnsMember, cursorMember, filterMember, limitMember, SEARCH_LIMIT_DEFAULT } from '../contacts/inputs.js';
import { searchPage } from '../contacts/search-page.js';
import { engineFor } from '../engine-for.js';
import * as out from '../outputs.js';
import { defineOperation, type Warning } from '../types.js';
import { countUnavailableWarning, noRowsWarning } from '../warnings.js';

export const countCompanies = defineOperation({
  name: 'companies.count',
  family: 'A',
  method: 'POST',
  path: '/v1/companies/count',
  auth: 'key',
  spends: false,
  summary: 'Count companies',
  description:
    'Exact number of companies matching a company filter (see GET /v1/companies/schema). Free; 3 second budget, ' +
    'then null with count_unavailable.',
  cost: 'free',
  output: out.obj({ count: out.nullable(out.num) }),
  errors: ['data.unavailable', 'query.timeout'],
  input: v.object({ filter: filterMember }),
  mcp: {
    tool: 'count_companies',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { ir, keysApplied } = parseCompanyFilter(input);
    const res = await engineFor(ctx).query('company', ir, { countBudgetMs: ctx.services.config.countBudgetMs });
    const warnings: Warning[] = [];
    if (res.countTimedOut) warnings.push(countUnavailableWarning(ctx.services.config.countBudgetMs));
    if (res.count === 0) warnings.push(noRowsWarning(keysApplied));
    return { data: { count: res.count }, warnings };
  },
});

export const searchCompanies = defineOperation({
  name: 'companies.search',
  family: 'A',
  method: 'POST',
  path: '/v1/companies/search',
  auth: 'key',
  spends: true,
  summary: 'Search companies',
  description:
    'Companies matching a company filter, paged with a cursor in ascending company id order. One contact credit per ' +
    'returned company; the page is cut to the credits left, with a page_truncated warning. limit defaults to 100, ' +
    'at most 1,000.',
  cost: 'one contact credit per returned company',
  output: out.list(out.row),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    filter: v.optional(filterMember, {}),
    columns: v.optional(columnsMember),
    limit: v.optional(limitMember, SEARCH_LIMIT_DEFAULT),
    cursor: v.optional(cursorMember),
  }),
  mcp: {
    tool: 'find_companies',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { ir, keysApplied } = parseCompanyFilter(input);
    const columns = resolveColumns('company', input.columns);
    return searchPage(ctx, {
      entity: 'company',
      ir,
      keysApplied,
      columns,
      limit: input.limit,
      cursor: input.cursor,
      pinned: { entity: 'company', filter: input.filter, columns: columns.map((c) => c.name) },
    });
  },
});
