import Database from 'better-sqlite3';
import { type Leaf, leafValues } from '../../../domain/query/ir.js';
import { ident } from '../schema.js';
import { decodeCards, parseCardLayout, type RenderedCards, renderCards } from './layout.js';
import {
  CARDS_TABLE,
  FULL_CARDS_TABLE,
  GONE_TABLE,
  keyTable,
  POINT_KEY_COLUMNS,
  POINT_META,
  POINT_META_TABLE,
  pointStoreBaseFile,
} from './schema.js';

/** One contact's card as the store holds it. */
export interface CardRow {
  sort_key: number;
  card: string;
}

/** The statements reading cards of one kind: of many sort keys (a JSON list) at once, and of one. */
interface CardReads {
  many: Database.Statement<[string], CardRow>;
  one: (sortKey: number) => string | undefined;
  /** The cards of many sort keys (a JSON list) as their UTF-8 bytes in sort_key order, a comma between each two. */
  joined: Database.Statement<[string], Buffer | null>;
}

export type PointStoreOpening = { store: PointStore; reason?: undefined } | { store: null; reason: string };

/** Which cards a read takes: the cards, or (for columns only they hold) the full cards. */
export type CardKind = 'card' | 'full';

/**
 * A read-only connection to a release's point store (schema.ts). Reads are synchronous: each runs on a
 * reader thread of its own (readers.ts), so the identifiers of one call are read in parallel.
 */
export class PointStore {
  private constructor(
    private readonly db: Database.Database,
    readonly layout: readonly string[],
    private readonly keyReads: ReadonlyMap<string, Database.Statement<[string], number>>,
    private readonly cardReads: CardReads,
    /** The full cards' layout and reads, in a store written with them. */
    readonly fullLayout: readonly string[] | null,
    private readonly fullCardReads: CardReads | null,
  ) {}

