import type { ColumnDef } from './types.js';

/**
 * The columns whose values are what credits buy: a contact's work email and phones. Free routes (counts, export
 * counts) must not reveal them, so filters on them take presence (`exists`) and exact-set membership (`eq`, `in`)
 * only: comparisons, prefixes and substrings would let a free count spell a value out one character at a time.
 * The same rule holds on every route, so the filter language does not change between count and search.
 */
export const CONTACT_POINT_COLUMNS: ReadonlySet<string> = new Set(['work_email', 'mobile_phone', 'direct_phone']);

export function isContactPoint(col: ColumnDef): boolean {
  return col.entity === 'contact' && CONTACT_POINT_COLUMNS.has(col.name);
}
