import { type ColumnDef, type Entity, findColumn } from '../../../domain/catalog/index.js';
import { type IRNode, isLeaf, type Leaf, leafValues, type Scalar } from '../../../domain/query/ir.js';
import { wordsKey } from '../../../domain/text/words.js';
import { ident } from '../schema.js';
import type { Params } from './params.js';
import { phrasePattern } from './words.js';

/**
 * A leaf's predicate as the engine reads it when the stored column does not hold the value a read must see (a
 * company's contact_count under a suppression, suppression/suppressed.ts): given the stored predicate, the one to use.
 */
export type LeafRewrite = (leaf: Leaf, stored: string) => string;

/**
 * Query IR -> a parameterized DuckDB predicate (ARCHITECTURE rule 2). Semantics are those documented in
 * domain/query/ir.ts; every value is a bound parameter. Unknown fields are a programming error here:
 * the parsers check fields against the catalog before the IR reaches an engine.
 */
export function compileWhere(
  entity: Entity,
  node: IRNode,
  params: Params,
  nullSafe = false,
  rewrite?: LeafRewrite,
): string {
  if (isLeaf(node)) {
    const stored = compileLeaf(entity, node, params);
    const sql = rewrite ? rewrite(node, stored) : stored;
    // Under a `not`, a leaf on a null column must be false (not SQL NULL) so that `not` keeps that row.
    return nullSafe ? `coalesce(${sql}, FALSE)` : sql;
  }
  if ('and' in node)
    return node.and.length === 0
      ? 'TRUE'
      : `(${node.and.map((n) => compileWhere(entity, n, params, nullSafe, rewrite)).join(' AND ')})`;
  if ('or' in node)
    return node.or.length === 0
      ? 'FALSE'
      : `(${node.or.map((n) => compileWhere(entity, n, params, nullSafe, rewrite)).join(' OR ')})`;
  return `(NOT ${compileWhere(entity, node.not, params, true, rewrite)})`;
}

function column(entity: Entity, field: string): ColumnDef {
  const col = findColumn(entity, field, true);
  if (!col) throw new Error(`IR field ${field} is not a ${entity} column`);
  return col;
}

const scalarType = (col: ColumnDef): 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' =>
  col.storage === 'BIGINT'
    ? 'BIGINT'
    : col.storage === 'DOUBLE'
      ? 'DOUBLE'
      : col.storage === 'BOOLEAN'
        ? 'BOOLEAN'
        : 'VARCHAR';

function one(leaf: Leaf): Scalar {
  const v = leafValues(leaf);
  if (v.length !== 1) throw new Error(`IR leaf ${leaf.field} ${leaf.op} needs one value`);
  return v[0]!;
}

const SHORT_IN = 1000;

const CMP = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function compileLeaf(entity: Entity, leaf: Leaf, p: Params): string {
  const col = column(entity, leaf.field);
  const c = ident(col.name);
  if (col.storage === 'VARCHAR[]') return compileListLeaf(c, leaf, p, col.words);
  const present =
    col.storage === 'VARCHAR' || col.storage === 'JSON'
      ? `(${c} IS NOT NULL AND ${c} NOT IN ('', '[]', '{}', 'null'))`
      : `(${c} IS NOT NULL)`;
  switch (leaf.op) {
    case 'exists':
      return leaf.value === false ? `(NOT ${present})` : present;
    case 'eq':
    case 'neq':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return `(${c} ${CMP[leaf.op]} ${p.add(one(leaf))})`;
    case 'in':
    case 'not_in': {
      const list = leafValues(leaf);
      if (list.length === 0) return leaf.op === 'in' ? 'FALSE' : `(${c} IS NOT NULL)`;
      // As IN (...) so DuckDB pushes the filter into the scan or answers it from a lookup index.
      const set = list.length <= SHORT_IN ? `(${list.map((v) => p.add(v)).join(', ')})` : null;
      if (set) return leaf.op === 'in' ? `(${c} IN ${set})` : `(${c} NOT IN ${set})`;
      return (
        `(${leaf.op === 'in' ? '' : 'NOT '}list_contains(${p.addList(list, scalarType(col))}, ${c}) AND ${c} IS NOT ` +
        `NULL)`
      );
    }
    case 'contains':
      return `contains(lower(${c}), lower(${p.add(String(one(leaf)))}))`;
    case 'prefix':
      return `starts_with(lower(${c}), lower(${p.add(String(one(leaf)))}))`;
    case 'words': {
      if (col.words) {
        const key = wordsKey(String(one(leaf)));
        return key ? `contains(${ident(col.words)}, ${p.add(key)})` : 'FALSE';
      }
      const pattern = phrasePattern(String(one(leaf)));
      return pattern ? `regexp_matches(${c}, ${p.add(pattern)}, 'i')` : 'FALSE';
    }
  }
}

/** List columns: eq = holds the value, in = holds any, contains / prefix / words = any element matches. */
function compileListLeaf(c: string, leaf: Leaf, p: Params, words?: string): string {
  const nonEmpty = `(${c} IS NOT NULL AND len(${c}) > 0)`;
  switch (leaf.op) {
    case 'exists':
      return leaf.value === false ? `(NOT ${nonEmpty})` : nonEmpty;
    case 'eq':
      return `list_contains(${c}, ${p.add(String(one(leaf)))})`;
    case 'neq':
      return `(${nonEmpty} AND NOT list_contains(${c}, ${p.add(String(one(leaf)))}))`;
    case 'in':
      return holdsAny(c, leafValues(leaf).map(String), p);
    case 'not_in':
      return `(${nonEmpty} AND NOT ${holdsAny(c, leafValues(leaf).map(String), p)})`;
    case 'contains':
      return `(${nonEmpty} AND len(list_filter(${c}, x -> contains(lower(x), lower(${p.add(String(one(leaf)))})))) > 0)`;
    case 'prefix':
      return (
        `(${nonEmpty} AND len(list_filter(${c}, x -> starts_with(lower(x), lower(${p.add(String(one(leaf)))})))) > ` +
        `0)`
      );
    case 'words': {
      if (words) {
        const key = wordsKey(String(one(leaf)));
        return key
          ? `(${ident(words)} IS NOT NULL AND len(list_filter(${ident(words)}, x -> contains(x, ${p.add(key)}))) > 0)`
          : 'FALSE';
      }
      const pattern = phrasePattern(String(one(leaf)));
      return pattern
        ? `(${nonEmpty} AND len(list_filter(${c}, x -> regexp_matches(x, ${p.add(pattern)}, 'i'))) > 0)`
        : 'FALSE';
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      throw new Error(`IR op ${leaf.op} is not defined on list column ${leaf.field}`);
  }
}

/** A list holding any of the values: an OR of list_contains measured 3-4x faster than list_has_any for short lists. */
function holdsAny(c: string, vals: readonly string[], p: Params): string {
  if (vals.length === 0) return 'FALSE';
  if (vals.length > 16) return `list_has_any(${c}, ${p.addList(vals, 'VARCHAR')})`;
  return `(${vals.map((v) => `list_contains(${c}, ${p.add(v)})`).join(' OR ')})`;
}
