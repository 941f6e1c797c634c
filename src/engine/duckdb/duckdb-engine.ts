import type { DuckDBValue } from '@duckdb/node-api';
import type { Entity } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import { EMPTY_SUPPRESSION, type Suppression } from '../../domain/suppression.js';
import type {
  CsvExportRequest,
  CsvExportResult,
  EngineHealth,
  ExportCount,
  QueryRequest,
  QueryResult,
  ReleaseInfo,
  ReleaseSwitch,
  SearchEngine,
  ValueCount,
} from '../port.js';
import { cutCountStoredSql, cutCountValues, distinctValuesSql, readsCutCounts } from './distinct-values.js';
import { exportCount, exportCsv } from './export-csv.js';
import { OpenRelease, type ReleaseSession, type RunOptions } from './open-release.js';
import { populatedCountsSql } from './populated-counts.js';
import { runQuery } from './queries.js';
import { type CurrentPointer, currentStamp, pointerFile, readCurrent } from './release-store.js';
import type { ResolveStats } from './suppression/resolve.js';

export interface DuckDBEngineOptions {
  dataDir: string;
  /** Connections per release; each runs one query at a time. */
  poolSize?: number;
  /** DuckDB worker threads per release instance. */
  threads?: number;
  memoryLimit?: string;
  /** Budget of a query that names none (ms). */
  queryBudgetMs?: number;
  /** How often CURRENT is checked for a new release (ms). */
  pollMs?: number;
  /** Reader threads per release for point reads (point-store/readers.ts). */
  pointReaders?: number;
  /**
   * Use each release's point store (default true); false reads point reads and index pages from the release's
   * columns, as for a release without one (the conformance suite runs both).
   */
  pointStore?: boolean;
  /** Answer what the release's bitmap index can (true), or scan always (false). */
  index?: boolean;
  /** Memory for decoded index postings (MB). */
  indexCacheMb?: number;
  /** Memory for the rows of answered queries, per release (MB; 0 keeps none). */
  resultCacheMb?: number;
  /** The suppression list to apply from the start: the first release serves only once it is resolved. */
  suppression?: Suppression;
  /** Called once a release serves: the first one, then each switch (a new load or a rollback). Must not throw. */
  onReleaseSwitch?: (change: ReleaseSwitch) => void;
}

const DEFAULT_BUDGET_MS = 30_000;

/**
 * The embedded search engine: the release CURRENT names, opened READ_ONLY, behind a connection pool.
 *
 * Each running query holds one libuv worker thread (the driver runs statements on the thread pool), so
 * the process needs UV_THREADPOOL_SIZE >= poolSize + 4 or file and crypto work stalls behind queries;
 * libuv reads it once at start-up, which is why the CLI sets it before anything else runs.
 *
 * A new release is picked up by polling CURRENT (cheap `stat`, and fs events are unreliable across
 * renames and network filesystems): new queries go to the new release at once, the old one closes when
 * its in-flight queries finish.
 *
 * Suppression (`setSuppression`): the list is resolved against the serving release, and against the ones still
 * finishing reads (a running export), into the rows every read leaves out (suppression/); a new release serves only
 * once the latest list is resolved against it, so no read ever sees a suppressed person.
 */
export class DuckDBEngine implements SearchEngine {
  private current: OpenRelease | null = null;
  private lastError: string | undefined;
  private stamp: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private closed = false;
  private readonly retiring = new Set<Promise<void>>();
  /** Retired releases still finishing reads: a new suppression list applies to them too. */
  private readonly draining = new Set<OpenRelease>();
  private suppression: Suppression = EMPTY_SUPPRESSION;
  /** Bumped by every setSuppression; a release has the list once it resolved this version. */
  private suppressionVersion = 0;

  constructor(private readonly opts: Required<Omit<DuckDBEngineOptions, 'onReleaseSwitch'>> & DuckDBEngineOptions) {
    if (opts.suppression !== EMPTY_SUPPRESSION) {
      this.suppression = opts.suppression;
      this.suppressionVersion = 1;
    }
  }

  release(): ReleaseInfo | null {
    return this.current?.info ?? null;
  }

  async health(): Promise<EngineHealth> {
    const cur = this.current;
    if (!cur) return { ok: false, release: null, error: this.lastError ?? 'No data release is loaded.' };
    return {
      ok: true,
      release: cur.info,
      pointReads: cur.pointReads,
      index: cur.indexState,
      ...(this.lastError ? { error: this.lastError } : {}),
    };
  }

