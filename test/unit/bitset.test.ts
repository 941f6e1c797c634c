import fc from 'fast-check';
import {
  andInto,
  andNotInto,
  countBits,
  emptyBitset,
  fullBitset,
  invert,
  orInto,
  setRows,
  setRowsFrom,
} from '../../src/engine/duckdb/bitmap-index/bitset.js';

/** The index's bitsets against plain sets of row ids, over sizes around word boundaries. */
const sizes = fc.oneof(fc.integer({ min: 1, max: 200 }), fc.constantFrom(31, 32, 33, 63, 64, 65, 1000));
const setOf = (rows: number) => fc.uniqueArray(fc.integer({ min: 0, max: rows - 1 }), { maxLength: rows });

function bitsetOf(rows: number, ids: number[]): Int32Array {
  const b = emptyBitset(rows);
  setRows(b, Uint32Array.from(ids));
  return b;
}
const sorted = (ids: Iterable<number>): number[] => [...ids].sort((a, b) => a - b);

describe('bitsets', () => {
  it('and, or, and-not, complement and count agree with sets', () => {
    fc.assert(
      fc.property(
        sizes.chain((rows) => fc.tuple(fc.constant(rows), setOf(rows), setOf(rows))),
        ([rows, xs, ys]) => {
          const x = new Set(xs);
          const y = new Set(ys);
          const all = Array.from({ length: rows }, (_, i) => i);
          const check = (b: Int32Array, want: number[]) => {
            expect(countBits(b)).toBe(want.length);
            expect(setRowsFrom(b, 0, 0, rows + 1)).toEqual(want);
          };
          const and = bitsetOf(rows, xs);
          andInto(and, bitsetOf(rows, ys));
          check(and, sorted(xs.filter((i) => y.has(i))));
          const or = bitsetOf(rows, xs);
          orInto(or, bitsetOf(rows, ys));
          check(or, sorted(new Set([...xs, ...ys])));
          const minus = bitsetOf(rows, xs);
          andNotInto(minus, bitsetOf(rows, ys));
          check(minus, sorted(xs.filter((i) => !y.has(i))));
          const not = bitsetOf(rows, xs);
          invert(not, rows);
          check(
            not,
            all.filter((i) => !x.has(i)),
          );
          check(fullBitset(rows), all);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('walks set rows from a row, past an offset, up to a limit', () => {
    fc.assert(
      fc.property(
        sizes.chain((rows) =>
          fc.tuple(
            fc.constant(rows),
            setOf(rows),
            fc.integer({ min: 0, max: rows + 40 }),
            fc.integer({ min: 0, max: 80 }),
            fc.integer({ min: 0, max: 80 }),
          ),
        ),
        ([rows, xs, from, skip, limit]) => {
          const want = sorted(xs)
            .filter((i) => i >= from)
            .slice(skip, skip + limit);
          expect(setRowsFrom(bitsetOf(rows, xs), from, skip, limit)).toEqual(want);
        },
      ),
      { numRuns: 400 },
    );
  });
});
