import { closeSync, fsyncSync, openSync, rmSync } from 'node:fs';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { CONTACT_CARD_COLUMNS } from '../../../domain/catalog/index.js';
import {
  CARDS_TABLE,
  cardsSourceSql,
  FULL_CARD_COLUMNS,
  FULL_CARDS_TABLE,
  keysSourceSql,
  keyTable,
  POINT_KEY_COLUMNS,
  POINT_META,
  POINT_META_TABLE,
  pointStoreDdl,
} from '../point-store/schema.js';
import { ident } from '../schema.js';

/** Rows bound per INSERT statement: one statement call per row costs more than the row itself. */
const ROWS_PER_INSERT = 100;

/**
 * Writes a release's point store (engine/duckdb/point-store) from its finished `contacts` table: the
 * cards in storage order (and the full cards, when asked for), then each key table sorted, so every SQLite B-tree
 * is built by appends. No journal while writing (a failed load deletes the file); fsynced before the caller
 * renames it into place.
 */
export async function writePointStore(
  conn: DuckDBConnection,
  file: string,
  releaseId: string,
  onTable: (done: number, total: number) => void = () => undefined,
  opts: { fullCards?: boolean } = {},
): Promise<{ cards: number; keys: number }> {
  const fullCards = opts.fullCards === true;
  rmSync(file, { force: true });
  return inStoreFile(file, async (db) => {
    let keys = 0;
    for (const sql of pointStoreDdl(fullCards)) db.exec(sql);
    const tables = 1 + (fullCards ? 1 : 0) + POINT_KEY_COLUMNS.length;
    let done = 0;
    onTable(done, tables);
    const cards = await copyRows(conn, cardsSourceSql(), db, CARDS_TABLE, ['sort_key', 'card']);
    onTable(++done, tables);
    if (fullCards) {
      await copyRows(conn, cardsSourceSql(FULL_CARD_COLUMNS), db, FULL_CARDS_TABLE, ['sort_key', 'card']);
      onTable(++done, tables);
    }
    for (const column of POINT_KEY_COLUMNS) {
      keys += await copyRows(conn, keysSourceSql(column), db, keyTable(column), ['value', 'sort_key']);
      onTable(++done, tables);
    }
    // Meta last: a store that names its release holds all of it.
    const meta = db.prepare(`INSERT INTO ${POINT_META_TABLE} (key, value) VALUES (?, ?)`);
    meta.run(POINT_META.releaseId, releaseId);
    meta.run(POINT_META.cardColumns, JSON.stringify(CONTACT_CARD_COLUMNS));
    if (fullCards) meta.run(POINT_META.fullCardColumns, JSON.stringify(FULL_CARD_COLUMNS));
    return { cards, keys };
  });
}

/**
 * Runs `body` on a point store file opened for writing (no journal, no syncs, exclusive, a 256 MB cache) in one
 * transaction; the file is removed when it fails, and fsynced once it is closed, before the caller renames it.
 */
async function inStoreFile<T>(file: string, body: (db: Database.Database) => Promise<T>): Promise<T> {
  const db = new Database(file);
  let out: T;
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('cache_size = -262144');
    db.exec('BEGIN');
    out = await body(db);
    db.exec('COMMIT');
    db.close();
  } catch (e) {
    if (db.open) db.close();
    rmSync(file, { force: true });
    throw e;
  }
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return out;
}

/** What a delta's patch changes in its parent's point store (release-writer/patch-release.ts). */
export interface PointStorePatch {
  /** Positions (sort_key - 1) of the parent's contacts that are gone or rewritten. */
  gone: Int32Array;
  /** Positions of the contacts written: the rewritten keep theirs. */
  written: Int32Array;
  /** DuckDB SQL answering (value, sort_key) of those contacts' key rows in the parent, for a lookup column. */
  goneKeysSql: (column: string) => string;
  /** The TEMP table holding the rows written, as stored. */
  writtenTable: string;
  fullCards: boolean;
}