  /** Runs one query on the serving release; rows are plain JS values (BIGINT as number, lists as arrays). */
  run(sql: string, params: DuckDBValue[] = [], opts: RunOptions = {}): Promise<Record<string, unknown>[]> {
    return this.withRelease((r) => r.run(sql, params, opts));
  }

  /** Pins the serving release for several queries (count + page, export batches) so they agree. */
  withRelease<T>(fn: (r: ReleaseSession) => Promise<T>): Promise<T> {
    const rel = this.current;
    if (!rel || this.closed) {
      return Promise.reject(
        new AppError('data.unavailable', this.lastError ? `Data is unavailable: ${this.lastError}` : undefined),
      );
    }
    return rel.use(fn);
  }

  private readonly populated = new Map<string, Promise<{ rows: number; columns: Record<string, number> }>>();

  populatedCounts(entity: Entity): Promise<{ rows: number; columns: Record<string, number> }> {
    return this.withRelease((s) => {
      // Cached per release, entity and suppression (a new list counts again).
      const sup = s.suppression();
      const key = `${s.info.id}:${entity}:${entity === 'contact' ? (sup?.version ?? 0) : 0}`;
      return this.populatedOf(key, () => {
        const q = populatedCountsSql(entity, sup);
        return s.run(q.sql, q.params, { budgetMs: 60_000 });
      });
    });
  }

  private populatedOf(
    key: string,
    read: () => Promise<Record<string, unknown>[]>,
  ): Promise<{ rows: number; columns: Record<string, number> }> {
    let hit = this.populated.get(key);
    if (!hit) {
      hit = read().then(([row]) => {
        const { __rows, ...columns } = row as Record<string, number>;
        return {
          rows: Number(__rows),
          columns: Object.fromEntries(Object.entries(columns).map(([k, v]) => [k, Number(v)])),
        };
      });
      hit.catch(() => this.populated.delete(key));
      if (this.populated.size > 8) this.populated.clear();
      this.populated.set(key, hit);
    }
    return hit;
  }

  distinctValues(entity: Entity, column: string, q: string | null, limit: number): Promise<ValueCount[]> {
    return this.withRelease(async (s) => {
      const sup = s.suppression();
      const values = (rows: Record<string, unknown>[]) =>
        rows.map((r) => ({ value: String(r.value), count: Number(r.count) }));
      if (readsCutCounts(entity, column, sup)) {
        const cuts = sup!.companies!;
        const stored = cutCountStoredSql(cuts);
        return cutCountValues(values(await s.run(stored.sql, stored.params)), cuts, q, limit);
      }
      const { sql, params } = distinctValuesSql(entity, column, q, limit, sup);
      return values(await s.run(sql, params));
    });
  }

  /** Count and/or one keyset page of a compiled IR query, both on one pinned release. */
  query(entity: Entity, where: IRNode, req: QueryRequest): Promise<QueryResult> {
    return this.withRelease((s) => runQuery(s, s.info.id, entity, where, req));
  }

  exportCount(
    entity: Entity,
    where: IRNode,
    req: { maxPerCompany: number | null; budgetMs: number; tenant?: string },
  ): Promise<ExportCount> {
    return this.withRelease((s) => exportCount(s, entity, where, req));
  }

  exportCsv(entity: Entity, where: IRNode, req: CsvExportRequest): Promise<CsvExportResult> {
    return this.withRelease((s) => exportCsv(s, entity, where, req, this.opts));
  }

  /**
   * Applies a suppression list to the serving release and to the retired ones still finishing reads; resolves once
   * every read that starts from then on leaves its contacts out. Lists are applied in call order (an older one never
   * replaces a newer). A failure leaves the previous list applied and rejects (the caller retries).
   */
  async setSuppression(s: Suppression): Promise<{ contacts: number }> {
    const version = ++this.suppressionVersion;
    this.suppression = s;
    const targets = [this.current, ...this.draining].filter((r): r is OpenRelease => r !== null);
    await Promise.all(targets.map((r) => r.suppress(s, version)));
    return { contacts: this.current?.suppressionState.contacts ?? 0 };
  }

  /** What the serving release's last suppression resolution did (bench/suppression-bench.ts), or null. */
  suppressionStats(): ResolveStats | null {
    return this.current?.lastSuppression ?? null;
  }

