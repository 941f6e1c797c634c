import { findColumn, type Entity } from '../../../domain/catalog/index.js';
import { isLeaf, type IRNode, type Leaf } from '../../../domain/query/ir.js';

/**
 * The leaves of a point read: an OR of `in` / `eq` leaves (or one such leaf) on the catalog's lookup
 * columns, as enrichment, the family B lookups and signal matching send them. Null for any other tree.
 * A point read is answered per leaf from an index (the point store, or DuckDB's ART indexes), not by
 * scanning the release.
 */
export function lookupBranches(entity: Entity, where: IRNode): Leaf[] | null {
  const leaves = isLeaf(where) ? [where] : 'or' in where ? where.or : null;
  if (!leaves || leaves.length === 0) return null;
  const ok = leaves.every((l) => isLeaf(l) && (l.op === 'in' || l.op === 'eq') && findColumn(entity, l.field, true)?.lookup === true);
  return ok ? (leaves as Leaf[]) : null;
}
