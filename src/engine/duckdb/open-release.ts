import { statSync } from 'node:fs';
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import type { Entity } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import type { Leaf } from '../../domain/query/ir.js';
import { isEmptySuppression, type Suppression } from '../../domain/suppression.js';
import type { IndexState, PointReadsState, ReleaseInfo } from '../port.js';
import { indexFile } from './bitmap-index/format.js';
import { BitmapIndex, type EntityIndex } from './bitmap-index/reader.js';
import { ResultCache } from './bitmap-index/result-cache.js';
import { ConnectionPool } from './connection-pool.js';
import { runInterruptible } from './interruptible.js';
import type { RenderedCards } from './point-store/layout.js';
import { PointReaders } from './point-store/readers.js';
import { pointStoreFile } from './point-store/schema.js';
import { plainRows } from './rows.js';
import { ident, TABLE } from './schema.js';
import { type ResolveStats, SuppressionResolver } from './suppression/resolve.js';
import type { Suppressed } from './suppression/suppressed.js';

/** The largest page a query asks for: family B's 5,000 rows plus the one that says whether more follow. */
const PAGE_ROWS_MAX = 5001;

export interface InstanceOptions {
  poolSize: number;
  threads: number;
  memoryLimit: string;
  /** Reader threads of the point store. */
  pointReaders: number;
  /** Use the release's point store (false: point reads and index pages read the release's columns). */
  pointStore: boolean;
  /** Use the release's bitmap index. */
  index: boolean;
  /** Memory for decoded postings (MB). */
  indexCacheMb: number;
  /** Memory for the rows of answered queries (MB; 0 keeps none). */
  resultCacheMb: number;
}

export interface RunOptions {
  /** Time budget in ms for waiting on a connection plus running; past it the query is interrupted. */
  budgetMs?: number;
  /** Who asks (an account id): connections are shared fairly between tenants (connection-pool.ts). */
  tenant?: string;
}

/** The two entities' parts of an open index. */
interface ReleaseIndex {
  contact: EntityIndex;
  company: EntityIndex;
  /** Rows of the queries this index answered (both entities; keys name the entity). */
  results: ResultCache;
  close(): void;
}

/** Identity of a file (a rebuilt index is a new file), or null when it is missing. */
function fileStamp(file: string): string | null {
  try {
    const s = statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return null;
  }
}

/** The largest sort_key of each entity (the number of rows, unless a delta's patch left positions empty). */
async function rowPositions(conn: DuckDBConnection): Promise<{ contacts: number; companies: number }> {
  const r = await conn.runAndReadAll(
    `SELECT (SELECT coalesce(max(sort_key), 0) FROM ${ident(TABLE.contact)}), (SELECT coalesce(max(sort_key), 0) FROM ` +
      `${ident(TABLE.company)})`,
  );
  const [contacts, companies] = r.getRows()[0]!.map(Number) as [number, number];
  return { contacts, companies };
}

/** Contact columns a DuckDB index covers (schema.ts lookupColumnIndexDdl names them `contacts_<column>_idx`). */
async function indexedContactColumns(conn: DuckDBConnection): Promise<Set<string>> {
  const r = await conn.runAndReadAll(
    `SELECT index_name FROM duckdb_indexes() WHERE database_name = current_database() AND table_name = '${TABLE.contact}'`,
  );
  const prefix = `${TABLE.contact}_`;
  return new Set(
    r.getRows().flatMap(([name]) => {
      const n = String(name);
      return n.startsWith(prefix) && n.endsWith('_idx') ? [n.slice(prefix.length, -'_idx'.length)] : [];
    }),
  );
}

interface IndexCaches {
  postingsMb: number;
  resultsMb: number;
}

function openIndex(file: string, info: ReleaseInfo, mb: IndexCaches): { index?: ReleaseIndex; reason?: string } {
  const opened = BitmapIndex.open(indexFile(file), info, mb.postingsMb);
  if (!opened.index) return { reason: opened.reason };
  const ix = opened.index;
  return {
    index: {
      contact: ix.entity('contact'),
      company: ix.entity('company'),
      results: new ResultCache(mb.resultsMb * 2 ** 20),
      close: () => ix.close(),
    },
  };
}

