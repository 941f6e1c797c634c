import { CONTACT_CARD_COLUMNS, columnsOf } from '../../../domain/catalog/index.js';
import { ident, TABLE } from '../schema.js';

/**
 * The point store of a release: a SQLite file beside the DuckDB file (`<id>.points.sqlite`), a row store
 * for point reads. A columnar file answers a lookup of scattered rows by loading a 256 KB block per row
 * and column; here one contact is one 4 KB page read. It holds:
 * - `cards`: one contact card per contact (layout.ts), keyed by sort_key;
 * - one key table per contact lookup column of the catalog (`key_work_email`, ...): (value, sort_key);
 * - `meta`: the release id it belongs to and the card layout.
 * Written once by the loader, then only read.
 */

export const CARDS_TABLE = 'cards';
export const POINT_META_TABLE = 'meta';
export const POINT_META = { releaseId: 'release_id', cardColumns: 'card_columns' } as const;

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

export function pointStoreDdl(): string[] {
  return [
    `CREATE TABLE ${POINT_META_TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    `CREATE TABLE ${CARDS_TABLE} (sort_key INTEGER PRIMARY KEY, card TEXT NOT NULL)`,
    ...POINT_KEY_COLUMNS.map(
      (c) =>
        `CREATE TABLE ${ident(keyTable(c))} (value TEXT NOT NULL, sort_key INTEGER NOT NULL, PRIMARY KEY (value, ` +
        `sort_key)) WITHOUT ROWID`,
    ),
  ];
}

/** DuckDB SQL reading the cards of the release's contacts, in storage (sort_key) order. */
export function cardsSourceSql(): string {
  return (
    `SELECT sort_key, json_array(${CONTACT_CARD_COLUMNS.map(ident).join(', ')})::VARCHAR AS card FROM ` +
    `${ident(TABLE.contact)}`
  );
}

/** DuckDB SQL reading one key table's rows, sorted so SQLite appends to its B-tree. */
export function keysSourceSql(column: string): string {
  return (
    `SELECT ${ident(column)} AS value, sort_key FROM ${ident(TABLE.contact)} WHERE ${ident(column)} IS NOT NULL ` +
    `ORDER BY value, sort_key`
  );
}
