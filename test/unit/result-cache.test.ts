import fc from 'fast-check';
import { emptyBitset, setRows } from '../../src/engine/duckdb/bitmap-index/bitset.js';
import { cachedRows, ResultCache } from '../../src/engine/duckdb/bitmap-index/result-cache.js';

/** The index's kept query results against plain sorted lists of row ids. */
function bitsetOf(rows: number, ids: number[]): Int32Array {
  const b = emptyBitset(rows);
  setRows(b, Uint32Array.from(ids));
  return b;
}

/** What a page reads from a list of matching rows: at or after `from`, `skip` skipped, at most `limit`. */
function expected(ids: number[], from: number, skip: number, limit: number): number[] {
  return ids.filter((r) => r >= from).slice(skip, skip + Math.max(0, limit));
}

describe('query result cache', () => {
  it('kept rows (sparse ids or a bitset) page and count as the bitset they came from', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 3000 })
          .chain((rows) =>
            fc.tuple(
              fc.constant(rows),
              fc.uniqueArray(fc.integer({ min: 0, max: rows - 1 }), { maxLength: rows }),
              fc.integer({ min: 0, max: rows + 40 }),
              fc.integer({ min: 0, max: 200 }),
              fc.integer({ min: 0, max: 120 }),
            ),
          ),
        ([rows, ids, from, skip, limit]) => {
          const sorted = [...ids].sort((a, b) => a - b);
          const kept = cachedRows(bitsetOf(rows, ids));
          expect(kept.count).toBe(ids.length);
          expect(kept.rowsFrom(from, skip, limit)).toEqual(expected(sorted, from, skip, limit));
        },
      ),
    );
  });

  it('keeps few rows as ids (smaller than the bitset) and many as the bitset', () => {
    const rows = 32_000;
    const few = cachedRows(bitsetOf(rows, [5, 70, 31_999]));
    expect(few.bytes).toBe(3 * 4);
    const many = cachedRows(
      bitsetOf(
        rows,
        Array.from({ length: 5000 }, (_, i) => i * 6),
      ),
    );
    expect(many.bytes).toBe((rows / 32) * 4);
    expect(many.count).toBe(5000);
  });

  it('answers a query only under the suppression it was computed with', () => {
    const cache = new ResultCache(1 << 20);
    const before = { list: 1 };
    cache.put('contact:{"a":1}', before, bitsetOf(100, [1, 2, 3]));
    expect(cache.get('contact:{"a":1}', before)?.count).toBe(3);
    expect(cache.get('contact:{"a":1}', { list: 2 })).toBeUndefined();
    expect(cache.get('contact:{"a":1}', null)).toBeUndefined();
    expect(cache.get('contact:{"b":1}', before)).toBeUndefined();
    expect([cache.hits, cache.misses]).toEqual([1, 3]);
  });

  it('drops the least recently used results past its budget, and keeps nothing with budget 0', () => {
    // Each dense result of 32,000 rows is 4,000 bytes (+ key and overhead).
    const dense = () =>
      bitsetOf(
        32_000,
        Array.from({ length: 4000 }, (_, i) => i * 8),
      );
    const cache = new ResultCache(20_000);
    for (const k of ['a', 'b', 'c', 'd']) cache.put(k, null, dense());
    expect(cache.size).toBe(4);
    expect(cache.get('a', null)).toBeDefined(); // a is now the most recent
    cache.put('e', null, dense());
    expect(cache.get('b', null)).toBeUndefined();
    expect(cache.get('a', null)).toBeDefined();
    expect(cache.get('e', null)?.count).toBe(4000);

    const none = new ResultCache(0);
    const rows = none.put('a', null, dense());
    expect(rows.count).toBe(4000);
    expect(none.size).toBe(0);
    expect(none.get('a', null)).toBeUndefined();
  });
});
