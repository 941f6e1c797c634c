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

/** The element bounds cardElements finds: `n` offsets in `at`, `[start0, end0, start1, end1, …]`, reused card by card. */
export class CardBounds {
  n = 0;
  at = new Int32Array(128);

  push(start: number, end: number): void {
    if (this.n + 2 > this.at.length) {
      const grown = new Int32Array(2 * this.at.length);
      grown.set(this.at);
      this.at = grown;
    }
    this.at[this.n++] = start;
    this.at[this.n++] = end;
  }
}

/**
 * Where each element of the card (a JSON array) that opens at `bytes[from]` starts and ends, as byte offsets into
 * `bounds` (cleared first), ends exclusive, the whitespace around an element left out. Returns the offset just past
 * the card's closing bracket. A card is DuckDB's json_array, valid JSON in UTF-8;
 * strings are skipped to their closing quote, so brackets and commas inside them are not read as structure (a byte of
 * a multi-byte character is never one of JSON's ASCII structure bytes). What is checked: the card is one array whose
 * strings and brackets close and whose elements other than strings, arrays and objects are JSON literals or numbers;
 * otherwise it throws (a damaged card fails its read, as JSON.parse would, and the page is read from the release).
 */
export function cardElements(bytes: Uint8Array, from: number, bounds: CardBounds): number {
  bounds.n = 0;
  const len = bytes.length;
  let depth = 0;
  let start = -1;
  let last = -1;
  let i = from;
  while (i < len && isSpace(bytes[i]!)) i++;
  if (bytes[i] !== OPEN_ARRAY) throw new Error('a card is not a JSON array');
  for (; i < len; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) {
      if (depth === 1 && start < 0) start = i;
      i = stringEnd(bytes, i);
      last = i;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (depth === 1 && start < 0) start = i;
      depth++;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (depth === 0) {
        if (start >= 0 || bounds.n > 0) pushElement(bounds, bytes, start, last + 1);
        return i + 1;
      }
      last = i;
    } else if (depth === 1 && c === COMMA) {
      pushElement(bounds, bytes, start, last + 1);
      start = -1;
    } else if (!isSpace(c)) {
      if (depth === 1 && start < 0) start = i;
      last = i;
    }
  }
  throw new Error('a card is an array that does not end');
}

/** Adds an element's bounds; throws when it is empty, or is none of a string, array, object, literal or number. */
function pushElement(out: CardBounds, bytes: Uint8Array, start: number, end: number): void {
  if (start < 0) throw new Error('a card holds an empty element');
  const c = bytes[start];
  if (c !== QUOTE && c !== OPEN_ARRAY && c !== OPEN_OBJECT && !scalar(bytes, start, end))
    throw new Error('a card holds an element that is not JSON');
  out.push(start, end);
}

/** True when bytes[start, end) are a JSON literal or number (this runs for every element that is not text). */
function scalar(bytes: Uint8Array, start: number, end: number): boolean {
  const c = bytes[start];
  const n = end - start;
  if (c === 0x6e) return n === 4 && bytesAre(bytes, start, NULL);
  if (c === 0x74) return n === 4 && bytesAre(bytes, start, TRUE);
  if (c === 0x66) return n === 5 && bytesAre(bytes, start, FALSE);
  // An integer (sort_key, counts) by its digits; anything else by the grammar.
  let digits = start;
  while (digits < end && isDigit(bytes[digits]!)) digits++;
  if (digits === end) return n === 1 || c !== 0x30;
  return NUMBER.test(latin1(bytes, start, end));
}

function bytesAre(bytes: Uint8Array, at: number, word: Uint8Array): boolean {
  for (let k = 0; k < word.length; k++) if (bytes[at + k] !== word[k]) return false;
  return true;
}
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** ASCII bytes (a number's) as a string. */
const latin1 = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, end));
const NULL = new TextEncoder().encode('null');
const TRUE = new TextEncoder().encode('true');
const FALSE = new TextEncoder().encode('false');

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

/** The offset of the quote closing the JSON string that opens at `open`; throws when there is none. */
function stringEnd(bytes: Uint8Array, open: number): number {
  const len = bytes.length;
  let i = open + 1;
  while (i < len) {
    const c = bytes[i]!;
    if (c === QUOTE) return i;
    // An escape takes the byte after the backslash with it (an escaped quote or backslash).
    i += c === BACKSLASH ? 2 : 1;
  }
  // A damaged card fails its read (as JSON.parse would), so the page is read from the release.
  throw new Error('a card holds a string with no end');
}

