import {
  type ColumnDef,
  type Entity,
  FAMILY_B_PARAMS,
  type FamilyBParamDef,
  type FilterKeyDef,
  filterKeysOf,
  LIST_MAX,
  LISTS,
  publicColumns,
} from '../domain/catalog/index.js';
import { WHERE_SQL_MAX_CHARS } from '../domain/family-b/index.js';
import {
  WHERE_MAX_DEPTH,
  WHERE_MAX_IN_VALUES,
  WHERE_MAX_LEAVES,
  WHERE_MAX_PREDICATES,
} from '../domain/query/limits.js';
import { opsOf, WHERE_OPS } from '../domain/query/where-operators.js';
import type { JsonSchema } from '../face/json-schema.js';

/**
 * The typed filter of the MCP tools' input schemas, generated from the catalog (ARCHITECTURE rule 1): every family A
 * contact and company filter key and every family B flat filter, with its type, description, closed-list `enum`
 * (or, for a list too long to inline, the tool that lists its values and examples), bounds and formats, and the
 * `where` tree as `$defs` that encode its depth. The REST parser stays the judge; the schema says what it takes
 * in canonical form (slugs, not labels or aliases, which the parser folds as well).
 *
 * The schemas use the subset draft-07 and draft 2020-12 read alike (`$defs`, `if`/`then`, no `prefixItems`), since
 * MCP clients validate with either.
 */

/** A closed list up to this size is inlined as `enum`; longer ones (countries, industries) name their values tool. */
export const INLINE_ENUM_MAX = 60;
/** Values shown as `examples` for a list that is not inlined. */
const EXAMPLES_SHOWN = 5;
/** Common values shown first as examples (when the list holds them). */
const COMMON = [
  'us',
  'gb',
  'de',
  'fr',
  'ca',
  'software_development',
  'financial_services',
  'hospitals_and_health_care',
];

/** A few values of a long list as `examples`: common ones first, then the list's first. */
function examplesOf(listName: string, as: 'slug' | 'label' = 'slug'): string[] {
  const values = LISTS[listName]?.values ?? [];
  const common = values.filter((v) => COMMON.includes(v.slug));
  const picked = [...common, ...values.filter((v) => !COMMON.includes(v.slug))].slice(0, EXAMPLES_SHOWN);
  return picked.map((v) => (as === 'slug' ? v.slug : v.label));
}

const MONTH_PATTERN = '^\\d{4}-(0[1-9]|1[0-2])$';
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';

/** The `$defs` name of a where node that may still hold `groups` nested groups (`where_contact_4` is the root). */
export function whereDefName(entity: Entity, groups: number = WHERE_MAX_DEPTH): string {
  return `where_${entity}_${groups}`;
}

/** Where the values of a catalog list are read from an MCP tool (`get_values`' column), or undefined. */
function valuesColumn(listName: string): string | undefined {
  const list = LISTS[listName];
  if (!list) return undefined;
  if (list.routeName) return list.routeName;
  const col = publicColumns('contact').find((c) => c.list === listName);
  return col?.name;
}

/** The schema of one value of a family A list key. */
function listItem(def: FilterKeyDef): { item: JsonSchema; note: string } {
  const item: JsonSchema = { type: 'string', minLength: 1 };
  if (def.normalize === 'company_id') return { item: { ...item, pattern: '^com_.' }, note: '' };
  if (def.normalize === 'domain') return { item, note: ' A bare domain such as "acme.com"; a URL reduces to it.' };
  if (!def.list) return { item, note: '' };
  const list = LISTS[def.list];
  if (!list) return { item, note: '' };
  const column = valuesColumn(def.list);
  const tool = column ? ` Every value: the get_values tool with column "${column}".` : '';
  if (list.values.length > 0 && list.values.length <= INLINE_ENUM_MAX && !list.fromData) {
    return { item: { ...item, enum: list.values.map((v) => v.slug) }, note: ' Labels and aliases are folded too.' };
  }
  const examples = examplesOf(def.list);
  const what =
    def.normalize === 'country'
      ? ' Lowercase ISO-2 codes (English names and codes such as "US" are folded to them).'
      : def.normalize === 'industry'
        ? ' Industry slugs (a label is folded to its slug).'
        : '';
  return { item: examples.length ? { ...item, examples } : item, note: `${what}${tool}` };
}

/** One family A flat filter key as JSON Schema. */
function flatKeySchema(def: FilterKeyDef): JsonSchema {
  const twin = def.excludes ? ` The NOT of ${def.excludes}; rows without a value are kept.` : '';
  switch (def.type) {
    case 'list': {
      const { item, note } = listItem(def);
      const max = def.maxValues ?? LIST_MAX;
      return {
        type: 'array',
        items: item,
        maxItems: max,
        description: `${def.description}${twin}${note} Values are OR; at most ${max}.`,
      };
    }
    case 'string': {
      const phrase: JsonSchema = { type: 'string', minLength: 1 };
      const max = def.maxValues ?? LIST_MAX;
      return {
        anyOf: [phrase, { type: 'array', items: phrase, minItems: 1, maxItems: max }],
        description: `${def.description} A leading or trailing wildcard is refused (filter.rejected).`,
      };
    }
    case 'boolean':
      return { type: 'boolean', description: def.description };
    case 'integer':
      return { type: 'integer', minimum: -1e18, maximum: 1e18, description: def.description };
    case 'month':
      return { type: 'string', pattern: MONTH_PATTERN, description: `${def.description} Format YYYY-MM.` };
  }
}

