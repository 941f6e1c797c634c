/**
 * Contact cards: at load each contact gets an internal `card` column holding its card columns
 * (catalog CONTACT_CARD_COLUMNS: the enrichment default set, the lookup columns, sort_key) as one JSON
 * array. A point read of scattered rows from a columnar file costs one decompression per row and column;
 * reading the card instead of twenty columns made 100 enrichment inputs ~5x faster (bench/enrich-bench).
 *
 * The release stores the layout it was written with under CARD_META_KEY; a release without it (written
 * before cards existed) is read column by column, and a layout change never misreads an older release.
 * The card holds exactly what the columns hold (json_array of the same expressions), so a decoded card
 * equals the row read from the columns; test/engine/card.test.ts checks that on every stored contact.
 */

export const CARD_META_KEY = 'contact_card_columns';

/** The layout recorded in the release's meta value, or null (no cards, or a value this build cannot read). */
export function parseCardLayout(value: unknown): readonly string[] | null {
  if (typeof value !== 'string') return null;
  try {
    const layout: unknown = JSON.parse(value);
    return Array.isArray(layout) && layout.length > 0 && layout.every((c) => typeof c === 'string') && layout.includes('sort_key') ? (layout as string[]) : null;
  } catch {
    return null;
  }
}

/** True when every requested column can be read from the card. */
export function cardCovers(layout: readonly string[] | null, columns: readonly string[]): layout is readonly string[] {
  return layout !== null && columns.every((c) => layout.includes(c));
}

/** Rows holding `card` text, decoded into the requested columns plus sort_key (as a page query answers). */
export function decodeCards(rows: readonly Record<string, unknown>[], layout: readonly string[], columns: readonly string[]): Record<string, unknown>[] {
  const wanted = [...new Set([...columns, 'sort_key'])].map((name) => [name, layout.indexOf(name)] as const);
  return rows.map((r) => {
    const values = JSON.parse(String(r.card)) as unknown[];
    const row: Record<string, unknown> = {};
    for (const [name, i] of wanted) row[name] = values[i] ?? null;
    return row;
  });
}