  /** Checks CURRENT now (after any check already running) and swaps when it names another release. */
  refresh(): Promise<void> {
    const run = (this.checking ?? Promise.resolve()).then(() => this.check());
    const tracked: Promise<void> = run.finally(() => {
      if (this.checking === tracked) this.checking = null;
    });
    this.checking = tracked;
    return run;
  }

  private async check(): Promise<void> {
    const stamp = await currentStamp(this.opts.dataDir);
    // Retry on an unchanged pointer only while nothing serves (the file may appear later).
    if (stamp === this.stamp && this.current) return;
    let pointer: CurrentPointer | null;
    try {
      pointer = await readCurrent(this.opts.dataDir);
    } catch (e) {
      this.lastError = (e as Error).message;
      return;
    }
    this.stamp = stamp;
    if (!pointer) {
      if (!this.current) this.lastError = 'No data release has been loaded yet (releases/CURRENT is missing).';
      return;
    }
    if (this.current?.info.id === pointer.id) return;
    let next: OpenRelease;
    try {
      next = await OpenRelease.open(
        pointerFile(this.opts.dataDir, pointer),
        {
          id: pointer.id,
          createdAt: pointer.createdAt,
          contacts: pointer.contacts,
          companies: pointer.companies,
          source: pointer.source,
        },
        {
          poolSize: this.opts.poolSize,
          threads: this.opts.threads,
          memoryLimit: this.opts.memoryLimit,
          pointReaders: this.opts.pointReaders,
          pointStore: this.opts.pointStore,
          index: this.opts.index,
          indexCacheMb: this.opts.indexCacheMb,
          resultCacheMb: this.opts.resultCacheMb,
        },
        this.opts.queryBudgetMs,
      );
    } catch (e) {
      // Keep serving the previous release when there is one; the pointer is retried only when it changes.
      this.lastError = `Release ${pointer.id} could not be opened: ${(e as Error).message}`;
      if (!this.current) this.stamp = null;
      return;
    }
    try {
      // Serves only with the latest suppression list resolved (a list set meanwhile is resolved again).
      while (!this.closed && next.suppressionState.version < this.suppressionVersion)
        await next.suppress(this.suppression, this.suppressionVersion);
    } catch (e) {
      // Retried at the next poll; until then the previous release (if any) serves, with the list applied.
      this.lastError = `Release ${pointer.id} could not apply the suppression list: ${(e as Error).message}`;
      this.stamp = null;
      await next.retire();
      return;
    }
    if (this.closed) {
      await next.retire();
      return;
    }
    const old = this.current;
    this.current = next;
    this.lastError = undefined;
    this.opts.onReleaseSwitch?.({ from: old?.info ?? null, to: next.info });
    if (old) {
      const p = old.retire();
      this.retiring.add(p);
      this.draining.add(old);
      void p.finally(() => {
        this.retiring.delete(p);
        this.draining.delete(old);
      });
    }
  }

  startWatching(): void {
    if (this.timer || this.closed) return;
    // A poll is skipped while a check runs, so slow opens never pile up.
    this.timer = setInterval(() => {
      if (!this.checking) this.refresh().catch(() => undefined);
      this.current?.adoptIndex();
    }, this.opts.pollMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
    const cur = this.current;
    this.current = null;
    if (cur) this.retiring.add(cur.retire());
    await Promise.all([...this.retiring]);
  }
}

/**
 * Opens the release CURRENT names (or starts unavailable, never throwing for missing data) and watches for new ones.
 */
export async function openDuckDBEngine(options: DuckDBEngineOptions): Promise<DuckDBEngine> {
  const engine = new DuckDBEngine({
    dataDir: options.dataDir,
    poolSize: options.poolSize ?? 4,
    threads: options.threads ?? 2,
    memoryLimit: options.memoryLimit ?? '3GB',
    queryBudgetMs: options.queryBudgetMs ?? DEFAULT_BUDGET_MS,
    pollMs: options.pollMs ?? 500,
    pointReaders: options.pointReaders ?? 4,
    pointStore: options.pointStore ?? true,
    index: options.index ?? true,
    indexCacheMb: options.indexCacheMb ?? 256,
    resultCacheMb: options.resultCacheMb ?? 128,
    suppression: options.suppression ?? EMPTY_SUPPRESSION,
    ...(options.onReleaseSwitch ? { onReleaseSwitch: options.onReleaseSwitch } : {}),
  });
  await engine.refresh();
  engine.startWatching();
  return engine;
}
