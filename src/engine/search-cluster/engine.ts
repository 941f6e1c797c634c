import type { Entity } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import { EMPTY_SUPPRESSION, isEmptySuppression, type Suppression } from '../../domain/suppression.js';
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
import { distinctValues } from './distinct-values.js';
import { asAppError } from './errors.js';
import { exportCount, exportCsv } from './export-csv.js';
import { populatedCounts } from './populated-counts.js';
import { runQuery } from './queries.js';
import { readServing, type ServingRelease } from './releases.js';
import type { ClusterSession } from './session.js';
import { type ClusterSuppressed, resolveSuppression } from './suppression.js';
import type { ClusterClient } from './transport.js';

export interface ClusterEngineOptions {
  /** The cluster, through its transport (elasticsearch/ or opensearch/). */
  client: ClusterClient;
  /** Whether closing the engine closes the client (it made it). */
  ownsClient?: boolean;
  /** Prefix of the deployment's index and alias names (CDS_ES_PREFIX). */
  prefix?: string;
  /** How often the aliases are checked for a new release (ms). */
  pollMs?: number;
  /** The suppression list to apply from the start: the first release serves only once it is resolved. */
  suppression?: Suppression;
  /** Called once a release serves: the first one, then each switch (a new load or a rollback). Must not throw. */
  onReleaseSwitch?: (change: ReleaseSwitch) => void;
}

interface Serving extends ServingRelease {
  /** The suppression resolved against this release, and the list version it came from. */
  sup: ClusterSuppressed | null;
  supVersion: number;
  /** Reads running on it (a release replaced while reads run keeps getting new lists until they end). */
  active: number;
}

/**
 * The scale-out search engine: the release the `contacts` / `companies` aliases name on a search cluster (OpenSearch
 * 2.19/3.x or Elasticsearch 9.x, through their transports). Each read pins the serving release's concrete indices; a
 * new release (the loader swaps both aliases in one `_aliases` call) is found by polling the alias and serves once the
 * suppression list is resolved against it.
 * Every query is compiled from the IR (compile/); budgets are the search `timeout` and the client's request timeout;
 * an unreachable cluster is 503 data.unavailable, a budget passed 504 query.timeout (errors.ts).
 */
export class SearchClusterEngine implements SearchEngine {
  private current: Serving | null = null;
  private lastError: string | undefined;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private closed = false;
  private suppressionList: Suppression = EMPTY_SUPPRESSION;
  private suppressionVersion = 0;
  /** Replaced releases still finishing reads (an export): a new suppression list applies to them too. */
  private readonly draining = new Set<Serving>();
  private readonly populated = new Map<string, Promise<{ rows: number; columns: Record<string, number> }>>();

  constructor(
    readonly client: ClusterClient,
    private readonly prefix: string,
    private readonly pollMs: number,
    private readonly ownsClient: boolean,
    private readonly onReleaseSwitch?: (change: ReleaseSwitch) => void,
  ) {}

  release(): ReleaseInfo | null {
    return this.current?.info ?? null;
  }

  async health(): Promise<EngineHealth> {
    const cur = this.current;
    let reachable = true;
    try {
      await this.client.ping({ requestTimeout: 2_000, maxRetries: 0 });
    } catch (e) {
      reachable = false;
      this.lastError = `${this.client.product} is unreachable: ${(e as Error).message}`;
    }
    if (!cur || !reachable)
      return { ok: false, release: cur?.info ?? null, error: this.lastError ?? 'No data release is loaded.' };
    return {
      ok: true,
      release: cur.info,
      pointReads: { ok: true, note: 'term queries on the lookup fields' },
      index: { ok: true, note: `${this.client.product} indices ${cur.indices.contact}, ${cur.indices.company}` },
      ...(this.lastError ? { error: this.lastError } : {}),
    };
  }

  /** A read on a release (pinned for all its requests). */
  private session(cur: Serving, tenant?: string): ClusterSession {
    return {
      client: this.client,
      info: cur.info,
      indices: cur.indices,
      // Read again by an export at each slice: a list set meanwhile applies from the next one.
      suppression: () => cur.sup,
      ...(tenant ? { tenant } : {}),
    };
  }

  /** Runs a read on the serving release, counted on it until it ends. */
  private async use<T>(fn: (s: ClusterSession) => Promise<T>, tenant?: string): Promise<T> {
    const cur = this.current;
    if (!cur || this.closed)
      throw new AppError('data.unavailable', this.lastError ? `Data is unavailable: ${this.lastError}` : undefined);
    cur.active++;
    try {
      return await fn(this.session(cur, tenant));
    } catch (e) {
      throw asAppError(e);
    } finally {
      cur.active--;
      if (cur.active === 0) this.draining.delete(cur);
    }
  }

