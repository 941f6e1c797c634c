import { AppError, isAppError } from '../../domain/errors/index.js';
import { ClusterError } from './transport.js';

/**
 * Client failures as the service's errors: past a budget (the client's request timeout, an abort, or a search that
 * answered `timed_out`) is 504 query.timeout; an unreachable cluster, a missing index (a release deleted under a
 * read), too many requests, a server-side failure (5xx) or an unavailable shard is 503 data.unavailable. Anything
 * else is a programming error and stays as it is.
 */
export function asAppError(e: unknown): unknown {
  if (isAppError(e)) return e;
  if (!(e instanceof ClusterError)) return e;
  if (e.kind === 'timeout') return new AppError('query.timeout', 'The query passed its time budget and was stopped.');
  if (e.kind === 'unreachable')
    return new AppError('data.unavailable', `Data is unavailable: the search cluster is unreachable (${e.message}).`);
  const status = e.status ?? 0;
  if (status === 429 || status >= 500 || UNAVAILABLE.has(e.type ?? ''))
    return new AppError(
      'data.unavailable',
      `Data is unavailable: the search cluster answered ${status} ${e.type ?? ''}`.trim(),
    );
  return e;
}

/**
 * Error types that mean part of the data cannot be read now, whatever the status (a cluster's server-side failure,
 * 5xx, is that too: shards that failed with `allow_partial_search_results=false` after a node was lost): a missing
 * index (a release deleted under a read), a point in time whose shards went with their node.
 */
const UNAVAILABLE = new Set([
  'index_not_found_exception',
  'no_shard_available_action_exception',
  'node_disconnected_exception',
  'node_not_connected_exception',
  'search_context_missing_exception',
  'cluster_block_exception',
]);

/**
 * Runs a client call and turns its failures into the service's errors. A search that some shards failed to answer
 * comes back 200 with what the others found; taken as whole it would undercount, leave rows out of pages and
 * exports, and miss opted-out people, so it is 503 data.unavailable instead.
 */
export async function clusterCall<T>(fn: () => Promise<T>): Promise<T> {
  let answer: T;
  try {
    answer = await fn();
  } catch (e) {
    throw asAppError(e);
  }
  const failed = (answer as { _shards?: { failed?: number } } | null | undefined)?._shards?.failed;
  if (typeof failed === 'number' && failed > 0)
    throw new AppError('data.unavailable', `Data is unavailable: ${failed} search shard(s) failed to answer.`);
  return answer;
}

/** A search that answered `timed_out` (partial hits) passed its budget. */
export function timedOut(): AppError {
  return new AppError('query.timeout', 'The query passed its time budget and was stopped.');
}

/** Transport options of a call with a budget: the client gives up a little after the cluster's own timeout. */
export function budgetOptions(budgetMs: number | undefined): { requestTimeout?: number; maxRetries?: number } {
  return budgetMs === undefined ? {} : { requestTimeout: budgetMs + 1_000, maxRetries: 0 };
}
