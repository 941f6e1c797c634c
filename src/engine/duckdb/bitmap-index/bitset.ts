/**
 * Dense bitsets over a release's rows: bit r is the row whose sort_key is r + 1 (sort_key numbers the rows 1..n in
 * id order after a full load; a delta's patch leaves some positions empty, format.ts `live`), so the stable order is
 * the bit order and a first page is the first set bits. Every query the index
 * answers is evaluated into one of these; at 10 M rows a bitset is 1.25 MB and one pass over it well under a
 * millisecond, so a filter of a dozen leaves costs a few passes, whatever its selectivity. Words are Int32 so V8
 * keeps them as small integers (a Uint32Array read above 2^31 is a heap double: passes ran 2-3x slower).
 */
export type Bitset = Int32Array;

export const wordsFor = (rows: number): number => Math.ceil(rows / 32);

export function emptyBitset(rows: number): Bitset {
  return new Int32Array(wordsFor(rows));
}

/** Every row set (the bits past the last row stay clear, so counts and complements stay exact). */
export function fullBitset(rows: number): Bitset {
  const b = new Int32Array(wordsFor(rows));
  fillRows(b, rows);
  return b;
}

/** Sets every row of a bitset. */
export function fillRows(b: Bitset, rows: number): void {
  b.fill(-1);
  clearTail(b, rows);
}

function clearTail(b: Bitset, rows: number): void {
  const rem = rows % 32;
  if (rem !== 0) b[b.length - 1] = b[b.length - 1]! & (2 ** rem - 1);
}

/** Sets the rows of a sorted (or unsorted) list of row ids. */
export function setRows(b: Bitset, rows: Uint32Array | Int32Array): void {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    b[r >>> 5]! |= 1 << (r & 31);
  }
}

export function orInto(target: Bitset, other: Bitset): void {
  for (let i = 0; i < target.length; i++) target[i]! |= other[i]!;
}

export function andInto(target: Bitset, other: Bitset): void {
  for (let i = 0; i < target.length; i++) target[i]! &= other[i]!;
}

/** target = target AND NOT other. */
export function andNotInto(target: Bitset, other: Bitset): void {
  for (let i = 0; i < target.length; i++) target[i]! &= ~other[i]!;
}

/** The complement within the release's rows, in place. */
export function invert(b: Bitset, rows: number): void {
  for (let i = 0; i < b.length; i++) b[i] = ~b[i]!;
  clearTail(b, rows);
}

function popcount32(x: number): number {
  let v = x - ((x >> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >> 2) & 0x33333333);
  v = (v + (v >> 4)) & 0x0f0f0f0f;
  return Math.imul(v, 0x01010101) >>> 24;
}

export function countBits(b: Bitset): number {
  let n = 0;
  for (let i = 0; i < b.length; i++) {
    const w = b[i]!;
    if (w !== 0) n += popcount32(w);
  }
  return n;
}

/**
 * Row ids of set bits in ascending order: those at or after `fromRow`, skipping the first `skip` of them, at
 * most `limit`.
 */
export function setRowsFrom(b: Bitset, fromRow: number, skip: number, limit: number): number[] {
  const out: number[] = [];
  if (limit <= 0) return out;
  let toSkip = skip;
  let wi = fromRow >>> 5;
  if (wi >= b.length) return out;
  // The first word without the bits before fromRow.
  let w = b[wi]! & ~(2 ** (fromRow & 31) - 1);
  for (;;) {
    if (w !== 0) {
      // Whole words are skipped by their popcount while an offset is being walked.
      const n = popcount32(w);
      if (toSkip >= n) {
        toSkip -= n;
        w = 0;
      } else {
        while (w !== 0) {
          const low = w & -w;
          const bit = 31 - Math.clz32(low);
          w ^= low;
          if (toSkip > 0) {
            toSkip--;
            continue;
          }
          out.push(wi * 32 + bit);
          if (out.length === limit) return out;
        }
      }
    }
    wi++;
    if (wi >= b.length) return out;
    w = b[wi]!;
  }
}