  populatedCounts(entity: Entity): Promise<{ rows: number; columns: Record<string, number> }> {
    return this.use((s) => {
      const key = `${s.info.id}:${entity}:${entity === 'contact' ? (s.suppression()?.version ?? 0) : 0}`;
      let hit = this.populated.get(key);
      if (!hit) {
        hit = populatedCounts(s, entity);
        hit.catch(() => this.populated.delete(key));
        if (this.populated.size > 8) this.populated.clear();
        this.populated.set(key, hit);
      }
      return hit;
    });
  }

  distinctValues(entity: Entity, column: string, q: string | null, limit: number): Promise<ValueCount[]> {
    return this.use((s) => distinctValues(s, entity, column, q, limit));
  }

  query(entity: Entity, where: IRNode, req: QueryRequest): Promise<QueryResult> {
    return this.use((s) => runQuery(s, entity, where, req), req.tenant);
  }

  exportCount(
    entity: Entity,
    where: IRNode,
    req: { maxPerCompany: number | null; budgetMs: number; tenant?: string },
  ): Promise<ExportCount> {
    return this.use((s) => exportCount(s, entity, where, req), req.tenant);
  }

  exportCsv(entity: Entity, where: IRNode, req: CsvExportRequest): Promise<CsvExportResult> {
    return this.use((s) => exportCsv(s, entity, where, req));
  }

  /**
   * Resolves the list against the serving release (how many contacts it hides, what it cuts from companies' contact
   * counts); every read that starts once it resolves leaves them out. Lists apply in call order; a failure leaves the
   * previous list applied and rejects.
   */
  async setSuppression(s: Suppression): Promise<{ contacts: number }> {
    const version = ++this.suppressionVersion;
    this.suppressionList = s;
    const targets = [this.current, ...this.draining].filter((r): r is Serving => r !== null);
    await Promise.all(
      targets.map(async (r) => {
        const sup = isEmptySuppression(s)
          ? null
          : await resolveSuppression(this.client, r.indices, s, version).catch((e) => {
              throw asAppError(e);
            });
        if (r.supVersion < version) {
          r.sup = sup;
          r.supVersion = version;
        }
      }),
    );
    return { contacts: this.current?.sup?.count ?? 0 };
  }

  /** Checks the alias now (after any check already running) and switches when it names another release. */
  refresh(): Promise<void> {
    const run = (this.checking ?? Promise.resolve()).then(() => this.check());
    const tracked: Promise<void> = run.finally(() => {
      if (this.checking === tracked) this.checking = null;
    });
    this.checking = tracked;
    return run;
  }

  private async check(): Promise<void> {
    let next: ServingRelease | null;
    try {
      next = await readServing(this.client, this.prefix, this.current);
    } catch (e) {
      this.lastError = `${this.client.product}: ${(e as Error).message}`;
      return;
    }
    if (!next) {
      if (!this.current) this.lastError = `No data release has been loaded into ${this.client.product} yet.`;
      return;
    }
    if (this.current?.info.id === next.info.id) {
      this.lastError = undefined;
      return;
    }
    const serving: Serving = { ...next, sup: null, supVersion: 0, active: 0 };
    try {
      // Serves only with the latest suppression list resolved (a list set meanwhile is resolved again).
      while (!this.closed && serving.supVersion < this.suppressionVersion) {
        const version = this.suppressionVersion;
        serving.sup = isEmptySuppression(this.suppressionList)
          ? null
          : await resolveSuppression(this.client, serving.indices, this.suppressionList, version);
        serving.supVersion = version;
      }
    } catch (e) {
      this.lastError = `Release ${next.info.id} could not apply the suppression list: ${(e as Error).message}`;
      return;
    }
    if (this.closed) return;
    const old = this.current;
    this.current = serving;
    this.lastError = undefined;
    this.onReleaseSwitch?.({ from: old?.info ?? null, to: serving.info });
    if (old && old.active > 0) this.draining.add(old);
  }

  startWatching(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => {
      if (!this.checking) this.refresh().catch(() => undefined);
    }, this.pollMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.checking?.catch(() => undefined);
    this.current = null;
    if (this.ownsClient) await this.client.close();
  }
}

/** Opens the engine on a cluster (never throwing for an unreachable cluster or no release: it answers 503 then). */
export async function openClusterEngine(o: ClusterEngineOptions): Promise<SearchClusterEngine> {
  const engine = new SearchClusterEngine(
    o.client,
    o.prefix ?? '',
    o.pollMs ?? 1_000,
    o.ownsClient ?? false,
    o.onReleaseSwitch,
  );
  if (o.suppression && !isEmptySuppression(o.suppression)) await engine.setSuppression(o.suppression);
  await engine.refresh();
  engine.startWatching();
  return engine;
}
