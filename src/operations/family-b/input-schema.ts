import * as v from 'valibot';
import { FAMILY_B_PARAMS, type FamilyBParamDef } from '../../domain/catalog/index.js';
import type { ErrorCode } from '../../domain/errors/index.js';
import { WHERE_SQL_MAX_CHARS } from '../../domain/family-b/index.js';

function typed(d: FamilyBParamDef) {
  const allowed = d.allowed?.length ? ` Values: ${d.allowed.join(', ')}.` : '';
  const desc = `${d.description}${allowed}`;
  switch (d.type) {
    case 'string[]':
      return v.optional(
        v.pipe(v.union([v.array(v.string()), v.string()], 'must be an array of strings'), v.description(desc)),
      );
    case 'number':
      return v.optional(v.pipe(v.number('must be a number'), v.description(desc)));
    case 'boolean':
      return v.optional(v.pipe(v.boolean('must be true or false'), v.description(desc)));
    default:
      return v.optional(v.pipe(v.string('must be a string'), v.description(desc)));
  }
}

/** Every family B filter parameter, typed and described from the catalog (REST validation, OpenAPI, MCP). */
export const FAMILY_B_FILTER_ENTRIES = Object.fromEntries(FAMILY_B_PARAMS.map((d) => [d.name, typed(d)]));

export const whereSqlMember = v.optional(
  v.pipe(
    v.string('must be a string'),
    v.description(
      `SQL predicate over internal column names, AND-combined with the filters; at most ${WHERE_SQL_MAX_CHARS} ` +
        `characters; parsed against an allow-list, never executed.`,
    ),
  ),
);

/** Filters at the top level or nested in `filters`; unknown names reach the parser, which names them. */
export function familyBInput<E extends v.ObjectEntries>(extra: E) {
  return v.looseObject({
    filters: v.optional(
      v.pipe(
        v.looseObject(FAMILY_B_FILTER_ENTRIES),
        v.description('The filters, nested; the same names are also accepted at the top level.'),
      ),
    ),
    ...FAMILY_B_FILTER_ENTRIES,
    where_sql: whereSqlMember,
    ...extra,
  });
}

/** The codes the family B filter parser answers (unknown name, unknown closed-list value, a refused value). */
export const FAMILY_B_FILTER_ERRORS: ErrorCode[] = ['filter.unknown_key', 'filter.unknown_value', 'filter.rejected'];

/** What a filter-taking family B operation receives: the typed members, and any unknown name for the parser to name. */
export type FamilyBFilterInput = v.InferOutput<ReturnType<typeof familyBInput<Record<never, never>>>>;