/** One release pinned for several queries (`withRelease`): every query sees the same data. */
export interface ReleaseSession {
  readonly info: ReleaseInfo;
  run(sql: string, params?: DuckDBValue[], opts?: RunOptions): Promise<Record<string, unknown>[]>;
  /**
   * A contact point read from the point store, or null when the store cannot answer it (then query the release);
   * contacts of `suppressed` are left out.
   */
  pointRead(
    leaves: readonly Leaf[],
    columns: readonly string[],
    limit: number,
    suppressed: Suppressed | null,
  ): Promise<Record<string, unknown>[] | null>;
  /**
   * The sort keys of the contacts a point read names (ascending, at most `limit`, suppressed ones left out), from the
   * point store's key tables, when the release has no DuckDB index on one of the leaves' columns (a release a delta
   * patched: its rows are then read by key); null when the store cannot answer or the indexes can.
   */
  pointKeys(leaves: readonly Leaf[], limit: number, suppressed: Suppressed | null): Promise<number[] | null>;
  /** The release's bitmap index of an entity, or null when the release is served without one. */
  index(entity: Entity): EntityIndex | null;
  /** The rows of queries the index answered before (per release; keys name the entity), or null without an index. */
  results(): ResultCache | null;
  /** The index failed to read (a damaged file): it is set aside and counts and pages scan the columns. */
  indexFailed(error: Error): void;
  /** Contact rows by sort key from the point store (ascending), or null when it cannot answer these columns. */
  cards(sortKeys: readonly number[], columns: readonly string[]): Promise<Record<string, unknown>[] | null>;
  /** The same cards written as the JSON objects of `columns` (layout.ts renderCards), or null as for cards. */
  cardsJson(sortKeys: readonly number[], columns: readonly string[]): Promise<RenderedCards | null>;
  /** Which of these contact columns the point store's cards hold (none without a store). */
  cardColumns(columns: readonly string[]): string[];
  /**
   * The suppression as it is now (null: nothing suppressed). A query reads it once and uses that for all it runs; a
   * running export reads it again at each batch.
   */
  suppression(): Suppressed | null;
}

/**
 * An opened release file: a READ_ONLY DuckDB instance with its connection pool, and a count of the
 * callers using it. After a swap it is retired and closes when the last in-flight caller leaves, so a
 * query never has its database closed under it.
 */
export class OpenRelease {
  private refs = 0;
  private retired = false;
  /** The suppression list resolved against this release, and the engine's list version it was resolved from. */
  private suppressed: Suppressed | null = null;
  private suppressedAt = 0;
  private resolver: { conn: DuckDBConnection; resolver: SuppressionResolver } | null = null;
  private suppressing: Promise<unknown> = Promise.resolve();
  /** What the last resolution did (bench/suppression-bench.ts reports it). */
  lastSuppression: ResolveStats | null = null;
  private closedPromise: Promise<void> | null = null;
  private resolveClosed: (() => void) | null = null;

  private constructor(
    readonly info: ReleaseInfo,
    /** Row positions of each entity (the largest sort_key; more than the rows in a release patched by a delta). */
    readonly positions: { contacts: number; companies: number },
    /** Contact columns with a DuckDB (ART) index: a full load builds them on the lookup columns; a patch drops them. */
    private readonly lookupIndexed: ReadonlySet<string>,
    readonly file: string,
    private readonly instance: DuckDBInstance,
    private readonly pool: ConnectionPool,
    private readonly defaultBudgetMs: number,
    private points: PointReaders | null,
    private pointsNote: string | undefined,
    private index: ReleaseIndex | null,
    private indexNote: string | undefined,
    private readonly indexCaches: IndexCaches | null,
  ) {}

  static async open(
    file: string,
    info: ReleaseInfo,
    opts: InstanceOptions,
    defaultBudgetMs: number,
  ): Promise<OpenRelease> {
    const instance = await DuckDBInstance.create(file, {
      access_mode: 'READ_ONLY',
      threads: String(opts.threads),
      memory_limit: opts.memoryLimit,
      // Queries come from compiled IR only; a served release never needs to read other files.
      enable_external_access: 'false',
      // Pages (ORDER BY sort_key LIMIT n, n up to 5,001) find their rows on sort_key and the filtered columns, then
      // read the page's other columns for those rows only. DuckDB does so only up to this many rows (default 50),
      // so a 101-row page read 12 columns for a whole row group: at 1 M contacts an unfiltered first page took
      // 27 ms, 2.8 ms with this; selective filters are unchanged (bench/results/peer-postgres-1000000*.json).
      late_materialization_max_rows: String(PAGE_ROWS_MAX),
    });
    const conns: DuckDBConnection[] = [];
    let positions = { contacts: info.contacts, companies: info.companies };
    let lookupIndexed = new Set<string>();
    try {
      for (let i = 0; i < opts.poolSize; i++) conns.push(await instance.connect());
      // Fail here, not on the first user query, when the file is not a release.
      await conns[0]!.runAndReadAll('SELECT count(*) FROM meta');
      positions = await rowPositions(conns[0]!);
      lookupIndexed = await indexedContactColumns(conns[0]!);
    } catch (e) {
      for (const c of conns) c.closeSync();
      instance.closeSync();
      throw e;
    }
    // Without its point store a release still answers every point read, from its columns (slower).
    const points = opts.pointStore
      ? await PointReaders.open(
          pointStoreFile(file),
          { id: info.id, contacts: info.contacts, positions: positions.contacts },
          opts.pointReaders,
        )
      : { readers: null, reason: 'point store disabled' };
    // Without its index a release answers every query by scanning its columns (slower, same answers).
    const caches = { postingsMb: opts.indexCacheMb, resultsMb: opts.resultCacheMb };
    const opened = opts.index ? openIndex(file, info, caches) : { reason: 'index disabled (CDS_INDEX=0)' };
    return new OpenRelease(
      info,
      positions,
      lookupIndexed,
      file,
      instance,
      new ConnectionPool(conns),
      defaultBudgetMs,
      points.readers,
      points.reason,
      opened.index ?? null,
      opened.reason,
      opts.index ? caches : null,
    );
  }