  /**
   * Opens the store of a release (an overlay with its base); null with the reason when it is missing, foreign,
   * incomplete or unreadable. `release.positions`: its largest sort_key, when positions without a row exist (a release
   * patched by a delta).
   */
  static open(file: string, release: { id: string; contacts: number; positions?: number }): PointStoreOpening {
    let db: Database.Database;
    try {
      db = new Database(file, { readonly: true, fileMustExist: true });
    } catch (e) {
      return { store: null, reason: `no point store (${(e as Error).message})` };
    }
    try {
      // The interior B-tree pages of the key and card tables (about 20 MB at 10 M contacts) stay cached:
      // a lookup then reads one leaf page of each.
      db.pragma('cache_size = -32768');
      // A published store never changes (a delta writes an overlay beside it), so this read-only connection keeps its
      // shared lock (on the attached base too) instead of taking and dropping it, and checking the file for changes,
      // on every read: a page's cards read one by one then cost about half of one read of all of them.
      db.pragma('locking_mode = EXCLUSIVE');
      const meta = new Map(db.prepare(`SELECT key, value FROM ${POINT_META_TABLE}`).raw().all() as [string, string][]);
      const overlay = meta.has(POINT_META.baseReleaseId);
      const own = meta.get(overlay ? POINT_META.overlayReleaseId : POINT_META.releaseId);
      if (own !== release.id) throw new Error(`it belongs to release ${own ?? 'unknown'}`);
      if (overlay) attachBase(db, file, meta);
      // Cards are written for every contact, in sort_key order: the last card tells whether the store is whole (in an
      // overlay, the last of its own and of the base's cards not gone).
      const lastKey = release.positions ?? release.contacts;
      const lastOf = (sql: string) => (db.prepare(sql).pluck().get() as number | null) ?? 0;
      let last = lastOf(`SELECT max(sort_key) FROM main.${CARDS_TABLE}`);
      if (overlay)
        last = Math.max(
          last,
          lastOf(
            `SELECT sort_key FROM base.${CARDS_TABLE} WHERE sort_key NOT IN (SELECT sort_key FROM main.${GONE_TABLE}) ` +
              'ORDER BY sort_key DESC LIMIT 1',
          ),
        );
      if (last !== lastKey) {
        const of = lastKey === release.contacts ? 'contacts' : 'positions';
        throw new Error(`it holds cards up to ${last} of ${lastKey} ${of}`);
      }
      const layout = parseCardLayout(meta.get(POINT_META.cardColumns));
      if (!layout) throw new Error('its card layout is unreadable');
      // An overlay's rows, then the base's rows whose position is not gone.
      const both = (select: string, where: string): string =>
        overlay
          ? `${select} FROM main.${where} UNION ALL ${select} FROM base.${where} AND sort_key NOT IN ` +
            `(SELECT sort_key FROM main.${GONE_TABLE})`
          : `${select} FROM ${where}`;
      const keyReads = new Map(
        POINT_KEY_COLUMNS.map((c) => [
          c,
          db
            .prepare(
              `WITH v AS (SELECT value FROM json_each(?)) ` +
                both('SELECT sort_key', `${ident(keyTable(c))} WHERE value IN (SELECT value FROM v)`),
            )
            .pluck() as Database.Statement<[string], number>,
        ]),
      );
      const reads = (table: string): CardReads => {
        const one = db.prepare(both('SELECT card', `${table} WHERE sort_key = ?`)).pluck() as Database.Statement<
          number[],
          string
        >;
        const many = both('SELECT sort_key, card', `${table} WHERE sort_key IN (SELECT sort_key FROM k)`);
        return {
          many: db.prepare(`WITH k AS (SELECT value AS sort_key FROM json_each(?)) ${many}`) as Database.Statement<
            [string],
            CardRow
          >,
          // As a BLOB: the bytes as stored, not decoded into a JavaScript string (renderCards reads them as they are).
          // A whole store finds the keys by its primary key in the order of the IN list's sorted index, ascending; an
          // overlay's two parts are ordered by a sort (about 45 µs of a 101-card page at 1 M). The caller checks the
          // order (the cards' own sort keys), so a page read in another order is read again as objects, never wrong.
          joined: db
            .prepare(
              'WITH k AS (SELECT value AS sort_key FROM json_each(?)) ' +
                `SELECT CAST(group_concat(card, ','${overlay ? ' ORDER BY sort_key' : ''}) AS BLOB) FROM (${many})`,
            )
            .pluck() as Database.Statement<[string], Buffer | null>,
          // An overlay's statement names the key twice (its rows, then the base's).
          one: overlay ? (k) => one.get(k, k) : (k) => one.get(k),
        };
      };
      // Full cards are optional: a store without them (or whose layout this build cannot read) answers the rest.
      const fullLayout = parseCardLayout(meta.get(POINT_META.fullCardColumns));
      return {
        store: new PointStore(
          db,
          layout,
          keyReads,
          reads(CARDS_TABLE),
          fullLayout,
          fullLayout ? reads(FULL_CARDS_TABLE) : null,
        ),
      };
    } catch (e) {
      db.close();
      return { store: null, reason: `point store not used: ${(e as Error).message}` };
    }
  }

  /** The lookup columns this store has key tables for. */
  get keyColumns(): readonly string[] {
    return [...this.keyReads.keys()];
  }

  /**
   * The cards of every contact matching any leaf (point-read-leaves.ts), each once, in no order. Throws on a storage
   * error.
   */
  read(leaves: readonly Leaf[], kind: CardKind = 'card'): CardRow[] {
    const keys = new Set<number>();
    for (const leaf of leaves) {
      const values = leafValues(leaf).map(String);
      const read = this.keyReads.get(leaf.field);
      if (!read) throw new Error(`the point store has no key table for ${leaf.field}`);
      if (values.length > 0) for (const k of read.all(JSON.stringify(values))) keys.add(k);
    }
    return keys.size === 0 ? [] : this.reads(kind).many.all(JSON.stringify([...keys]));
  }

  /** The cards of these contacts (by sort_key), in their order; sort keys without a card are left out. */
  cards(sortKeys: readonly number[], kind: CardKind = 'card'): CardRow[] {
    // One primary-key read each: for a page of 100 cards this took about 45 µs against 80 µs for one statement
    // joining the keys' JSON list (1 M contacts, cached pages), which the lookups by identifier still use.
    const one = this.reads(kind).one;
    const rows: CardRow[] = [];
    for (const sort_key of sortKeys) {
      const card = one(sort_key);
      if (card !== undefined) rows.push({ sort_key, card });
    }
    return rows;
  }

