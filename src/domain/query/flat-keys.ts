import type { Entity, FilterKeyDef, FilterMatch } from '../catalog/index.js';
import { parseBoolean, parseInteger, parseMonth, parseValueList } from './flat-values.js';
import { type IRNode, type Leaf, not, or } from './ir.js';
import { secondaryColumn } from './secondary-roles.js';
import { parsePhrases } from './title-query.js';

export interface FlatContext {
  entity: Entity;
  /** `include_secondary_roles: true` was sent. */
  secondaryRoles: boolean;
}

/** Compiles one flat key into IR; undefined when the value has no effect (an empty list, an option). */
type KeyCompiler = (def: FilterKeyDef, raw: unknown, field: string, ctx: FlatContext) => IRNode | undefined;

/** Presence keys with no single column (`column: null`): the boolean column the loader derives. */
const DERIVED_PRESENCE: Readonly<Record<string, string>> = { has_phone: 'has_phone' };

const COMPILERS: Readonly<Record<FilterMatch, KeyCompiler>> = {
  any_of: (def, raw, field, ctx) => {
    const values = parseValueList(def, raw, field, ctx.entity);
    return values.length === 0 ? undefined : or(...widen(ctx, { field: columnOf(def), op: 'in', value: values }));
  },
  // The spec makes an exclude_* key the NOT of its twin, so a row with no value is kept;
  // `not_in` would drop it (it requires a value, IR semantics).
  none_of: (def, raw, field, ctx) => {
    const values = parseValueList(def, raw, field, ctx.entity);
    return values.length === 0 ? undefined : not({ field: columnOf(def), op: 'in', value: values });
  },
  min: (def, raw, field) => ({ field: columnOf(def), op: 'gte', value: parseInteger(raw, field) }),
  max: (def, raw, field) => ({ field: columnOf(def), op: 'lte', value: parseInteger(raw, field) }),
  after: (def, raw, field) => ({ field: columnOf(def), op: 'gt', value: parseMonth(raw, field) }),
  before: (def, raw, field) => ({ field: columnOf(def), op: 'lt', value: parseMonth(raw, field) }),
  present: (def, raw, field) => {
    const wanted = parseBoolean(raw, field);
    const derived = DERIVED_PRESENCE[def.key];
    if (def.column === null && derived !== undefined) return { field: derived, op: 'eq', value: wanted };
    return { field: columnOf(def), op: 'exists', value: wanted };
  },
  phrase: (def, raw, field, ctx) => {
    const phrases = parsePhrases(def, raw, field);
    if (phrases.length === 0) return undefined;
    const column = columnOf(def);
    return or(...phrases.flatMap((p) => widen(ctx, { field: column, op: 'words', value: p })));
  },
  // Options change how other keys compile and are read before them (see filter.ts).
  option: (_def, raw, field) => {
    parseBoolean(raw, field);
    return undefined;
  },
};

export function compileFlatKey(def: FilterKeyDef, raw: unknown, field: string, ctx: FlatContext): IRNode | undefined {
  return COMPILERS[def.match](def, raw, field, ctx);
}

/** The main-role leaf, plus the same test on the secondary-role list column when asked for (ORed by the caller). */
function widen(ctx: FlatContext, leaf: Leaf): Leaf[] {
  const secondary = ctx.entity === 'contact' && ctx.secondaryRoles ? secondaryColumn(leaf.field) : undefined;
  return secondary === undefined ? [leaf] : [leaf, { ...leaf, field: secondary }];
}

function columnOf(def: FilterKeyDef): string {
  // A catalog entry without a column for a column-reading match is a programming error, not bad input.
  if (def.column === null) throw new Error(`filter key ${def.key} has no column`);
  return def.column;
}
