import { errors } from '@elastic/elasticsearch';
import { AppError, isAppError } from '../../domain/errors/index.js';

/**
 * Client failures as the service's errors: past a budget (the client's request timeout, an abort, or a search that
 * answered `timed_out`) is 504 query.timeout; an unreachable cluster, a missing index (a release deleted under a
 * read), too many requests or an unavailable shard is 503 data.unavailable. Anything else is a programming error and
 * stays as it is.
 */
export function asAppError(e: unknown): unknown {
  if (isAppError(e)) return e;
  if (e instanceof errors.TimeoutError || e instanceof errors.RequestAbortedError)
    return new AppError('query.timeout', 'The query passed its time budget and was stopped.');
  if (e instanceof errors.ConnectionError || e instanceof errors.NoLivingConnectionsError)
    return new AppError('data.unavailable', 'Data is unavailable: the Elasticsearch cluster is unreachable.');
  if (e instanceof errors.ResponseError) {
    const status = e.statusCode ?? 0;
    const type = (e.body as { error?: { type?: string } } | undefined)?.error?.type;
    if (status === 429 || status === 502 || status === 503 || status === 504 || type === 'index_not_found_exception')
      return new AppError(
        'data.unavailable',
        `Data is unavailable: Elasticsearch answered ${status} ${type ?? ''}`.trim(),
      );
  }
  return e;
}

/**
 * Runs a client call and turns its failures into the service's errors. A search that some shards failed to answer
 * comes back 200 with what the others found; taken as whole it would undercount, leave rows out of pages and
 * exports, and miss opted-out people, so it is 503 data.unavailable instead.
 */
export async function esCall<T>(fn: () => Promise<T>): Promise<T> {
  let answer: T;
  try {
    answer = await fn();
  } catch (e) {
    throw asAppError(e);
  }
  const failed = (answer as { _shards?: { failed?: number } } | null | undefined)?._shards?.failed;
  if (typeof failed === 'number' && failed > 0)
    throw new AppError('data.unavailable', `Data is unavailable: ${failed} Elasticsearch shard(s) failed to answer.`);
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
