import {
  BIG_LIST_MAX,
  CONTACT_POINT_COLUMNS,
  type ColumnDef,
  type Entity,
  type FilterKeyDef,
  filterKeysOf,
  findList,
  publicColumns,
  valuesRoute,
} from '../../domain/catalog/index.js';
import {
  DEFAULT_LIST_MAX,
  EXCLUDE_IDS_MAX,
  WHERE_MAX_DEPTH,
  WHERE_MAX_IN_VALUES,
  WHERE_MAX_LEAVES,
  WHERE_MAX_PREDICATES,
} from '../../domain/query/index.js';

const n = (x: number) => x.toLocaleString('en');

/** Schema descriptors (spec "Schema descriptors"), read from the catalog only. */
export function describeColumn(col: ColumnDef) {
  return {
    name: col.name,
    // The catalog's display label (beside the spec's members): what the console and export headers call the column.
    label: col.label,
    type: col.type,
    description: col.description,
    ...(col.format !== undefined ? { format: col.format } : {}),
    nullable: col.nullable,
    ...(col.list !== undefined ? { closed_list: true } : {}),
    values_route: valuesRoute(col),
  };
}

export function keyValuesRoute(entity: Entity, key: FilterKeyDef): string | null {
  if (!key.list) return null;
  const col = publicColumns(entity).find((c) => c.list === key.list);
  return col ? valuesRoute(col) : null;
}

export function describeFilterKey(entity: Entity, key: FilterKeyDef) {
  return {
    key: key.key,
    type: key.type,
    description: key.description,
    column: key.column !== null && publicColumns(entity).some((c) => c.name === key.column) ? key.column : null,
    // The spec's `excludes`: the exclude_* twin of an include key (null on the exclude keys themselves).
    excludes: filterKeysOf(entity).find((k) => k.excludes === key.key)?.key ?? null,
    values_route: keyValuesRoute(entity, key),
    aliases: [...key.aliases],
    // The catalog's words (beside the spec's members): what a form shows. label and group always; help, pair (the
    // exclude_* key shown beside this include key) and range_end (the upper bound of the range this key starts)
    // are null where the key has none.
    label: key.label,
    group: key.group,
    help: key.help ?? null,
    pair: key.pair ?? null,
    range_end: key.rangeEnd ?? null,
  };
}

/** Limits and semantics of the filter language, stated once for both schema routes. */
export const FILTER_NOTES: readonly string[] = [
  'Values inside a list key are OR; different keys are AND; an exclude_* key is the NOT of its twin.',
  'Range keys: _min/_max are inclusive, _after/_before are exclusive.',
  'A null column never matches a value key or a neq/not_in leaf; an exclude_* key is the NOT of its twin, so it ' +
    'keeps rows where the column is empty. Use has_* keys or where exists to test presence.',
  `where: depth at most ${WHERE_MAX_DEPTH} (groups on a path from the root to a leaf; a bare leaf is 0), at most ` +
    `${WHERE_MAX_LEAVES} leaves, at most ${WHERE_MAX_IN_VALUES} values in one in/not_in, at most ` +
    `${WHERE_MAX_PREDICATES} predicates (leaves plus groups).`,
  `Lists: at most ${n(BIG_LIST_MAX)} domains, company names or company_ids and ${n(EXCLUDE_IDS_MAX)} exclude_ids; ` +
    `at most ${DEFAULT_LIST_MAX} values in any other list.`,
  'A leading wildcard in a where value, or a leading or trailing wildcard in title_query, answers 422 filter.rejected.',
  'title_query is a case-insensitive whole-word phrase match on the current title; for substrings use where with ' +
    'contains on title.',
  'Signals are filtered only through where (field "signals").',
  'Closed-list values accept labels and aliases and fold to slugs; unknown values answer 400 filter.unknown_value.',
  'Column values routes: q filters by case-insensitive substring; limit defaults to 100, at most 1,000.',
  `Contact points (${CONTACT_POINT_COLUMNS.join(', ')}) are what credits buy, so free routes must not spell ` +
    'them out: filters on them take exists, eq and in only (where_sql: IS [NOT] NULL, = and IN); comparisons, ' +
    'prefixes and substrings answer 422 filter.rejected (where_sql: 400 request.invalid).',
];

export function describeSchema(entity: Entity) {
  return {
    columns: publicColumns(entity).map(describeColumn),
    filter_keys: filterKeysOf(entity).map((k) => describeFilterKey(entity, k)),
    notes: [
      ...FILTER_NOTES,
      ...(entity === 'contact' ? [] : ['Company search charges one contact credit per returned company.']),
    ],
  };
}

export function listIsFromData(col: ColumnDef): boolean {
  return col.list !== undefined && findList(col.list)?.fromData === true;
}
