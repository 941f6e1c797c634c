import { type ColumnDef, columnsOf, type Entity, filterKeysOf } from '../../../domain/catalog/index.js';

/**
 * The bitmap index of a release: a file beside the DuckDB file (`<id>.index`), written by the loader and then
 * only read. It holds posting lists (the rows holding a value) for the columns filters select on, so the
 * indexable part of a query is answered by set operations on bitsets instead of a scan (plan.ts):
 * - per column, the rows where it `exists` (the compiler's own `exists` semantics) and where it is not null;
 * - per term column (term-columns below), one posting per distinct value (list columns: per element), with the
 *   values sorted so ranges (numbers, dates, months) are a slice of the dictionary; the columns the catalog marks
 *   for substrings are term columns too, so a substring is the union of the values holding it;
 * - per column with a words companion (title), one posting per word, word pair and word triple of its text, so a
 *   whole-word phrase of up to three words is one posting.
 *
 * Layout: 8 bytes magic, 8 bytes header offset (float64 LE), the postings and the dictionaries' offset and count
 * arrays (ArrayRef; 4-byte aligned), then the header (UTF-8 JSON, IndexHeader, those arrays as ArrayRefs) to the end
 * of the file. A posting of `cnt` rows of a `rows`-row table is stored as
 * nothing when it is empty or holds every row, as a bitset (wordsFor(rows) uint32 words) when cnt > rows / 32,
 * and as the ascending row ids (cnt uint32) otherwise: never more than 4 bytes per row it holds.
 */

export const INDEX_MAGIC = 'CDSIDX1\n';
export const INDEX_VERSION = 2;
/** The version of a file whose entities may have positions without a row (EntityHeader.live): older readers refuse it. */
export const INDEX_VERSION_LIVE = 3;
/** A phrase of at most this many words is one posting (word n-grams are indexed up to it). */
export const NGRAM_MAX = 3;
/** Ordered columns with more distinct values than this get range blocks, about this many rows / RANGE_BLOCKS each. */
export const RANGE_TERMS_MIN = 64;
export const RANGE_BLOCKS = 16;

/** [byte offset, row count] of one posting. */
export type PostingRef = [number, number];
export type Term = string | number | boolean;

export interface TermsHeader {
  /** Distinct values, ascending (compareTerms). */
  values: Term[];
  /** Byte offset and row count of each value's posting. */
  off: ArrayLike<number>;
  cnt: ArrayLike<number>;
}

/**
 * [byte offset, length] of an array kept in the file outside the JSON header: a dictionary's posting offsets
 * (float64) and row counts (int32). At 10 M contacts the dictionaries hold millions of values; as JSON numbers
 * their offsets and counts made the header 200 MB and its parse 1.7 s and 1.2 GB.
 */
export type ArrayRef = [number, number];

/** A dictionary as the file's header holds it: its offsets and counts as ArrayRefs. */
export interface StoredTerms {
  values: Term[];
  off: ArrayRef;
  cnt: ArrayRef;
}

/**
 * Range blocks of an ordered column with many values: prefix[j] holds the rows whose value sorts before the term at
 * dictionary position at[j]. A range is then two prefixes and the postings between a prefix and its end, so its cost
 * does not grow with the number of values it spans.
 */
export interface RangesHeader {
  at: number[];
  prefix: PostingRef[];
}

/** One column's part of the index; `T` is a dictionary as held in memory (TermsHeader) or in the file (StoredTerms). */
export interface ColumnHeader<T = TermsHeader> {
  present: PostingRef;
  notnull: PostingRef;
  terms?: T;
  ranges?: RangesHeader;
  /** Word n-grams (words joined by one space) of the column's words companion. */
  ngrams?: T;
  /** Three-character substrings of the lowercased value (catalog `substrings: true`). */
  trigrams?: T;
}

export interface EntityHeader<T = TermsHeader> {
  /** Row positions: the largest sort_key (bit r is the row whose sort_key is r + 1). */
  rows: number;
  /**
   * The positions that hold a row, when some do not (a release patched by a delta load keeps its parent's positions
   * and leaves those of deleted rows empty, release-writer/patch-release.ts). Absent: every position holds a row.
   * A complement, and "every row", are taken within these.
   */
  live?: PostingRef;
  columns: Record<string, ColumnHeader<T>>;
}

export interface IndexHeader<T = TermsHeader> {
  version: number;
  releaseId: string;
  entities: Record<Entity, EntityHeader<T>>;
}

/** The dictionary fields of a column header. */
export const DICTIONARIES = ['terms', 'ngrams', 'trigrams'] as const;

/** `<dir>/<id>.duckdb` -> `<dir>/<id>.index`. */
export function indexFile(releaseFile: string): string {
  return `${releaseFile.replace(/\.duckdb$/, '')}.index`;
}

export type Encoding = 'none' | 'all' | 'dense' | 'sparse';

export function encodingOf(cnt: number, rows: number): Encoding {
  if (cnt === 0) return 'none';
  if (cnt === rows) return 'all';
  return cnt * 32 > rows ? 'dense' : 'sparse';
}

/** Total order of the values of one column: numbers numerically, strings by code unit, false before true. */
export function compareTerms(a: Term, b: Term): number {
  if (a === b) return 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * Columns whose values get postings: what filters select on by value, and the columns searched by substring (never
 * records, never the id space).
 */
export function termColumns(entity: Entity): ColumnDef[] {
  const keyed = new Set(
    filterKeysOf(entity)
      .filter((k) => k.column && (k.match === 'any_of' || k.match === 'none_of'))
      .map((k) => k.column!),
  );
  // Words companions (title_words): their distinct words keys answer whole-word phrases of any length.
  const companions = new Set(columnsOf(entity).flatMap((c) => (c.words ? [c.words] : [])));
  return columnsOf(entity).filter(
    (c) =>
      c.storage !== 'JSON' &&
      c.name !== 'sort_key' &&
      (companions.has(c.name) ||
        c.list !== undefined ||
        c.kind === 'bool' ||
        c.kind === 'number' ||
        c.kind === 'date' ||
        c.type === 'month' ||
        c.storage === 'VARCHAR[]' ||
        c.substrings !== undefined ||
        keyed.has(c.name)),
  );
}

/** Range comparisons (gt, gte, lt, lte) are answered from the dictionary on these columns only. */
export function isOrdered(col: ColumnDef): boolean {
  return col.storage === 'BIGINT' || col.storage === 'DOUBLE' || col.kind === 'date' || col.type === 'month';
}