/** The `filter` member of a family A tool: every catalog key of the entity, `where`, and nothing else. */
export function familyAFilterSchema(entity: Entity, description: unknown): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const def of filterKeysOf(entity)) properties[def.key] = flatKeySchema(def);
  properties.where = {
    $ref: `#/$defs/${whereDefName(entity)}`,
    description:
      `Condition tree over ${entity} columns: a group {"and": [...]}, {"or": [...]}, {"not": {...}} or a leaf ` +
      `{"field", "op", "value"}. At most ${WHERE_MAX_DEPTH} nested groups, ${WHERE_MAX_LEAVES} leaves, ` +
      `${WHERE_MAX_PREDICATES} nodes in all, ${WHERE_MAX_IN_VALUES} values per in / not_in (past a limit: ` +
      'filter.rejected).',
  };
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    description:
      `${typeof description === 'string' ? description : 'Filter object.'} Keys are AND-combined; values inside ` +
      'a list key are OR; {} matches every row. An unknown key answers filter.unknown_key.',
  };
}

/** JSON Schema's conditional (`if` / `then` / `else`), as a plain object. */
function ifThen(cond: JsonSchema, then: JsonSchema, otherwise?: JsonSchema): JsonSchema {
  return { if: cond, then, ...(otherwise ? { else: otherwise } : {}) };
}

/** Value schemas of a where leaf by what the column takes. */
function leafValueSchema(col: ColumnDef): JsonSchema {
  const inList = (item: JsonSchema): JsonSchema => ({
    type: 'array',
    items: item,
    minItems: 1,
    maxItems: WHERE_MAX_IN_VALUES,
  });
  if (col.kind === 'bool') return { type: 'boolean' };
  if (col.kind === 'number') {
    const n: JsonSchema = { type: 'number' };
    return { anyOf: [n, { type: 'boolean' }, inList(n)] };
  }
  // A month column is text (contains "2024" is fine), so only dates carry a pattern.
  const s: JsonSchema = col.kind === 'date' ? { type: 'string', pattern: DATE_PATTERN } : { type: 'string' };
  return { anyOf: [s, { type: 'boolean' }, inList(s)] };
}

/** The `$defs` of one entity's where tree: a leaf and one node per depth left (depth 0 is a leaf only). */
export function whereDefs(entity: Entity): Record<string, JsonSchema> {
  const cols = publicColumns(entity);
  // Columns grouped by what they take: the leaf's op and value follow from its field.
  const groups = new Map<string, { cols: ColumnDef[]; ops: readonly string[]; value: JsonSchema }>();
  for (const col of cols) {
    const ops = opsOf(col);
    const value = leafValueSchema(col);
    const key = JSON.stringify([ops, value]);
    const g = groups.get(key) ?? { cols: [], ops, value };
    g.cols.push(col);
    groups.set(key, g);
  }
  const leafName = `where_${entity}_leaf`;
  const defs: Record<string, JsonSchema> = {
    [leafName]: {
      type: 'object',
      description:
        `A condition on one ${entity} column (case-insensitive name). Operators by column kind: text takes every ` +
        'operator; numbers and dates eq, neq, gt, gte, lt, lte, in, not_in, exists; booleans eq and neq; lists in, ' +
        'not_in, contains, exists, eq, neq; records contains and exists; work email and phones eq, in, exists. ' +
        `in and not_in take a list of at most ${WHERE_MAX_IN_VALUES} values; exists takes no value, true or false ` +
        '(false: the column is empty); every other operator needs a value.',
      properties: {
        field: { type: 'string', enum: cols.map((c) => c.name), description: `A ${entity} column name.` },
        op: { type: 'string', enum: [...WHERE_OPS] },
        value: {
          anyOf: [
            { type: 'string' },
            { type: 'number' },
            { type: 'boolean' },
            {
              type: 'array',
              items: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] },
              minItems: 1,
              maxItems: WHERE_MAX_IN_VALUES,
            },
          ],
        },
      },
      required: ['field', 'op'],
      additionalProperties: false,
      allOf: [
        ...[...groups.values()].map((g) =>
          ifThen(
            { type: 'object', properties: { field: { enum: g.cols.map((c) => c.name) } }, required: ['field'] },
            { type: 'object', properties: { op: { enum: [...g.ops] }, value: g.value } },
          ),
        ),
        ifThen(
          { type: 'object', properties: { op: { enum: ['exists'] } }, required: ['op'] },
          { type: 'object', properties: { value: { type: 'boolean' } } },
          { type: 'object', required: ['value'] },
        ),
        ifThen(
          { type: 'object', properties: { op: { enum: ['in', 'not_in'] } }, required: ['op'] },
          { type: 'object', properties: { value: { type: 'array' } } },
          { type: 'object', properties: { value: { not: { type: 'array' } } } },
        ),
      ],
    },
  };
  for (let depth = 0; depth <= WHERE_MAX_DEPTH; depth++) {
    const name = whereDefName(entity, depth);
    if (depth === 0) {
      defs[name] = { $ref: `#/$defs/${leafName}` };
      continue;
    }
    const child = { $ref: `#/$defs/${whereDefName(entity, depth - 1)}` };
    const group = (g: 'and' | 'or') => ({
      type: 'object',
      properties: {
        [g]: { type: 'array', items: child, minItems: 1, maxItems: WHERE_MAX_LEAVES },
      },
      required: [g],
      additionalProperties: false,
    });
    defs[name] = {
      anyOf: [
        { $ref: `#/$defs/${leafName}` },
        group('and'),
        group('or'),
        { type: 'object', properties: { not: child }, required: ['not'], additionalProperties: false },
      ],
    };
  }
  return defs;
}

