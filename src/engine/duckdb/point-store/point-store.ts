import Database from 'better-sqlite3';
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

  /** Opens the store of a release; null with the reason when it is missing, foreign, incomplete or unreadable. */
  static open(file: string, release: { id: string; contacts: number }): PointStoreOpening {
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
      if (meta.get(POINT_META.releaseId) !== release.id) throw new Error(`it belongs to release ${meta.get(POINT_META.releaseId) ?? 'unknown'}`);
      // sort_key is the dense rank of ids (1..contacts): the last card tells whether every contact has one.
      const last = db.prepare(`SELECT max(sort_key) FROM ${CARDS_TABLE}`).pluck().get() as number | null;
      if (last !== release.contacts) throw new Error(`it holds cards up to ${last ?? 0} of ${release.contacts} contacts`);
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

  /** True when this store can answer a point read of these leaves (lookup-branches.ts) for these columns. */
  answers(leaves: readonly Leaf[], columns: readonly string[]): boolean {
    return cardCovers(this.layout, columns) && leaves.every((l) => this.keyReads.has(l.field));
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
      for (const k of this.keyReads.get(leaf.field)!.all(JSON.stringify(values))) keys.add(k);
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
