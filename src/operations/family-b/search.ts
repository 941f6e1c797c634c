import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { shapeRow } from '../contacts/columns.js';
import { withContactCredits } from '../credits.js';
import { engineFor } from '../engine-for.js';
import { rowsPerCall } from '../limits.js';
import * as out from '../outputs.js';
import { intParam } from '../schemas.js';
import { defineOperation, type OpContext, type Warning } from '../types.js';
import { pageTruncatedWarning } from '../warnings.js';
import { familyBColumns } from './columns.js';
import { creditsRemaining } from './credits-remaining.js';
import { FAMILY_B_FILTER_ERRORS, familyBInput } from './input-schema.js';
import { familyBQuery, fieldsOf } from './query.js';

export const B_LIMIT_DEFAULT = 1000;
export const B_LIMIT_MAX = 5000;
/** Paging walks at most this many matches; beyond it, size the audience with count or export it. */
export const B_PAGING_WINDOW = 50_000;

const searchInput = familyBInput({
  limit: v.optional(
    v.pipe(
      v.number('must be a number'),
      v.integer('must be a whole number'),
      v.minValue(1, 'must be at least 1'),
      v.description('Rows per page (default 1000; above 5,000 clamped).'),
    ),
  ),
  offset: v.optional(intParam(0, 10_000_000, 'Rows to skip; use next_offset from the previous answer.')),
  max_per_company: v.optional(intParam(1, 50, 'At most this many rows per company domain in the page.')),
  columns: v.optional(
    v.pipe(
      v.union([v.array(v.string()), v.string()]),
      v.description(
        'Output columns by display label or internal name; default set plus filtered columns when omitted.',
      ),
    ),
  ),
});

/** A family B search body: the filters, where_sql and the paging members, typed by its schema. */
export type BSearchInput = v.InferOutput<typeof searchInput>;

export interface BSearchOptions {
  /** Largest page this face allows (REST 5,000; MCP 100). */
  maxLimit: number;
}

/**
 * Family B search: offset paging in the release's stable order (ascending contact id). The records array
 * is `contacts`. `total_available` counts matches only up to the end of the requested window (it is a
 * paging hint, not a count); `total_available_is_minimum: true` says more rows match.
 */
export async function familyBSearch(ctx: OpContext, input: BSearchInput, opts: BSearchOptions) {
  const { ir, keysApplied } = await familyBQuery(ctx, input);
  const asked = input.limit ?? B_LIMIT_DEFAULT;
  const limit = Math.min(asked, opts.maxLimit);
  const offset = input.offset ?? 0;
  if (offset >= B_PAGING_WINDOW) {
    throw new AppError(
      'request.invalid',
      `Paging walks at most ${B_PAGING_WINDOW} matches; offset ${offset} is beyond it.`,
      {
        field: 'offset',
        hint:
          'Narrow the query (size it with POST /api/v1/contacts/search/count) or export the audience with POST ' +
          '/api/v1/contacts/search/export.',
      },
    );
  }
  const window = Math.min(limit, B_PAGING_WINDOW - offset);
  const columns = familyBColumns(input.columns, fieldsOf(ir));
  const maxPer = input.max_per_company;
  const names = columns.map((c) => c.name);
  const fetchCols = maxPer !== undefined && !names.includes('company_domain') ? [...names, 'company_domain'] : names;

  /** Set when the credits left cut the page (fewer granted than the window, and more rows match). */
  let cut = null as { granted: number } | null;
  const page = await withContactCredits(ctx, 'search', window, async (granted) => {
    const res = await engineFor(ctx).query('contact', ir, {
      page: {
        columns: fetchCols,
        afterSortKey: null,
        offset,
        limit: granted + 1,
        budgetMs: ctx.services.config.searchBudgetMs,
      },
    });
    let rows = res.rows;
    const more = rows.length > granted;
    rows = rows.slice(0, granted);
    if (maxPer !== undefined) {
      const seen = new Map<string, number>();
      rows = rows.filter((r) => {
        const d = r.company_domain as string | null;
        if (!d) return true;
        const n = (seen.get(d) ?? 0) + 1;
        seen.set(d, n);
        return n <= maxPer;
      });
    }
    const end = offset + granted;
    const beyondWindow = more && end >= B_PAGING_WINDOW;
    const body = {
      contacts: rows.map((r) => shapeRow(r, columns)),
      limit,
      offset,
      returned: rows.length,
      next_offset: more && !beyondWindow ? end : null,
      has_more: more && !beyondWindow,
      total_available: more ? end : offset + res.rows.length,
      total_available_is_minimum: more,
      ...(beyondWindow
        ? { paging_note: `Paging stops at ${B_PAGING_WINDOW} matches; narrow the query or export the audience.` }
        : {}),
      ...(asked > opts.maxLimit ? { limit_clamped_from: asked } : {}),
      ...(rows.length === 0
        ? {
            note: keysApplied.length
              ? `No contacts match; remove a filter such as ${keysApplied[keysApplied.length - 1]}.`
              : 'No contacts match.',
          }
        : {}),
    };
    if (more && granted < window) cut = { granted };
    return { result: body, delivered: rows.length };
  });
  // A page the credits cut says so (page_truncated, as family A pages); a dry run's quote says it in its own `cut`.
  const warnings: Warning[] = [];
  if (cut && !ctx.dryRun) {
    const { granted } = cut;
    warnings.push(
      await pageTruncatedWarning(ctx, { returned: page.returned, limit: window, granted, continueWith: 'next_offset' }),
    );
  }
  return { ...page, warnings, creditsRemaining: await creditsRemaining(ctx) };
}

export const searchContactsB = defineOperation({
  name: 'b.contacts.search',
  family: 'B',
  method: 'POST',
  path: '/api/v1/contacts/search',
  auth: 'key',
  spends: true,
  summary: 'Search contacts (family B)',
  description:
    'Contacts matching flat filters (nested in `filters` or at the top level, all AND) and an optional where_sql, ' +
    'offset-paged in a stable order. Records are in `contacts`. limit defaults to 1000; values above 5,000 are ' +
    'clamped and the effective limit is echoed. Paging walks up to 50,000 matches; beyond that narrow the query or ' +
    'export. One contact credit per returned row; when fewer credits are left than the page, the page is cut to ' +
    'them with a page_truncated warning in `warnings` (empty on a clean call).',
  cost: 'one contact credit per returned contact',
  output: out.obj({
    contacts: out.list(out.row),
    ...out.offsetPage,
    total_available: out.num,
    total_available_is_minimum: out.bool,
    warnings: out.list(out.obj({ code: out.str, message: out.str })),
    creditsRemaining: out.creditsRemaining,
  }),
  errors: [...FAMILY_B_FILTER_ERRORS, 'data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: searchInput,
  mcp: {
    tool: 'search_contacts',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    // MCP: at most 100 rows per call, and an offer to export when more match.
    const body = await familyBSearch(ctx, input, { maxLimit: rowsPerCall(ctx.face, B_LIMIT_MAX) });
    if (ctx.face === 'mcp' && body.has_more) {
      return {
        body: {
          ...body,
          export_offer: {
            tool: 'export_contacts',
            message:
              'More contacts match than one call returns; export them as a CSV (one credit per exported row, up to ' +
              '50,000).',
            arguments: { ...input, limit: undefined, offset: undefined },
          },
        },
      };
    }
    return { body };
  },
});