/** One family B filter parameter as JSON Schema (the type REST validates with, plus values, bounds, formats). */
function familyBParamSchema(def: FamilyBParamDef, generated: JsonSchema | undefined): JsonSchema {
  const description = typeof generated?.description === 'string' ? generated.description : def.description;
  const one: JsonSchema = { type: 'string' };
  let note = '';
  if (def.allowed?.length) one.enum = [...def.allowed];
  else if (def.value === 'date') {
    one.pattern = DATE_PATTERN;
    note = ' Format YYYY-MM-DD.';
  } else if (def.list && LISTS[def.list]) {
    const examples = examplesOf(def.list, def.value === 'country' ? 'slug' : 'label');
    if (examples.length) one.examples = examples;
    note = ` Every value: the get_available_values tool with filter "${def.name}".`;
  }
  switch (def.type) {
    case 'string[]': {
      const max = def.maxValues ?? LIST_MAX;
      return {
        anyOf: [{ type: 'array', items: one, maxItems: max }, one],
        description: `${description}${note} A list (at most ${max}) or one value.`,
      };
    }
    case 'number':
      return { type: 'number', minimum: -1e18, maximum: 1e18, description: `${description}${note}` };
    case 'boolean':
      return { type: 'boolean', description: `${description}${note}` };
    default: {
      const max = def.match === 'keywords' || def.value === 'email_domain' ? def.maxValues : undefined;
      const extra = max ? ` At most ${max} comma-separated values.` : '';
      return { ...one, description: `${description}${note}${extra}` };
    }
  }
}

/**
 * Family B filter properties typed from the catalog, in place: each top-level filter in full, and `filters` (the same
 * names nested) as references to them, so a tool lists each filter once. An unknown name answers filter.unknown_key,
 * so both places are closed (`additionalProperties: false`). Answers whether the tool takes filters.
 */
export function typeFamilyBFilters(schema: JsonSchema): boolean {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  let typed = false;
  for (const def of FAMILY_B_PARAMS) {
    if (!props[def.name]) continue;
    props[def.name] = familyBParamSchema(def, props[def.name]);
    typed = true;
  }
  if (!typed) return false;
  const filters = props.filters;
  if (filters) {
    const nested: Record<string, JsonSchema> = {};
    for (const name of Object.keys((filters.properties ?? {}) as object))
      if (props[name]) nested[name] = { $ref: `#/properties/${name}` };
    props.filters = {
      type: 'object',
      description: filters.description,
      properties: nested,
      additionalProperties: false,
    };
  }
  const sql = props.where_sql;
  if (sql && sql.type === 'string') props.where_sql = { ...sql, maxLength: WHERE_SQL_MAX_CHARS };
  schema.additionalProperties = false;
  return true;
}

/**
 * The member naming whose values a values tool lists, as an `enum`: `get_values`' `column` (the columns with a list,
 * and a list's route name such as `industries`), `get_available_values`' `filter` (every family B filter; a free-text
 * one answers `free_text: true`). Answers whether it typed one.
 */
export function typeValuesMember(entity: Entity, family: string, props: Record<string, JsonSchema>): boolean {
  if (family === 'A' && props.column?.type === 'string') {
    const names = new Set<string>();
    for (const col of publicColumns(entity)) {
      if (!col.list) continue;
      const route = entity === 'contact' ? LISTS[col.list]?.routeName : undefined;
      names.add(route ?? col.name);
    }
    props.column = { ...props.column, enum: [...names] };
    return true;
  }
  if (family === 'B' && props.filter?.type === 'string') {
    props.filter = {
      ...props.filter,
      enum: FAMILY_B_PARAMS.map((d) => d.name),
      description: `${String(props.filter.description ?? '')} A list filter answers its values; a free-text one answers free_text: true.`,
    };
    return true;
  }
  return false;
}
