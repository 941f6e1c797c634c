import type {
  ColumnDef,
  ColumnKind,
  ColumnType,
  Entity,
  FilterKeyDef,
  FilterKeyType,
  FilterMatch,
  StorageType,
} from './types.js';

type Shape = { type: ColumnType; kind: ColumnKind; storage: StorageType; format?: string };

/** Column shapes used by the tables; one place decides type, where-kind and storage together. */
export const SHAPES = {
  text: { type: 'string', kind: 'text', storage: 'VARCHAR' },
  country: { type: 'string', kind: 'text', storage: 'VARCHAR', format: 'ISO-2 slug' },
  month: { type: 'month', kind: 'text', storage: 'VARCHAR', format: 'YYYY-MM' },
  date: { type: 'date', kind: 'date', storage: 'VARCHAR', format: 'YYYY-MM-DD' },
  int: { type: 'integer', kind: 'number', storage: 'BIGINT' },
  num: { type: 'number', kind: 'number', storage: 'DOUBLE' },
  bool: { type: 'boolean', kind: 'bool', storage: 'BOOLEAN' },
  list: { type: 'array', kind: 'list', storage: 'VARCHAR[]' },
  record: { type: 'object', kind: 'record', storage: 'JSON' },
} as const satisfies Record<string, Shape>;

export type ShapeName = keyof typeof SHAPES;

export interface ColumnOptions {
  list?: string;
  nullable?: boolean;
  internal?: boolean;
  defaultSet?: boolean;
  fill?: number;
  lookup?: boolean;
  card?: boolean;
  contactPoint?: boolean;
  words?: string;
  substrings?: boolean | 'values';
}

export function column(
  entity: Entity,
  name: string,
  shape: ShapeName,
  label: string,
  description: string,
  opts: ColumnOptions = {},
): ColumnDef {
  const s: Shape = SHAPES[shape];
  return {
    name,
    entity,
    type: s.type,
    kind: s.kind,
    storage: s.storage,
    label,
    description,
    ...(s.format !== undefined ? { format: s.format } : {}),
    nullable: opts.nullable ?? true,
    ...(opts.list !== undefined ? { list: opts.list } : {}),
    visibility: opts.internal ? 'internal' : 'public',
    ...(opts.defaultSet ? { defaultSet: true } : {}),
    fill: opts.fill ?? 1,
    ...(opts.lookup ? { lookup: true } : {}),
    ...(opts.card ? { card: true } : {}),
    ...(opts.contactPoint ? { contactPoint: true } : {}),
    ...(opts.words ? { words: opts.words } : {}),
    ...(opts.substrings ? { substrings: opts.substrings } : {}),
  };
}

/** A key's options; its words (label, group, optional help, pair, range end) are required in every declaration. */
export type FilterKeyOptions = Partial<
  Pick<FilterKeyDef, 'excludes' | 'list' | 'aliases' | 'maxValues' | 'normalize' | 'help' | 'pair' | 'rangeEnd'>
> &
  Pick<FilterKeyDef, 'label' | 'group'>;

/** Builds the filter-key declarations of one entity (both key tables use it). */
export function filterKeyBuilder(entity: Entity) {
  return (
    key: string,
    type: FilterKeyType,
    column: string | null,
    match: FilterMatch,
    description: string,
    opts: FilterKeyOptions,
  ): FilterKeyDef => ({
    key,
    entity,
    type,
    description,
    column,
    match,
    excludes: opts.excludes ?? null,
    aliases: opts.aliases ?? [],
    ...(opts.list !== undefined ? { list: opts.list } : {}),
    ...(opts.maxValues !== undefined ? { maxValues: opts.maxValues } : {}),
    normalize: opts.normalize ?? 'none',
    label: opts.label,
    group: opts.group,
    ...(opts.help !== undefined ? { help: opts.help } : {}),
    ...(opts.pair !== undefined ? { pair: opts.pair } : {}),
    ...(opts.rangeEnd !== undefined ? { rangeEnd: opts.rangeEnd } : {}),
  });
}
