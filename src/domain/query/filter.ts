import { type Entity, type FilterKeyDef, filterKeysOf, findColumn } from '../catalog/index.js';
import { parseExcludeIds } from './exclude-ids.js';
import { invalidValue, unknownKey } from './filter-errors.js';
import { compileFlatKey } from './flat-keys.js';
import { and, type IRNode } from './ir.js';
import { isAbsent, isObject, member, quote } from './shape.js';
import { closest } from './suggest.js';
import { parseWhere } from './where-parser.js';

export interface ParsedFilter {
  /** AND of every flat key, the where tree and exclude_ids; `{and: []}` matches every row. */
  ir: IRNode;
  /** Keys that constrained the query, in request order (`where` included, `exclude_ids` last), for `no_rows`. */
  keysApplied: string[];
}

/**
 * Body member `filter` (required; `{}` matches every contact) and `exclude_ids` of contact count,
 * search and export. Null or an empty list means the key was not sent.
 */
export function parseContactFilter(body: { filter?: unknown; exclude_ids?: unknown }): ParsedFilter {
  const parsed = parseFilter('contact', body);
  const excluded = parseExcludeIds(isObject(body) ? body.exclude_ids : undefined);
  if (excluded === undefined) return parsed;
  return { ir: and(parsed.ir, excluded), keysApplied: [...parsed.keysApplied, 'exclude_ids'] };
}

/** Body member `filter` of company count and search, over the company filter keys and columns. */
export function parseCompanyFilter(body: { filter?: unknown }): ParsedFilter {
  return parseFilter('company', body);
}

const WHERE = 'where';
const keyIndex = new Map<Entity, Map<string, FilterKeyDef>>(
  (['contact', 'company'] as const).map((e) => [e, new Map(filterKeysOf(e).map((d) => [d.key, d]))]),
);

function parseFilter(entity: Entity, body: unknown): ParsedFilter {
  const filter = isObject(body) ? body.filter : undefined;
  if (!isObject(filter)) {
    throw invalidValue('filter', 'an object', filter, 'Send "filter": { … } with filter keys; {} matches every row.');
  }
  const defs = keyIndex.get(entity)!;
  // Options apply to every key whatever their order in the body, so they are read first.
  const secondaryRoles =
    filter.include_secondary_roles === true && defs.get('include_secondary_roles')?.match === 'option';
  const parts: IRNode[] = [];
  const keysApplied: string[] = [];
  for (const key of Object.keys(filter)) {
    const raw = filter[key];
    const field = member('filter', key);
    const def = defs.get(key);
    if (key !== WHERE && def === undefined) throw unknownFlatKey(key, field, entity, [...defs.keys()]);
    if (isAbsent(raw)) continue;
    const node =
      def === undefined ? parseWhere(raw, field, entity) : compileFlatKey(def, raw, field, { entity, secondaryRoles });
    if (node !== undefined) parts.push(node);
    // An option constrains nothing itself but changes the result, so it is named when on.
    if (node !== undefined || (def?.match === 'option' && raw === true)) keysApplied.push(key);
  }
  return { ir: and(...parts), keysApplied };
}

function unknownFlatKey(key: string, field: string, entity: Entity, keys: string[]) {
  const schema = `/v1/${entity === 'contact' ? 'contacts' : 'companies'}/schema`;
  const guess = closest(key, [...keys, WHERE]);
  const didYouMean = guess ? `Did you mean ${guess}? ` : '';
  let hint: string;
  if (key === 'exclude_ids' && entity === 'contact')
    hint = 'exclude_ids goes beside filter in the body, not inside it.';
  else if (findColumn(entity, key))
    hint = `${didYouMean}${key} is a column: filter it with where, e.g. {"field": "${key}", "op": "in", "value": [ … ]}.`;
  else hint = `${didYouMean}Valid keys: ${[...keys, WHERE].join(', ')} (GET ${schema} describes them).`;
  return unknownKey(field, `${quote(key)} is not a ${entity} filter key.`, hint);
}
