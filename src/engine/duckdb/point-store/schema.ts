import { CONTACT_CARD_COLUMNS, columnsOf, publicColumns } from '../../../domain/catalog/index.js';
import { ident, TABLE } from '../schema.js';

/**
 * The point store of a release: a SQLite file beside the DuckDB file (`<id>.points.sqlite`), a row store
 * for point reads. A columnar file answers a lookup of scattered rows by loading a 256 KB block per row
 * and column; here one contact is one 4 KB page read. It holds:
 * - `cards`: one contact card per contact (layout.ts), keyed by sort_key;
 * - one key table per contact lookup column of the catalog (`key_work_email`, ...): (value, sort_key);
 * - `full_cards`, only in a release loaded with full cards (`cds load --full-cards`): every public column of a
 *   contact, for point reads of `columns: ["*"]` (about four times the size of `cards`);
 * - `meta`: the release id it belongs to and the card layouts.
 * Written once by the loader, then only read.
 *
 * A delta load (release-writer/) writes an overlay instead: the same tables holding only the contacts written since
 * the last full load, plus `gone` (the positions whose card in the base is stale: deleted or rewritten), read over the
 * full store of that load (the base), which the delta's release shares by a hard link (`<id>.points.base.sqlite`,
 * named in `meta` by its release id). A read takes the overlay's rows and the base's rows not gone (point-store.ts).
 * The base is never copied (4.7 GB at 10 M contacts); a delta writes only its own rows.
 */

export const CARDS_TABLE = 'cards';
export const FULL_CARDS_TABLE = 'full_cards';
export const POINT_META_TABLE = 'meta';
export const POINT_META = {
  releaseId: 'release_id',
  cardColumns: 'card_columns',
  fullCardColumns: 'full_card_columns',
  /** In an overlay: the release whose full store is its base. */
  baseReleaseId: 'base_release_id',
  /**
   * In an overlay, its release id instead of `release_id`: a build from before overlays, which would take one for a
   * whole store, finds no release id and does not use it.
   */
  overlayReleaseId: 'overlay_release_id',
} as const;

/** In an overlay: the positions (sort_key) whose card and key rows in the base are stale. */
export const GONE_TABLE = 'gone';

/** The layout of a full card: the card's columns, then every other public contact column. */
export const FULL_CARD_COLUMNS: readonly string[] = [
  ...new Set([...CONTACT_CARD_COLUMNS, ...publicColumns('contact').map((c) => c.name)]),
];

/** The contact columns with a key table: the catalog's lookup columns. */
export const POINT_KEY_COLUMNS: readonly string[] = columnsOf('contact')
  .filter((c) => c.lookup)
  .map((c) => c.name);

export function keyTable(column: string): string {
  return `key_${column}`;
}

/** `<dir>/<id>.duckdb` -> `<dir>/<id>.points.sqlite`. */
export function pointStoreFile(releaseFile: string): string {
  return `${releaseFile.replace(/\.duckdb$/, '')}.points.sqlite`;
}

/** `<dir>/<id>.points.sqlite` -> `<dir>/<id>.points.base.sqlite`: the base an overlay is read over. */
export function pointStoreBaseFile(storeFile: string): string {
  return `${storeFile.replace(/\.points\.sqlite$/, '')}.points.base.sqlite`;
}

export function pointStoreDdl(fullCards: boolean): string[] {
  return [
    `CREATE TABLE ${POINT_META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE ${CARDS_TABLE} (sort_key INTEGER PRIMARY KEY, card TEXT NOT NULL)`,
    ...(fullCards ? [`CREATE TABLE ${FULL_CARDS_TABLE} (sort_key INTEGER PRIMARY KEY, card TEXT NOT NULL)`] : []),
    ...POINT_KEY_COLUMNS.map(
      (c) =>
        `CREATE TABLE ${ident(keyTable(c))} (value TEXT NOT NULL, sort_key INTEGER NOT NULL, PRIMARY KEY (value, ` +
        `sort_key)) WITHOUT ROWID`,
    ),
  ];
}

/** An overlay's tables: a store's, and the positions gone from its base. */
export function overlayDdl(fullCards: boolean): string[] {
  return [...pointStoreDdl(fullCards), `CREATE TABLE ${GONE_TABLE} (sort_key INTEGER PRIMARY KEY)`];
}

/** DuckDB SQL reading the cards (of a layout) of the release's contacts (or another table of contact rows). */
export function cardsSourceSql(
  layout: readonly string[] = CONTACT_CARD_COLUMNS,
  table: string = TABLE.contact,
): string {
  return `SELECT sort_key, json_array(${layout.map(ident).join(', ')})::VARCHAR AS card FROM ${ident(table)}`;
}

/** DuckDB SQL reading one key table's rows, sorted so SQLite appends to its B-tree. */
export function keysSourceSql(column: string, table: string = TABLE.contact): string {
  return (
    `SELECT ${ident(column)} AS value, sort_key FROM ${ident(table)} WHERE ${ident(column)} IS NOT NULL ` +
    `ORDER BY value, sort_key`
  );
}
