import Database from 'better-sqlite3';
import { findColumn } from '../../../domain/catalog/index.js';
import { leafValues, type Leaf } from '../../../domain/query/ir.js';
import { ident } from '../schema.js';
import { cardCovers, decodeCards, parseCardLayout } from './layout.js';
import { CARDS_TABLE, keyTable, POINT_KEY_COLUMNS, POINT_META, POINT_META_TABLE } from './schema.js';

export type PointStoreOpening = { store: PointStore; reason?: undefined } | { store: null; reason: string };

/**
 * Read side of a release's point store (schema.ts): answers point reads of contacts (lookup-branches.ts)
 * whose columns the card holds. Reads are synchronous and small: a key lookup and a card read are a few
 * page reads each, so they run on the calling thread.
 */
export class PointStore {
  private constructor(
    private readonly db: Database.Database,
    readonly layout: readonly string[],
    private readonly keyReads: ReadonlyMap<string, Database.Statement<[string], number>>,
    private readonly cardReads: Database.Statement<[string], { sort_key: number; card: string }>,
  ) {}

  /** Opens the store of `releaseId`; null with the reason when it is missing, foreign or unreadable. */
  static open(file: string, releaseId: string): PointStoreOpening {
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (e) {
      return { store: null, reason: `no point store (${(e as Error).message})` };
    }
    try {
      // Interior B-tree pages of the key and card tables stay cached: a lookup then reads one leaf page each.
      db.pragma('cache_size = -65536');
      const meta = new Map(db.prepare(`SELECT key, value FROM ${POINT_META_TABLE}`).raw().all() as [string, string][]);
      if (meta.get(POINT_META.releaseId) !== releaseId) throw new Error(`it belongs to release ${meta.get(POINT_META.releaseId) ?? 'unknown'}`);
      const layout = parseCardLayout(meta.get(POINT_META.cardColumns));
      if (!layout) throw new Error('its card layout is unreadable');
      const keyReads = new Map(
        POINT_KEY_COLUMNS.map((c) => [c, db.prepare(`SELECT sort_key FROM ${ident(keyTable(c))} WHERE value IN (SELECT value FROM json_each(?))`).pluck() as Database.Statement<[string], number>]),
      );
      const cardReads = db.prepare(`SELECT sort_key, card FROM ${CARDS_TABLE} WHERE sort_key IN (SELECT value FROM json_each(?))`) as Database.Statement<[string], { sort_key: number; card: string }>;
      return { store: new PointStore(db, layout, keyReads, cardReads) };
    } catch (e) {
      db.close();
      return { store: null, reason: `point store not used: ${(e as Error).message}` };
    }
  }

  /** True when this store can answer a point read of these leaves for these columns. */
  answers(leaves: readonly Leaf[], columns: readonly string[]): boolean {
    return cardCovers(this.layout, columns) && leaves.every((l) => this.keyReads.has(columnName(l.field)));
  }

  /**
   * The contacts matching any leaf, each once, in ascending sort_key, at most `limit`: what the DuckDB
   * UNION ALL page answers (compile/select.ts), as rows of `columns` plus sort_key. Throws on a storage
   * error (the caller falls back to the release).
   */
  read(leaves: readonly Leaf[], columns: readonly string[], limit: number): Record<string, unknown>[] {
    const keys = new Set<number>();
    for (const leaf of leaves) {
      const values = leafValues(leaf).map(String);
      if (values.length === 0) continue;
      for (const k of this.keyReads.get(columnName(leaf.field))!.all(JSON.stringify(values))) keys.add(k);
    }
    if (keys.size === 0) return [];
    const picked = [...keys].sort((a, b) => a - b).slice(0, limit);
    const rows = this.cardReads.all(JSON.stringify(picked)).sort((a, b) => a.sort_key - b.sort_key);
    return decodeCards(rows.map((r) => r.card), this.layout, columns);
  }

  close(): void {
    this.db.close();
  }
}

/** The catalog name of a leaf field (IR fields are matched case-insensitively, as the compiler does). */
function columnName(field: string): string {
  return findColumn('contact', field, true)?.name ?? field;
}
