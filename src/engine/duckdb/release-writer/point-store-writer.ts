import { closeSync, fsyncSync, openSync, rmSync } from 'node:fs';
import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { CONTACT_CARD_COLUMNS } from '../../../domain/catalog/index.js';
import {
  CARDS_TABLE,
  cardsSourceSql,
  FULL_CARD_COLUMNS,
  FULL_CARDS_TABLE,
  GONE_TABLE,
  keysSourceSql,
  keyTable,
  overlayDdl,
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
    writeMeta(db, { [POINT_META.releaseId]: releaseId }, fullCards);
    return { cards, keys };
  });
}

/** A store's meta: the release ids given, and the layouts of its cards (and of its full cards, when it holds them). */
function writeMeta(db: Database.Database, ids: Record<string, string>, fullCards: boolean): void {
  const meta = db.prepare(`INSERT INTO ${POINT_META_TABLE} (key, value) VALUES (?, ?)`);
  for (const [key, value] of Object.entries(ids)) meta.run(key, value);
  meta.run(POINT_META.cardColumns, JSON.stringify(CONTACT_CARD_COLUMNS));
  if (fullCards) meta.run(POINT_META.fullCardColumns, JSON.stringify(FULL_CARD_COLUMNS));
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

/** What a delta's patch writes into its point store overlay (point-store/schema.ts). */
export interface PointOverlayPatch {
  /** Positions (sort_key - 1) of the parent's contacts that are gone or rewritten. */
  gone: Int32Array;
  /** The TEMP table holding the rows written, as stored. */
  writtenTable: string;
  fullCards: boolean;
  /** The release whose full store the overlay is read over. */
  baseReleaseId: string;
  /** `file` is a copy of the parent's overlay, to be patched; otherwise (the parent's store is full) a new one. */
  fromParent: boolean;
}

/**
 * A delta's point store overlay: the positions gone join those gone before, the overlay's cards and key rows of the
 * gone positions are deleted, and the written contacts' cards and key rows inserted. A few SQLite writes per changed
 * contact; the base is not touched. Written and fsynced like a full store; answers the cards written and the key rows
 * inserted, which the caller checks.
 */
export async function writePointOverlay(
  conn: DuckDBConnection,
  file: string,
  releaseId: string,
  patch: PointOverlayPatch,
  onTable: (done: number, total: number) => void = () => undefined,
): Promise<{ cards: number; keys: number }> {
  if (!patch.fromParent) rmSync(file, { force: true });
  return inStoreFile(file, async (db) => {
    if (!patch.fromParent) {
      for (const sql of overlayDdl(patch.fullCards)) db.exec(sql);
      const ids = { [POINT_META.overlayReleaseId]: releaseId, [POINT_META.baseReleaseId]: patch.baseReleaseId };
      writeMeta(db, ids, patch.fullCards);
    }
    let cards = 0;
    let keys = 0;
    const tables = 1 + (patch.fullCards ? 1 : 0) + POINT_KEY_COLUMNS.length;
    let done = 0;
    onTable(done, tables);
    db.exec('CREATE TEMP TABLE patch_gone (sort_key INTEGER PRIMARY KEY)');
    const addGone = db.prepare('INSERT INTO temp.patch_gone (sort_key) VALUES (?)');
    for (const k of Int32Array.from(patch.gone).sort()) addGone.run(k + 1);
    db.exec(`INSERT OR IGNORE INTO main.${GONE_TABLE} (sort_key) SELECT sort_key FROM temp.patch_gone`);
    const cardTables = patch.fullCards ? [CARDS_TABLE, FULL_CARDS_TABLE] : [CARDS_TABLE];
    for (const table of cardTables) {
      db.exec(`DELETE FROM main.${ident(table)} WHERE sort_key IN (SELECT sort_key FROM temp.patch_gone)`);
      const layout = table === CARDS_TABLE ? CONTACT_CARD_COLUMNS : FULL_CARD_COLUMNS;
      const written = `${cardsSourceSql(layout, patch.writtenTable)} ORDER BY sort_key`;
      const n = await copyRows(conn, written, db, table, ['sort_key', 'card']);
      if (table === CARDS_TABLE) cards = n;
      onTable(++done, tables);
    }
    for (const column of POINT_KEY_COLUMNS) {
      db.exec(`DELETE FROM main.${ident(keyTable(column))} WHERE sort_key IN (SELECT sort_key FROM temp.patch_gone)`);
      keys += await copyRows(conn, keysSourceSql(column, patch.writtenTable), db, keyTable(column), [
        'value',
        'sort_key',
      ]);
      onTable(++done, tables);
    }
    db.exec('DROP TABLE temp.patch_gone');
    db.prepare(`UPDATE ${POINT_META_TABLE} SET value = ? WHERE key = ?`).run(releaseId, POINT_META.overlayReleaseId);
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
): Promise<number> {
  const into = `INSERT INTO ${ident(table)} (${columns.map(ident).join(', ')}) VALUES `;
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
