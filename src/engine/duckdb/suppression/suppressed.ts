import { DuckDBBitValue } from '@duckdb/node-api';
import { type Entity, findColumn } from '../../../domain/catalog/index.js';
import { type IRNode, type Leaf, leafValues, type Scalar } from '../../../domain/query/ir.js';
import { type Bitset, emptyBitset, setRows } from '../bitmap-index/bitset.js';
import { compileWhere, type LeafRewrite } from '../compile/compile-where.js';
import type { Params } from '../compile/params.js';

/**
 * The suppression list of a release, resolved (resolve.ts): the rows every read leaves out, as the index's bitsets
 * (bit r = sort_key r + 1, bitmap-index/bitset.ts) and as a DuckDB BIT value bound to the scans, plus what it takes
 * from the companies' contact counts. One immutable value per list and release: a query reads it once and uses it
 * for every statement it runs, so its count and its page agree.
 */
export interface Suppressed {
  /** The engine's list version this was resolved from. */
  version: number;
  /** Suppressed contacts. */
  count: number;
  /** Their rows. */
  contacts: Bitset;
  /** The same rows as a BIT value, bit i (from the left) = sort_key i + 1: `get_bit(value, sort_key - 1)`. */
  contactsBits: DuckDBBitValue;
  /** What the suppressed contacts take from their employers' stored `contact_count`; null when no company. */
  companies: CompanyCuts | null;
}

/**
 * Companies whose `contact_count` (stored at load: contacts whose `company_id` is the company's id) drops: a company
 * row's count is read as stored minus its cut, and a filter on it is evaluated on that.
 */
export interface CompanyCuts {
  /** Suppressed contacts per company row (sort_key - 1); 0 for the others. Its length is the companies' rows. */
  cut: Int32Array;
  /** Rows with a cut, ascending, and their contact_count once cut (parallel arrays). */
  rows: Int32Array;
  counts: Int32Array;
  /** The same rows as a bitset and as a BIT value. */
  affected: Bitset;
  affectedBits: DuckDBBitValue;
}

const REVERSED = Uint8Array.from({ length: 256 }, (_, i) => {
  let y = 0;
  for (let b = 0, x = i; b < 8; b++, x >>= 1) y = (y << 1) | (x & 1);
  return y;
});

/**
 * A bitset as a DuckDB BIT value of `rows` rounded up to a byte: DuckDB keeps a first byte counting padding bits
 * (none here) and then the bits from the most significant of each byte, where the bitset keeps bit r in bit r & 31
 * of word r >>> 5.
 */
export function bitValueOf(bits: Bitset, rows: number): DuckDBBitValue {
  const bytes = Math.ceil(rows / 8);
  const data = new Uint8Array(bytes + 1);
  for (let j = 0; j < bytes; j++) data[j + 1] = REVERSED[(bits[j >>> 2]! >>> ((j & 3) * 8)) & 0xff]!;
  return new DuckDBBitValue(data);
}

/** A bitset of `rows` rows with these rows (sort_key - 1) set. */
export function bitsetOf(rowIds: Int32Array, rows: number): Bitset {
  const b = emptyBitset(rows);
  setRows(b, rowIds);
  return b;
}

/** The scan's predicate keeping the rows a BIT value does not hold (every value bound, never client text). */
export function keptSql(bits: DuckDBBitValue, p: Params): string {
  return `get_bit(${p.addValue(bits)}, (sort_key - 1)::INTEGER) = 0`;
}

/** A contact predicate with the suppressed rows left out, or as is without a suppression. */
export function withoutSuppressed(pred: string, sup: Suppressed | null, p: Params): string {
  return sup ? `${pred} AND ${keptSql(sup.contactsBits, p)}` : pred;
}

/** The company column whose value suppression changes. */
export const CONTACT_COUNT = 'contact_count';

/** Whether a company leaf reads `contact_count` while a suppression cuts some (its rows need the cut values). */
export function cutsLeaf(leaf: Leaf, sup: Suppressed | null): sup is Suppressed & { companies: CompanyCuts } {
  return sup?.companies != null && findColumn('company', leaf.field, true)?.name === CONTACT_COUNT;
}

/** The rows of `cuts` whose count once cut matches a numeric leaf (the IR's semantics, domain/query/ir.ts). */
export function cutRowsMatching(leaf: Leaf, cuts: CompanyCuts): Bitset {
  const want = leafValues(leaf);
  const hit: number[] = [];
  for (let i = 0; i < cuts.rows.length; i++) if (numberMatches(leaf, want, cuts.counts[i]!)) hit.push(cuts.rows[i]!);
  return bitsetOf(Int32Array.from(hit), cuts.cut.length);
}

function numberMatches(leaf: Leaf, want: Scalar[], v: number): boolean {
  const one = Number(want[0]);
  const same = (w: Scalar) => v === Number(w);
  switch (leaf.op) {
    case 'exists':
      return leaf.value !== false;
    case 'eq':
      return same(one);
    case 'neq':
      return !same(one);
    case 'gt':
      return v > one;
    case 'gte':
      return v >= one;
    case 'lt':
      return v < one;
    case 'lte':
      return v <= one;
    case 'in':
      return want.some(same);
    case 'not_in':
      return !want.some(same);
    case 'contains':
    case 'prefix':
    case 'words':
      throw new Error(`IR op ${leaf.op} is not defined on number column ${leaf.field}`);
  }
}

/**
 * The scan's predicate of a `contact_count` leaf under a suppression: rows with a cut are decided by their cut count
 * (a BIT value of the rows that match, computed here), the others by the stored predicate.
 */
export function cutLeafSql(leaf: Leaf, cuts: CompanyCuts, storedSql: string, p: Params): string {
  const matching = bitValueOf(cutRowsMatching(leaf, cuts), cuts.cut.length);
  const row = '(sort_key - 1)::INTEGER';
  return (
    `(CASE WHEN get_bit(${p.addValue(cuts.affectedBits)}, ${row}) = 1 THEN get_bit(${p.addValue(matching)}, ${row}) = 1 ` +
    `ELSE ${storedSql} END)`
  );
}

/**
 * An entity's predicate as reads see it under a suppression: contacts without the suppressed rows; companies with
 * their `contact_count` leaves decided on the cut counts.
 */
export function visiblePredicate(entity: Entity, where: IRNode, p: Params, sup: Suppressed | null): string {
  const cuts = sup?.companies;
  const rewrite: LeafRewrite | undefined =
    entity === 'company' && cuts
      ? (leaf, stored) => (cutsLeaf(leaf, sup) ? cutLeafSql(leaf, cuts, stored, p) : stored)
      : undefined;
  const pred = compileWhere(entity, where, p, false, rewrite);
  return entity === 'contact' ? withoutSuppressed(pred, sup, p) : pred;
}

/** Company rows read with their contact_count as cut (in place; rows without the column are left as they are). */
export function cutCompanyRows(rows: Record<string, unknown>[], sup: Suppressed | null): void {
  const cuts = sup?.companies;
  if (!cuts) return;
  for (const r of rows) {
    if (!(CONTACT_COUNT in r) || typeof r.sort_key !== 'number') continue;
    const cut = cuts.cut[r.sort_key - 1] ?? 0;
    if (cut > 0) r[CONTACT_COUNT] = Number(r[CONTACT_COUNT]) - cut;
  }
}
