import type { Rng } from './rng.js';

/** Picks values by weight with a cumulative table and a binary search: O(log n), no per-draw allocation. */
export class Weighted<T> {
  readonly values: readonly T[];
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(entries: ReadonlyArray<readonly [T, number]>) {
    const kept = entries.filter(([, w]) => w > 0);
    if (kept.length === 0) throw new Error('Weighted: no entry with a positive weight');
    this.values = kept.map(([v]) => v);
    this.cumulative = new Float64Array(kept.length);
    let sum = 0;
    kept.forEach(([, w], i) => {
      sum += w;
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pick(rng: Rng): T {
    const x = rng.float() * this.total;
    const cum = this.cumulative;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cum[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.values[lo]!;
  }
}

/** Builds a picker from a `{ value: weight }` record. */
export function weightedRecord(weights: Readonly<Record<string, number>>): Weighted<string> {
  return new Weighted(Object.entries(weights));
}