/** A page's rows written as JSON objects from their cards (renderCards). */
export interface RenderedCards {
  /** The rows' objects one after another, a comma between each two: rows [0, k) are bytes [0, ends[k - 1]). */
  bytes: Buffer;
  /** Where each row's object ends (exclusive). */
  ends: number[];
  /** Each row's sort_key, read from its card. */
  sortKeys: number[];
}

/**
 * Cards (their JSON arrays as UTF-8, one after another with a comma between each two, as the point store reads a
 * page's cards in one statement) written as the JSON objects decodeCards would make of them, without sort_key:
 * `{"column": value, …}` for `columns` in order (each once), every value the card's own bytes. So a page's rows are
 * neither decoded from UTF-8, parsed nor serialized again on their way into an answer. `JSON.parse` of each object
 * equals decodeCards' row without sort_key.
 */
export function renderCards(
  cards: Uint8Array,
  layout: readonly string[],
  columns: readonly string[],
  /** How many cards there are (at most): the output is sized once for them. */
  rows: number,
): RenderedCards {
  const wanted = [...new Set(columns)].filter((name) => name !== 'sort_key');
  const keys = wanted.map((name, j) => Buffer.from(`${j === 0 ? '{' : ','}${JSON.stringify(name)}:`));
  const columnAt = wanted.map((name) => layout.indexOf(name));
  const sortKeyAt = layout.indexOf('sort_key');
  // A card's own bytes, plus its keys, braces and the nulls of columns its layout lacks.
  const overhead = keys.reduce((n, k) => n + k.length + NULL.length, 2);
  // Grown (copied) only when `rows` was short of the cards.
  let out = Buffer.allocUnsafe(cards.length + Math.max(1, rows) * overhead);
  let pos = 0;
  const ends: number[] = [];
  const sortKeys: number[] = [];
  const bounds = new CardBounds();
  let i = 0;
  while (i < cards.length) {
    const next = cardElements(cards, i, bounds);
    if (out.length < pos + (next - i) + overhead) {
      const grown = Buffer.allocUnsafe(2 * (out.length + (next - i) + overhead));
      out.copy(grown, 0, 0, pos);
      out = grown;
    }
    if (ends.length > 0) out[pos++] = COMMA;
    if (wanted.length === 0) {
      out[pos++] = OPEN_OBJECT;
      out[pos++] = CLOSE_OBJECT;
    }
    const at = bounds.at;
    for (let j = 0; j < wanted.length; j++) {
      pos = put(out, pos, keys[j]!, 0, keys[j]!.length);
      const e = columnAt[j]!;
      pos = e >= 0 && 2 * e < bounds.n ? put(out, pos, cards, at[2 * e]!, at[2 * e + 1]!) : put(out, pos, NULL, 0, 4);
    }
    if (wanted.length > 0) out[pos++] = CLOSE_OBJECT;
    ends.push(pos);
    const k = sortKeyAt;
    sortKeys.push(k >= 0 && 2 * k < bounds.n ? numberAt(cards, at[2 * k]!, at[2 * k + 1]!) : Number.NaN);
    i = next;
    while (i < cards.length && isSpace(cards[i]!)) i++;
    if (i < cards.length && cards[i++] !== COMMA) throw new Error('cards are not separated by commas');
  }
  return { bytes: out.subarray(0, pos), ends, sortKeys };
}

/** Copies bytes[start, end) into out at pos; returns the offset after them. Short runs byte by byte (cheaper than a call). */
function put(out: Buffer, pos: number, bytes: Uint8Array, start: number, end: number): number {
  if (end - start > 32) {
    out.set(bytes.subarray(start, end), pos);
    return pos + end - start;
  }
  for (let k = start; k < end; k++) out[pos++] = bytes[k]!;
  return pos;
}

/** The JSON number at bytes[start, end) (a sort_key: its digits). */
function numberAt(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let k = start; k < end; k++) {
    const c = bytes[k]!;
    if (!isDigit(c)) return Number(latin1(bytes, start, end));
    n = n * 10 + (c - 0x30);
  }
  return n;
}