/**
 * A delta's point store: `file`, a copy of its parent's (made by the caller), patched in key order: the cards of the
 * written contacts replace those at their positions and the cards of the other gone ones are deleted; of the key rows,
 * only those the patch changes are deleted and inserted (a retitled contact keeps its email's, phone's, ... rows).
 * A few SQLite writes per changed contact, against rewriting every card. Written and fsynced like a full store; answers
 * the cards written and the key rows inserted, which the caller checks.
 */
export async function patchPointStore(
  conn: DuckDBConnection,
  file: string,
  releaseId: string,
  patch: PointStorePatch,
  onTable: (done: number, total: number) => void = () => undefined,
): Promise<{ cards: number; keys: number }> {
  return inStoreFile(file, async (db) => {
    let cards = 0;
    let keys = 0;
    const tables = 1 + (patch.fullCards ? 1 : 0) + POINT_KEY_COLUMNS.length;
    let done = 0;
    onTable(done, tables);
    const rewritten = new Set(patch.written);
    const dropped = Int32Array.from(patch.gone.filter((k) => !rewritten.has(k))).sort();
    const cardTables = patch.fullCards ? [CARDS_TABLE, FULL_CARDS_TABLE] : [CARDS_TABLE];
    for (const table of cardTables) {
      const drop = db.prepare(`DELETE FROM ${ident(table)} WHERE sort_key = ?`);
      for (const k of dropped) drop.run(k + 1);
      const layout = table === CARDS_TABLE ? CONTACT_CARD_COLUMNS : FULL_CARD_COLUMNS;
      const written = `${cardsSourceSql(layout, patch.writtenTable)} ORDER BY sort_key`;
      const n = await copyRows(conn, written, db, table, ['sort_key', 'card'], 'INSERT OR REPLACE');
      if (table === CARDS_TABLE) cards = n;
      onTable(++done, tables);
    }
    for (const column of POINT_KEY_COLUMNS) {
      const gone = patch.goneKeysSql(column);
      const written = keysSourceSql(column, patch.writtenTable);
      const drop = db.prepare(`DELETE FROM ${ident(keyTable(column))} WHERE value = ? AND sort_key = ?`);
      const result = await conn.stream(`SELECT * FROM (${gone}) EXCEPT SELECT * FROM (${written}) ORDER BY 1, 2`);
      for await (const rows of result.yieldRows())
        for (const [value, key] of rows) drop.run(String(value), Number(key));
      const added = `SELECT * FROM (${written}) EXCEPT SELECT * FROM (${gone}) ORDER BY 1, 2`;
      keys += await copyRows(conn, added, db, keyTable(column), ['value', 'sort_key']);
      onTable(++done, tables);
    }
    db.prepare(`UPDATE ${POINT_META_TABLE} SET value = ? WHERE key = ?`).run(releaseId, POINT_META.releaseId);
    return { cards, keys };
  });
}

/** Streams a DuckDB query into a SQLite table of two columns; BIGINT values become numbers. */
async function copyRows(
  conn: DuckDBConnection,
  sql: string,
  db: Database.Database,
  table: string,
  columns: readonly [string, string],
  verb: 'INSERT' | 'INSERT OR REPLACE' = 'INSERT',
): Promise<number> {
  const into = `${verb} INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES `;
  const many = db.prepare(into + Array(ROWS_PER_INSERT).fill('(?, ?)').join(', '));
  const one = db.prepare(`${into}(?, ?)`);
  const plain = (v: DuckDBValue): string | number => (typeof v === 'bigint' ? Number(v) : String(v));
  let n = 0;
  const result = await conn.stream(sql);
  for await (const rows of result.yieldRows()) {
    let i = 0;
    for (; i + ROWS_PER_INSERT <= rows.length; i += ROWS_PER_INSERT) {
      const args: (string | number)[] = [];
      for (let j = i; j < i + ROWS_PER_INSERT; j++) args.push(plain(rows[j]![0]!), plain(rows[j]![1]!));
      many.run(args);
    }
    for (; i < rows.length; i++) one.run(plain(rows[i]![0]!), plain(rows[i]![1]!));
    n += rows.length;
  }
  return n;
}
