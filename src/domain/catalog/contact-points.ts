import { CONTACT_COLUMNS } from './contact-columns.js';
import type { ColumnDef } from './types.js';

/**
 * The columns whose values are what credits buy (catalog flag `contactPoint`: work email, phones). Free routes
 * (counts, export counts) must not reveal them, so filters on them take presence (`exists`) and exact-set
 * membership (`eq`, `in`) only: comparisons, prefixes and substrings would let a free count spell a value out one
 * character at a time. The same rule holds on every route, so the filter language does not change between count
 * and search.
 */
export const CONTACT_POINT_COLUMNS: readonly string[] = CONTACT_COLUMNS.filter((c) => c.contactPoint).map(
  (c) => c.name,
);

export function isContactPoint(col: ColumnDef): boolean {
  return col.contactPoint === true;
}
