import * as v from 'valibot';
import { parseContactFilter } from '../../domain/query/index.js';
import { filterOrAudience } from '../audiences/view.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';
import { resolveColumns } from './columns.js';
import {
  audienceIdMember,
  columnsMember,
  cursorMember,
  excludeIdsMember,
  filterMember,
  limitMember,
  maxPerCompanyMember,
  SEARCH_LIMIT_DEFAULT,
} from './inputs.js';
import { searchPage } from './search-page.js';

export const searchContacts = defineOperation({
  name: 'contacts.search',
  family: 'A',
  method: 'POST',
  path: '/v1/contacts/search',
  auth: 'key',
  spends: true,
  summary: 'Find contacts',
  description:
    'Contacts matching a filter, page by page in a stable order (ascending contact id within a release), with an ' +
    'opaque cursor. One contact credit per returned row; when fewer credits are left than the page size the page is ' +
    'cut to what is left with a page_truncated warning (resets_at: when the cap that cut it resets), with none left ' +
    '402 contact_credits.exhausted. limit defaults to 100, at most 1,000. audience_id instead of filter searches a ' +
    'saved audience (filter absent too: every contact).',
  cost: 'one contact credit per returned contact',
  output: out.list(out.row),
  errors: ['data.unavailable', 'query.timeout', 'audience.not_found'],
  charges: 'contact',
  input: v.object({
    filter: v.optional(filterMember),
    audience_id: v.optional(audienceIdMember),
    columns: v.optional(columnsMember),
    limit: v.optional(limitMember, SEARCH_LIMIT_DEFAULT),
    cursor: v.optional(cursorMember),
    max_rows_per_company: v.optional(maxPerCompanyMember),
    exclude_ids: v.optional(excludeIdsMember),
  }),
  mcp: {
    tool: 'find_contacts',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { filter } = await filterOrAudience(ctx, input, {});
    const { ir, keysApplied } = parseContactFilter({ filter, exclude_ids: input.exclude_ids });
    const columns = resolveColumns('contact', input.columns);
    return searchPage(ctx, {
      entity: 'contact',
      ir,
      keysApplied,
      columns,
      limit: input.limit,
      cursor: input.cursor,
      maxPerCompany: input.max_rows_per_company,
      pinned: {
        filter,
        exclude_ids: input.exclude_ids ?? null,
        columns: columns.map((c) => c.name),
        max: input.max_rows_per_company ?? null,
      },
    });
  },
});