  /**
   * The cards of these contacts (by sort_key) written as the JSON objects of `columns` (renderCards), in ascending
   * sort_key; sort keys without a card are left out. One statement reads the page's cards as bytes: for 101 cards at
   * 1 M contacts about half the time of their primary-key reads one by one, which decode each card into a string.
   */
  cardsJson(sortKeys: readonly number[], columns: readonly string[], kind: CardKind = 'card'): RenderedCards {
    const joined = sortKeys.length > 0 ? this.reads(kind).joined.get(JSON.stringify(sortKeys)) : null;
    return renderCards(
      joined ?? EMPTY,
      kind === 'card' ? this.layout : (this.fullLayout ?? []),
      columns,
      sortKeys.length,
    );
  }

  private reads(kind: CardKind): CardReads {
    if (kind === 'card') return this.cardReads;
    if (!this.fullCardReads) throw new Error('the point store holds no full cards');
    return this.fullCardReads;
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Whether a store file can be read: its meta readable, and an overlay's base there and its own (what `cds releases
 * list` reports; PointStore.open checks the rest against the release).
 */
export function pointStoreReadable(file: string): boolean {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const meta = new Map(db.prepare(`SELECT key, value FROM ${POINT_META_TABLE}`).raw().all() as [string, string][]);
    if (meta.has(POINT_META.baseReleaseId)) attachBase(db, file, meta);
    return true;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/**
 * Attaches an overlay's base (schema.ts) as `base`, read-only as the overlay: it must belong to the release the overlay
 * names and hold cards of the same layouts.
 */
export function attachBase(db: Database.Database, file: string, meta: ReadonlyMap<string, string>): void {
  db.prepare('ATTACH DATABASE ? AS base').run(pointStoreBaseFile(file));
  // The base's interior B-tree pages stay cached as a whole store's do (cache_size applies per database).
  db.pragma('base.cache_size = -32768');
  const baseMeta = new Map(
    db.prepare(`SELECT key, value FROM base.${POINT_META_TABLE}`).raw().all() as [string, string][],
  );
  const baseId = meta.get(POINT_META.baseReleaseId);
  if (baseMeta.get(POINT_META.releaseId) !== baseId)
    throw new Error(`its base belongs to release ${baseMeta.get(POINT_META.releaseId) ?? 'unknown'}, not ${baseId}`);
  for (const key of [POINT_META.cardColumns, POINT_META.fullCardColumns])
    if (baseMeta.get(key) !== meta.get(key)) throw new Error('its base holds cards of another layout');
}

/**
 * Lookups answered in parts (one per reader) as one page: each contact once (those `keep` accepts, when given), in
 * ascending sort_key, at most `limit`, decoded to `columns` plus sort_key. What the DuckDB UNION ALL page answers
 * (compile/select.ts).
 */
export function cardsPage(
  parts: readonly (readonly CardRow[])[],
  layout: readonly string[],
  columns: readonly string[],
  limit: number,
  keep?: (sortKey: number) => boolean,
): Record<string, unknown>[] {
  return decodeCards(
    pickCards(parts, limit, keep).map((c) => c.card),
    layout,
    columns,
  );
}

/** A page of cards as cardsPage picks them, written as the JSON objects of `columns` (renderCards). */
export function cardsJsonPage(
  parts: readonly (readonly CardRow[])[],
  layout: readonly string[],
  columns: readonly string[],
  limit: number,
): RenderedCards {
  const picked = pickCards(parts, limit);
  return renderCards(Buffer.from(picked.map((c) => c.card).join(',')), layout, columns, picked.length);
}

const EMPTY = new Uint8Array(0);

/** The cards of the parts, each contact once (those `keep` accepts), in ascending sort_key, at most `limit`. */
function pickCards(
  parts: readonly (readonly CardRow[])[],
  limit: number,
  keep?: (sortKey: number) => boolean,
): CardRow[] {
  const bySortKey = new Map<number, string>();
  for (const part of parts) for (const r of part) if (!keep || keep(r.sort_key)) bySortKey.set(r.sort_key, r.card);
  return [...bySortKey.keys()]
    .sort((a, b) => a - b)
    .slice(0, limit)
    .map((k) => ({ sort_key: k, card: bySortKey.get(k)! }));
}
