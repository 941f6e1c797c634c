import {
  FAMILY_B_NON_FILTER_MEMBERS,
  FAMILY_B_PARAMS,
  type FamilyBParamDef,
  findFamilyBParam,
} from '../catalog/index.js';
import { AppError } from '../errors/index.js';
import { invalidValue, malformed } from '../query/filter-errors.js';
import { and, type IRNode } from '../query/ir.js';
import { isAbsent, isObject, member, quote } from '../query/shape.js';
import { closest } from '../query/suggest.js';
import { overlappingBands } from './bands.js';
import { type CompileContext, compileParam } from './compile-param.js';
import { readNumber } from './raw-values.js';

export interface FamilyBFilterOptions {
  /** Host of the professional network (config), for company profile URLs. */
  networkHost: string;
  /** Domains of a saved domain list by id; undefined for an unknown id (saved lists live in the state store). */
  domainLists?: (id: string) => string[] | undefined;
}

export interface ParsedFamilyBFilters {
  /** AND of every filter sent; `{and: []}` matches every row. */
  ir: IRNode;
  /** Parameter names that constrained the query, in request order (nested `filters` first), for `no_rows`. */
  keysApplied: string[];
}

interface Sent {
  def: FamilyBParamDef;
  raw: unknown;
  /** Path for errors: `filters.cities` or `cities`. */
  field: string;
}

const FILTERS = 'filters';
const NON_FILTERS = new Set(FAMILY_B_NON_FILTER_MEMBERS);
const NAMES = FAMILY_B_PARAMS.map((d) => d.name);

/**
 * Family B flat filters (spec "Family B routes") into the Query IR. Filters may sit in a nested
 * `filters` object or at the top level of the body (both: merged; a name sent in both is refused);
 * all combine with AND. Paging, output and `where_sql` members are left to their own readers.
 * Null, an empty list and a blank string mean the filter was not sent.
 */
export function parseFamilyBFilters(body: Record<string, unknown>, opts: FamilyBFilterOptions): ParsedFamilyBFilters {
  if (!isObject(body)) throw invalidValue('body', 'a JSON object', body, 'Send the filters as a JSON object.');
  const sent = collect(body);
  const ctx: CompileContext = {
    networkHost: opts.networkHost,
    ...(opts.domainLists ? { domainLists: opts.domainLists } : {}),
  };
  const parts: IRNode[] = [];
  const keysApplied: string[] = [];
  const done = new Set<string>();
  for (const s of sent) {
    if (done.has(s.def.name)) continue;
    if (s.def.match === 'band_min' || s.def.match === 'band_max') {
      // Both bounds of a band pair select one set of bands, so they compile together.
      const other = s.def.pair !== undefined ? sent.find((o) => o.def.name === s.def.pair) : undefined;
      const [minS, maxS] = s.def.match === 'band_min' ? [s, other] : [other, s];
      parts.push(bandNode(s.def.column, minS, maxS));
      for (const b of [s, other]) {
        if (b === undefined) continue;
        done.add(b.def.name);
        keysApplied.push(b.def.name);
      }
      continue;
    }
    done.add(s.def.name);
    const node = compileParam(s.def, s.raw, s.field, ctx);
    if (node === undefined) continue;
    parts.push(node);
    keysApplied.push(s.def.name);
  }
  return { ir: and(...parts), keysApplied };
}

/** The filters sent, nested ones first; unknown names and names sent twice are refused here. */
function collect(body: Record<string, unknown>): Sent[] {
  const nested = body[FILTERS];
  if (!isAbsent(nested) && !isObject(nested)) {
    throw invalidValue(
      FILTERS,
      'an object of filters',
      nested,
      'Send "filters": { "job_titles": ["…"], … } or put the filters at the top level of the body.',
    );
  }
  const sent: Sent[] = [];
  const seen = new Map<string, string>();
  const add = (name: string, raw: unknown, field: string, inNested: boolean) => {
    const def = findFamilyBParam(name);
    if (def === undefined) throw unknownFilter(name, field, inNested);
    if (isAbsent(raw)) return;
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw malformed(
        field,
        `${name} is sent both in filters and at the top level.`,
        `Send ${name} once, either inside filters or at the top level of the body.`,
      );
    }
    seen.set(name, field);
    sent.push({ def, raw, field });
  };
  if (isObject(nested)) for (const [name, raw] of Object.entries(nested)) add(name, raw, member(FILTERS, name), true);
  for (const [name, raw] of Object.entries(body)) if (!NON_FILTERS.has(name)) add(name, raw, name, false);
  return sent;
}

function bandNode(column: string, min: Sent | undefined, max: Sent | undefined): IRNode {
  const lo = min === undefined ? undefined : readNumber(min.raw, min.field);
  const hi = max === undefined ? undefined : readNumber(max.raw, max.field);
  const bands = overlappingBands(lo, hi);
  return bands.length === 0 ? { or: [] } : { field: column, op: 'in', value: bands };
}

function unknownFilter(name: string, field: string, inNested: boolean): AppError {
  const guess = closest(name, NAMES);
  const didYouMean = guess ? `Did you mean ${guess}? ` : '';
  const hint =
    inNested && NON_FILTERS.has(name)
      ? `${name} is not a filter: send it at the top level of the body, beside filters.`
      : `${didYouMean}Filters: ${NAMES.join(', ')}.`;
  return new AppError('filter.unknown_key', `${quote(name)} is not a family B filter.`, {
    field,
    hint,
    details: { allowed: NAMES },
  });
}
