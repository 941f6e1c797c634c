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
 */

export const CARDS_TABLE = 'cards';
export const FULL_CARDS_TABLE = 'full_cards';
export const POINT_META_TABLE = 'meta';
export const POINT_META = {
  releaseId: 'release_id',
  cardColumns: 'card_columns',
  fullCardColumns: 'full_card_columns',
} as const;

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
