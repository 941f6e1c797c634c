/**
 * The numbers a filter takes: finite and within ±1e18. Stored numbers (counts, USD amounts, years, rates) are far
 * inside it, and every engine can compare with any value inside it (DuckDB's BIGINT and Elasticsearch's `long`
 * end near 9.2e18); a value beyond it is refused at the edge with the caller's field, never sent to an engine.
 */
export const FILTER_NUMBER_LIMIT = 1e18;

export function inFilterRange(n: number): boolean {
  return Number.isFinite(n) && Math.abs(n) <= FILTER_NUMBER_LIMIT;
}

export const FILTER_NUMBER_RANGE_TEXT = 'between -1e18 and 1e18';

/**
 * A filter number as the Query IR holds it: -0 becomes 0. JSON has no negative zero, so an IR holding one would not
 * survive its own serialization (a cursor's query hash, a job's payload); every engine compares the two as equal.
 */
export function filterNumber(n: number): number {
  return n === 0 ? 0 : n;
}
