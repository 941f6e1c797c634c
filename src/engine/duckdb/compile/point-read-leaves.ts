import { type Entity, findColumn } from '../../../domain/catalog/index.js';
import { type IRNode, isLeaf, type Leaf, leafValues } from '../../../domain/query/ir.js';

/**
 * The leaves of a point read: an OR of `in` / `eq` leaves (or one such leaf) on the catalog's lookup
 * columns, as enrichment, the family B lookups and signal matching send them, with their fields as the
 * catalog names them. Null for any other tree. A point read is answered per leaf from an index (the point
 * store, or DuckDB's ART indexes), not by scanning the release.
 */
function lookupBranches(entity: Entity, where: IRNode): Leaf[] | null {
  const leaves = isLeaf(where) ? [where] : 'or' in where ? where.or : null;
  if (!leaves || leaves.length === 0) return null;
  const out: Leaf[] = [];
  for (const leaf of leaves) {
    if (!isLeaf(leaf) || !(leaf.op === 'in' || (leaf.op === 'eq' && leafValues(leaf).length === 1))) return null;
    const col = findColumn(entity, leaf.field, true);
    if (col?.lookup !== true) return null;
    out.push({ ...leaf, field: col.name });
  }
  return out;
}

/** The point-read leaves of a page: only a first page (no cursor, no offset) is a point read. */
export function pointReadLeaves(
  entity: Entity,
  where: IRNode,
  afterSortKey: number | null,
  offset: number,
): Leaf[] | null {
  return afterSortKey === null && offset === 0 ? lookupBranches(entity, where) : null;
}
