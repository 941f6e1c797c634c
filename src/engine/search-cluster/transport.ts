import type { estypes } from '@elastic/elasticsearch';

/**
 * What the search-cluster engine family asks of a cluster: the few calls its reads, its loader and `cds releases`
 * make, with the Query DSL bodies both products share. Two transports implement it, each in its own folder with its
 * official client: elasticsearch/ (`@elastic/elasticsearch`, 9.x compatibility headers, `_pit`) and opensearch/
 * (`@opensearch-project/opensearch`, `_search/point_in_time`). A transport answers response bodies and throws only
 * ClusterError, so the family never sees a client's own types or error classes.
 */
export interface ClusterClient {
  /** The product, as errors and health notes name it: `Elasticsearch` or `OpenSearch`. */
  readonly product: string;
  /**
   * A search; `index` names the concrete indices (absent with a point in time). Partial results are refused at the
   * cluster (`allow_partial_search_results=false`): a shard that cannot answer fails the search.
   */
  search<T = Record<string, unknown>>(
    req: estypes.SearchRequest,
    opts?: CallOptions,
  ): Promise<estypes.SearchResponse<T>>;
  /** Opens a point in time on an index (every shard, or an error), answering its id. */
  openPointInTime(index: string, keepAlive: string): Promise<string>;
  closePointInTime(id: string): Promise<void>;
  bulk(operations: unknown[]): Promise<BulkAnswer>;
  ping(opts?: CallOptions): Promise<void>;
  createIndex(
    index: string,
    settings: estypes.IndicesIndexSettings,
    mappings: estypes.MappingTypeMapping,
  ): Promise<void>;
  /** Deletes indices; missing ones are no error. */
  deleteIndices(indices: readonly string[]): Promise<void>;
  putSettings(index: string, settings: estypes.IndicesIndexSettings): Promise<void>;
  refresh(index: string): Promise<void>;
  /** The mapping's `_meta` of an index (undefined without one). */
  getMeta(index: string): Promise<Record<string, unknown> | undefined>;
  putMeta(index: string, meta: Record<string, unknown>): Promise<void>;
  /** The indices an alias names; [] when the alias does not exist. */
  aliasIndices(alias: string): Promise<string[]>;
  updateAliases(actions: AliasAction[]): Promise<void>;
  /** Names of the indices matching a pattern (`contacts-*`). */
  indexNames(pattern: string): Promise<string[]>;
  close(): Promise<void>;
}

/** Per-call transport options: the client's own timeout and retries. */
export interface CallOptions {
  requestTimeout?: number;
  maxRetries?: number;
}

export type AliasAction = { add: { index: string; alias: string } } | { remove: { index: string; alias: string } };

/** A bulk answer: whether any item failed, and each item's status and error in request order. */
export interface BulkAnswer {
  errors: boolean;
  items: { status: number; error?: { type: string; reason?: string | null } }[];
}

/**
 * A cluster call that failed, as every transport reports it: `timeout` (the client's request timeout or an abort),
 * `unreachable` (no connection, no living node) or `response` (the cluster answered an error status, with its error
 * type when the body names one).
 */
export class ClusterError extends Error {
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'response',
    message: string,
    readonly status?: number,
    readonly type?: string,
  ) {
    super(message);
    this.name = 'ClusterError';
  }
}

/** The error classes both official clients export under the same names (`errors` of each package). */
export interface ClientErrors {
  TimeoutError: abstract new (...a: never[]) => Error;
  RequestAbortedError: abstract new (...a: never[]) => Error;
  ConnectionError: abstract new (...a: never[]) => Error;
  NoLivingConnectionsError: abstract new (...a: never[]) => Error;
  ResponseError: abstract new (...a: never[]) => Error & { statusCode?: number; body?: unknown };
}

/** A client's failure as a ClusterError (anything else unchanged), from the client's own error classes. */
export function clusterError(e: unknown, c: ClientErrors): unknown {
  if (e instanceof c.TimeoutError || e instanceof c.RequestAbortedError) return new ClusterError('timeout', e.message);
  if (e instanceof c.ConnectionError || e instanceof c.NoLivingConnectionsError)
    return new ClusterError('unreachable', e.message);
  if (e instanceof c.ResponseError) {
    const type = (e.body as { error?: { type?: unknown } } | null | undefined)?.error?.type;
    return new ClusterError('response', e.message, e.statusCode ?? 0, typeof type === 'string' ? type : undefined);
  }
  return e;
}