  /**
   * Starts using the release's index when one was built after the release opened (`cds releases index`), or
   * rebuilt after it failed (a file that failed is not opened again until it changes).
   */
  adoptIndex(): void {
    if (this.index || this.indexCaches === null || this.retired) return;
    const stamp = fileStamp(indexFile(this.file));
    if (stamp === null || stamp === this.failedIndexStamp) return;
    const opened = openIndex(this.file, this.info, this.indexCaches);
    if (opened.index) this.index = opened.index;
    this.indexNote = opened.reason;
  }

  private failedIndexStamp: string | null = null;
  private readonly setAside: ReleaseIndex[] = [];

  private indexFailed(error: Error): void {
    const failed = this.index;
    if (!failed) return;
    this.index = null;
    this.indexNote = `index failed, counts and pages scan the columns: ${error.message}`;
    this.failedIndexStamp = fileStamp(indexFile(this.file));
    // Queries in flight may still be reading it: closed with the release.
    this.setAside.push(failed);
  }

  get indexState(): IndexState {
    return this.index ? { ok: true } : { ok: false, ...(this.indexNote ? { note: this.indexNote } : {}) };
  }

  get pointReads(): PointReadsState {
    return this.points ? { ok: true } : { ok: false, ...(this.pointsNote ? { note: this.pointsNote } : {}) };
  }

  get inFlight(): number {
    return this.refs;
  }

  /** Runs `fn` with this release pinned open. */
  async use<T>(fn: (s: ReleaseSession) => Promise<T>): Promise<T> {
    if (this.retired && this.refs === 0) throw new AppError('data.unavailable', 'The release closed.');
    this.refs++;
    try {
      return await fn({
        info: this.info,
        run: (sql, params, opts) => this.run(sql, params ?? [], opts ?? {}),
        pointRead: (leaves, columns, limit, suppressed) => this.pointRead(leaves, columns, limit, suppressed),
        pointKeys: async (leaves, limit, suppressed) => {
          if (leaves.every((l) => this.lookupIndexed.has(l.field))) return null;
          const rows = await this.pointRead(leaves, ['sort_key'], limit, suppressed);
          return rows ? rows.map((r) => Number(r.sort_key)) : null;
        },
        index: (entity) => this.index?.[entity] ?? null,
        results: () => this.index?.results ?? null,
        indexFailed: (error) => this.indexFailed(error),
        cards: (sortKeys, columns) => this.cards(columns, (r) => r.cards(sortKeys, columns)),
        cardsJson: (sortKeys, columns) => this.cards(columns, (r) => r.cardsJson(sortKeys, columns)),
        cardColumns: (columns) => {
          const readers = this.points;
          return readers ? columns.filter((c) => readers.covers([c])) : [];
        },
        suppression: () => this.suppressed,
      });
    } finally {
      this.refs--;
      if (this.retired && this.refs === 0) this.closeNow();
    }
  }

