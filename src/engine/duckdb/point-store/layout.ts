/**
 * Contact cards: the card columns of a contact (catalog CONTACT_CARD_COLUMNS: the enrichment default
 * set, the lookup columns, the names and normalized company name, sort_key) as one JSON array, written by
 * DuckDB's json_array from the stored columns, so a decoded card equals the row read from the columns
 * (test/engine/point-store.test.ts checks every stored contact). The store records the layout it was written
 * with and is read by that layout: a store of an older layout answers the reads its cards cover, the others go
 * to the release's columns (cardCovers); a layout this build cannot read disables the store instead of
 * misreading it.
 */

/** The layout recorded in a point store's meta, or null (missing, or a value this build cannot read). */
export function parseCardLayout(value: unknown): readonly string[] | null {
  if (typeof value !== 'string') return null;
  try {
    const layout: unknown = JSON.parse(value);
    return Array.isArray(layout) &&
      layout.length > 0 &&
      layout.every((c) => typeof c === 'string') &&
      layout.includes('sort_key')
      ? (layout as string[])
      : null;
  } catch {
    return null;
  }
}

/** True when every requested column can be read from the card. */
export function cardCovers(layout: readonly string[] | null, columns: readonly string[]): layout is readonly string[] {
  return layout !== null && columns.every((c) => layout.includes(c));
}

/** Card texts decoded into the requested columns plus sort_key (as a page query answers). */
export function decodeCards(
  cards: readonly string[],
  layout: readonly string[],
  columns: readonly string[],
): Record<string, unknown>[] {
  const wanted = [...new Set([...columns, 'sort_key'])].map((name) => [name, layout.indexOf(name)] as const);
  return cards.map((text) => {
    const values = JSON.parse(text) as unknown[];
    const row: Record<string, unknown> = {};
    for (const [name, i] of wanted) row[name] = values[i] ?? null;
    return row;
  });
}
