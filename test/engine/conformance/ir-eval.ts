import { type ColumnDef, type Entity, findColumn } from '../../../src/domain/catalog/index.js';
import type { IRNode, Leaf, Scalar } from '../../../src/domain/query/ir.js';
import { foldCase, type Row, wordsMatch } from '../../helpers/rows.js';

/**
 * The Query IR's documented semantics (src/domain/query/ir.ts), evaluated in plain JS over stored rows: the
 * independent answer every engine must give. Written from the documentation, not from any compiler.
 */
export function matches(entity: Entity, node: IRNode, row: Row): boolean {
  if ('and' in node) return node.and.every((n) => matches(entity, n, row));
  if ('or' in node) return node.or.some((n) => matches(entity, n, row));
  if ('not' in node) return !matches(entity, node.not, row);
  return leafMatches(entity, node, row);
}

const num = (v: unknown): number => (typeof v === 'bigint' ? Number(v) : (v as number));
const values = (leaf: Leaf): Scalar[] =>
  Array.isArray(leaf.value) ? leaf.value : leaf.value === undefined ? [] : [leaf.value];

/** A value is there: not null, and for text not empty (an empty record or list text counts as empty). */
function present(col: ColumnDef, v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'string' && (col.storage === 'VARCHAR' || col.storage === 'JSON'))
    return !['', '[]', '{}', 'null'].includes(v);
  return true;
}

function leafMatches(entity: Entity, leaf: Leaf, row: Row): boolean {
  const col = findColumn(entity, leaf.field, true);
  if (!col) throw new Error(`unknown ${entity} field ${leaf.field}`);
  const v = row[col.name];
  if (leaf.op === 'exists') return (leaf.value !== false) === present(col, v);
  if (!present(col, v) && col.storage !== 'VARCHAR') return false;
  if (v === null || v === undefined) return false;
  const want = values(leaf);
  const one = want[0];
  if (col.storage === 'VARCHAR[]') {
    const list = v as string[];
    if (list.length === 0) return false;
    switch (leaf.op) {
      case 'eq':
        return list.includes(String(one));
      case 'neq':
        return !list.includes(String(one));
      case 'in':
        return want.some((w) => list.includes(String(w)));
      case 'not_in':
        return !want.some((w) => list.includes(String(w)));
      case 'contains':
        return list.some((x) => foldCase(x).includes(foldCase(String(one))));
      case 'prefix':
        return list.some((x) => foldCase(x).startsWith(foldCase(String(one))));
      case 'words':
        return list.some((x) => wordsMatch(x, String(one)));
      default:
        throw new Error(`${leaf.op} is not defined on list column ${col.name}`);
    }
  }
  const numeric = col.storage === 'BIGINT' || col.storage === 'DOUBLE';
  const cmp = (w: Scalar): number => {
    if (numeric) return num(v) - Number(w);
    const a = String(v);
    const b = String(w);
    return a < b ? -1 : a > b ? 1 : 0;
  };
  const same = (w: Scalar): boolean => (col.storage === 'BOOLEAN' ? v === w : cmp(w) === 0);
  switch (leaf.op) {
    case 'eq':
      return same(one!);
    case 'neq':
      return !same(one!);
    case 'gt':
      return cmp(one!) > 0;
    case 'gte':
      return cmp(one!) >= 0;
    case 'lt':
      return cmp(one!) < 0;
    case 'lte':
      return cmp(one!) <= 0;
    case 'in':
      return want.some(same);
    case 'not_in':
      return !want.some(same);
    case 'contains':
      return foldCase(String(v)).includes(foldCase(String(one)));
    case 'prefix':
      return foldCase(String(v)).startsWith(foldCase(String(one)));
    case 'words':
      return wordsMatch(String(v), String(one));
  }
}
