import { type Bitset, countBits, setRowsFrom } from './bitset.js';

/**
 * The rows of one answered query, kept for the next count or page of the same query: a release never changes, so
 * neither do they (Elasticsearch keeps its request cache and cached filter bitsets for the same reason). A result
 * with few rows is kept as its sorted row ids rather than a bitset of the whole release.
 */
export interface CachedRows {
  readonly count: number;
  /** Row ids at or after `fromRow`, skipping the first `skip` of them, at most `limit` (as setRowsFrom). */
  rowsFrom(fromRow: number, skip: number, limit: number): number[];
}

class DenseRows implements CachedRows {
  constructor(
    private readonly bits: Bitset,
    readonly count: number,
  ) {}
  get bytes(): number {
    return this.bits.byteLength;
  }
  rowsFrom(fromRow: number, skip: number, limit: number): number[] {
    return setRowsFrom(this.bits, fromRow, skip, limit);
  }
}

class SparseRows implements CachedRows {
  constructor(private readonly rows: Int32Array) {}
  get count(): number {
    return this.rows.length;
  }
  get bytes(): number {
    return this.rows.byteLength;
  }
  rowsFrom(fromRow: number, skip: number, limit: number): number[] {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.rows[mid]! < fromRow) lo = mid + 1;
      else hi = mid;
    }
    const start = Math.min(this.rows.length, lo + skip);
    return Array.from(this.rows.subarray(start, Math.min(this.rows.length, start + Math.max(0, limit))));
  }
}

/** The rows of a bitset in the form that holds them in fewer bytes; the bitset is not kept when sparse. */
export function cachedRows(bits: Bitset): CachedRows & { bytes: number } {
  const count = countBits(bits);
  // Sorted ids take 4 bytes a row, the bitset 4 bytes a word of 32 rows.
  return count < bits.length
    ? new SparseRows(Int32Array.from(setRowsFrom(bits, 0, 0, count)))
    : new DenseRows(bits, count);
}

interface Entry {
  rows: CachedRows & { bytes: number };
  /** The suppression the rows were computed under: another one (an opt-out landed) is a miss. */
  scope: unknown;
  bytes: number;
}

/**
 * Query results of one release, least recently used out first, within a byte budget (keys count too). A result
 * larger than a quarter of the budget is not kept. Budget 0 keeps nothing.
 */
export class ResultCache {
  private readonly map = new Map<string, Entry>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly budget: number) {}

  get(key: string, scope: unknown): CachedRows | undefined {
    const hit = this.map.get(key);
    if (!hit || hit.scope !== scope) {
      this.misses++;
      return undefined;
    }
    this.map.delete(key);
    this.map.set(key, hit);
    this.hits++;
    return hit.rows;
  }

  /** Keeps the rows of a query (the bitset must not be written to afterwards); answers them in their kept form. */
  put(key: string, scope: unknown, bits: Bitset): CachedRows {
    const rows = cachedRows(bits);
    const bytes = rows.bytes + key.length * 2 + 64;
    if (bytes > this.budget / 4) return rows;
    const old = this.map.get(key);
    if (old) {
      this.map.delete(key);
      this.bytes -= old.bytes;
    }
    this.map.set(key, { rows, scope, bytes });
    this.bytes += bytes;
    for (const [k, v] of this.map) {
      if (this.bytes <= this.budget) break;
      this.map.delete(k);
      this.bytes -= v.bytes;
    }
    return rows;
  }

  get size(): number {
    return this.map.size;
  }
}
