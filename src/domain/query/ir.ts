/**
 * The one engine-neutral Query IR (ARCHITECTURE rule 2). Family A `filter` + `where`, family B flat
 * filters + `where_sql`, and MCP arguments all parse into it; engines compile it. Fields are catalog
 * column names (internal ones included); values are already normalized (slugs, bare domains, ...).
 *
 * Semantics, identical on every engine:
 * - a null / empty column never matches a value leaf (eq, in, gt, contains, words, prefix, ...);
 *   `neq` and `not_in` also require a value, so only `exists false` finds empties;
 * - `not` is the complement of its child, nulls included: `not (country in [us])` keeps rows without a
 *   country (family A `exclude_*` keys compile to it: "the NOT of its twin");
 * - on list columns: eq = the list holds the value; neq = it does not; in = holds any; not_in = holds none;
 *   contains / prefix = any element contains / starts with the text; gt/gte/lt/lte are not used;
 * - on record columns (JSON): contains = the record's text contains the value, case-insensitive;
 * - text comparisons of eq / in are exact (values are stored normalized); contains is case-insensitive;
 * - `words`: case-insensitive whole-word phrase match, punctuation between words allowed; on a list
 *   column, any element matches the phrase;
 * - `exists` true: the column has a value (non-null, non-empty string or list); false: it has none;
 * - case-insensitive means both sides lowercased code point by code point (domain/text/lower.ts: `Σ` is always `σ`,
 *   `İ` is `i`), as DuckDB's `lower()` and Lucene's `lowercase` filter do.
 */

export type Scalar = string | number | boolean;

export type LeafOp =
  | 'eq'
  | 'neq'
  | 'in'
  | 'not_in'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'contains'
  | 'prefix'
  | 'words'
  | 'exists';

export interface Leaf {
  field: string;
  op: LeafOp;
  /** Absent only for `exists` (then true). Arrays only for `in` / `not_in`. */
  value?: Scalar | Scalar[];
}

export type IRNode = { and: IRNode[] } | { or: IRNode[] } | { not: IRNode } | Leaf;

/** A query over one entity: the tree plus row-shaping that is not filtering. */
export interface QueryIR {
  entity: 'contact' | 'company';
  where: IRNode;
}

export const MATCH_ALL: IRNode = { and: [] };

/** A leaf's values as a list: the array of `in` / `not_in`, the one value of the others, none for `exists`. */
export function leafValues(leaf: Leaf): Scalar[] {
  return Array.isArray(leaf.value) ? leaf.value : leaf.value === undefined ? [] : [leaf.value];
}

export function isLeaf(n: IRNode): n is Leaf {
  return (n as Leaf).field !== undefined;
}

export function and(...nodes: IRNode[]): IRNode {
  const flat: IRNode[] = [];
  for (const n of nodes) {
    if ('and' in n && !isLeaf(n)) flat.push(...n.and);
    else flat.push(n);
  }
  return flat.length === 1 ? flat[0]! : { and: flat };
}

export function or(...nodes: IRNode[]): IRNode {
  return nodes.length === 1 ? nodes[0]! : { or: nodes };
}

export function not(node: IRNode): IRNode {
  return { not: node };
}

/** Number of leaves in a tree. */
export function leafCount(n: IRNode): number {
  if (isLeaf(n)) return 1;
  if ('and' in n) return n.and.reduce((s, c) => s + leafCount(c), 0);
  if ('or' in n) return n.or.reduce((s, c) => s + leafCount(c), 0);
  return leafCount(n.not);
}
