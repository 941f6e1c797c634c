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

/**
 * Where each element of a JSON array text starts and ends: `[start0, end0, start1, end1, …]`, ends exclusive, the
 * whitespace around an element left out. A card is DuckDB's json_array, valid JSON; strings are skipped to their closing
 * quote, so brackets and commas inside them are not read as structure. What is checked: the text is one array whose
 * strings and brackets close and whose elements other than strings, arrays and objects are JSON literals or numbers;
 * otherwise it throws (a damaged card fails its read, as JSON.parse would, and the page is read from the release).
 */
export function arrayElements(text: string): number[] {
  const out: number[] = [];
  let depth = 0;
  let start = -1;
  let last = -1;
  let i = 0;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== OPEN_ARRAY) throw new Error('a card is not a JSON array');
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (depth === 1 && start < 0) start = i;
      i = stringEnd(text, i);
      last = i;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 1 && start < 0) start = i;
      depth++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (depth === 0) {
        if (start >= 0 || out.length > 0) pushElement(out, text, start, last + 1);
        return out;
      }
      last = i;
    } else if (depth === 1 && c === COMMA) {
      pushElement(out, text, start, last + 1);
      start = -1;
    } else if (!isSpace(c)) {
      if (depth === 1 && start < 0) start = i;
      last = i;
    }
  }
  throw new Error('a card is an array that does not end');
}

/** Adds an element's bounds; throws when it is empty, or is none of a string, array, object, literal or number. */
function pushElement(out: number[], text: string, start: number, end: number): void {
  if (start < 0) throw new Error('a card holds an empty element');
  const c = text.charCodeAt(start);
  if (c !== QUOTE && c !== OPEN_ARRAY && c !== OPEN_OBJECT && !scalar(text, start, end))
    throw new Error('a card holds an element that is not JSON');
  out.push(start, end);
}

/** True when text[start, end) is a JSON literal or number (this runs for every element that is not text). */
function scalar(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  const n = end - start;
  if (c === 0x6e) return n === 4 && text.startsWith('null', start);
  if (c === 0x74) return n === 4 && text.startsWith('true', start);
  if (c === 0x66) return n === 5 && text.startsWith('false', start);
  // An integer (sort_key, counts) by its digits; anything else by the grammar.
  let digits = start;
  while (digits < end && text.charCodeAt(digits) >= 0x30 && text.charCodeAt(digits) <= 0x39) digits++;
  if (digits === end) return n === 1 || c !== 0x30;
  return NUMBER.test(text.slice(start, end));
}

/** A JSON number. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

const isSpace = (c: number): boolean => c === SPACE || c === TAB || c === LF || c === CR;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;

/** The index of the quote closing the JSON string that opens at `open`; throws when there is none. */
function stringEnd(text: string, open: number): number {
  let q = text.indexOf('"', open + 1);
  for (;;) {
    // A damaged card fails its read (as JSON.parse would), so the page is read from the release.
    if (q < 0) throw new Error('a card holds a string with no end');
    // A quote preceded by an odd number of backslashes is escaped.
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
}

/**
 * Card texts written as the JSON objects decodeCards would make of them, without sort_key: `{"column": value, …}` for
 * `columns` in order (each once), every value the card's own JSON text, so a page's rows are not parsed and serialized
 * again on their way into an answer. `JSON.parse` of each equals decodeCards' row without sort_key.
 */
export function renderCards(cards: readonly string[], layout: readonly string[], columns: readonly string[]): string[] {
  const wanted = [...new Set(columns)].filter((name) => name !== 'sort_key');
  const keys = wanted.map((name, j) => `${j === 0 ? '{' : ','}${JSON.stringify(name)}:`);
  const at = wanted.map((name) => layout.indexOf(name));
  if (wanted.length === 0) return cards.map(() => '{}');
  return cards.map((text) => {
    const bounds = arrayElements(text);
    // Joined once (a string built by `+` is flattened later, at a higher cost, when the answer is written).
    const parts = new Array<string>(2 * wanted.length + 1);
    for (let j = 0; j < wanted.length; j++) {
      const i = at[j]!;
      parts[2 * j] = keys[j]!;
      parts[2 * j + 1] = i >= 0 && 2 * i < bounds.length ? text.slice(bounds[2 * i]!, bounds[2 * i + 1]!) : 'null';
    }
    parts[2 * wanted.length] = '}';
    return parts.join('');
  });
}