  private async run(sql: string, params: DuckDBValue[], opts: RunOptions): Promise<Record<string, unknown>[]> {
    const budget = opts.budgetMs ?? this.defaultBudgetMs;
    const deadline = Date.now() + budget;
    const conn = await this.pool.acquire(deadline, opts.tenant);
    // Handed over at its deadline (a freed connection goes to the next waiter whatever its time left): nothing to run.
    if (Date.now() >= deadline) {
      this.pool.putBack(conn);
      throw new AppError('query.timeout');
    }
    // The statement runs until it ends; the connection goes back to the pool only then, and the release stays
    // open (pinned like a caller) until then even if its caller has already had its timeout.
    this.refs++;
    const statement = runInterruptible(conn, sql, params, deadline);
    const running = statement.settled.finally(() => {
      this.pool.putBack(conn);
      this.refs--;
      if (this.retired && this.refs === 0) this.closeNow();
    });
    // At the deadline the caller gets query.timeout at once and the statement is interrupted, again and again
    // until it stops (interruptible.ts: DuckDB forgets an interrupt that comes before the statement executes).
    // DuckDB sees the interrupt between scan tasks (a row group, ~0.5 s for a heavy filter at 122,880 rows), so the
    // answer does not wait for it; the connection stays busy, and counted against its tenant, until the statement
    // stops.
    try {
      const reader = await Promise.race([running, statement.expired]);
      return plainRows(reader);
    } catch (e) {
      if (/interrupt/i.test((e as Error).message)) throw new AppError('query.timeout');
      throw e;
    } finally {
      // The race's loser must not surface as an unhandled rejection.
      running.catch(() => {});
    }
  }

  private async pointRead(
    leaves: readonly Leaf[],
    columns: readonly string[],
    limit: number,
    sup: Suppressed | null,
  ): Promise<Record<string, unknown>[] | null> {
    const readers = this.points;
    if (!readers?.answers(leaves, columns)) return null;
    const keep = sup ? (k: number) => (sup.contacts[(k - 1) >>> 5]! & (1 << ((k - 1) & 31))) === 0 : undefined;
    try {
      return await readers.read(leaves, columns, limit, keep);
    } catch (e) {
      this.dropPoints(readers, e);
      return null;
    }
  }

  /** A damaged store must not fail reads the release itself can answer: stop using it. */
  private dropPoints(readers: PointReaders, e: unknown): void {
    if (this.points !== readers) return;
    this.points = null;
    this.pointsNote = `point store failed, point reads use the release: ${(e as Error).message}`;
    void readers.close();
  }

  /** A read of cards (read), or null when the store cannot answer these columns or failed (then it is dropped). */
  private async cards<T>(columns: readonly string[], read: (readers: PointReaders) => Promise<T>): Promise<T | null> {
    const readers = this.points;
    if (!readers?.covers(columns)) return null;
    try {
      return await read(readers);
    } catch (e) {
      this.dropPoints(readers, e);
      return null;
    }
  }

  /** Contacts the suppression leaves out of this release, and the list version it was resolved from. */
  get suppressionState(): { contacts: number; version: number } {
    return { contacts: this.suppressed?.count ?? 0, version: this.suppressedAt };
  }

  /**
   * Resolves the engine's suppression list (version `version`) against this release and applies it to every read
   * that starts from then on. Lists are resolved one after another on a connection of their own; one older than
   * the list applied is skipped. A retired release no one reads any more is left as it is.
   */
  suppress(list: Suppression, version: number): Promise<void> {
    const run = this.suppressing.then(async () => {
      if (version <= this.suppressedAt || (this.retired && this.refs === 0)) return;
      // An empty list suppresses no one: nothing to resolve, no connection to open (a release switch stays quick).
      if (isEmptySuppression(list)) {
        this.suppressed = null;
        this.suppressedAt = version;
        return;
      }
      this.refs++;
      try {
        if (!this.resolver) {
          const conn = await this.instance.connect();
          this.resolver = {
            conn,
            resolver: new SuppressionResolver(conn, this.positions),
          };
        }
        const { suppressed, stats } = await this.resolver.resolver.resolve(list, version);
        this.suppressed = suppressed;
        this.suppressedAt = version;
        this.lastSuppression = stats;
      } finally {
        this.refs--;
        if (this.retired && this.refs === 0) this.closeNow();
      }
    });
    this.suppressing = run.catch(() => undefined);
    return run;
  }

  /** Stops taking new callers; resolves once the in-flight ones finished and the file is closed. */
  retire(): Promise<void> {
    if (!this.closedPromise) {
      this.retired = true;
      this.closedPromise = new Promise((resolve) => (this.resolveClosed = resolve));
      if (this.refs === 0) this.closeNow();
    }
    return this.closedPromise;
  }

  private closeNow(): void {
    if (!this.resolveClosed) return;
    const done = this.resolveClosed;
    this.resolveClosed = null;
    const points = this.points;
    this.points = null;
    try {
      for (const ix of [this.index, ...this.setAside]) ix?.close();
      this.resolver?.conn.closeSync();
      this.resolver = null;
      this.pool.close();
      this.instance.closeSync();
    } finally {
      // Closed once its reader threads have stopped, so nothing of the release outlives retire().
      if (points) void points.close().finally(done);
      else done();
    }
  }
}
