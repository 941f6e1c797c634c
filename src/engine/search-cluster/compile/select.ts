import type { estypes } from '@elastic/elasticsearch';
import type { Entity } from '../../../domain/catalog/index.js';
import type { IRNode } from '../../../domain/query/ir.js';
import { compileWhere, type LeafRewrite, MATCH_ALL, type Query } from './compile-where.js';

/** The stable order of a release: `sort_key` ascending (the index sort, so early termination applies). */
export const SORT: estypes.SortCombinations[] = [{ sort_key: { order: 'asc' } }];

/**
 * The query of a read: the IR's query, without the rows a suppression leaves out (`hidden`: a query matching them,
 * suppression.ts), all in filter context (no scoring).
 */
export function visibleQuery(entity: Entity, where: IRNode, hidden: Query | null, rewrite?: LeafRewrite): Query {
  const q = compileWhere(entity, where, rewrite);
  if (!hidden) return q === MATCH_ALL ? q : { bool: { filter: [q] } };
  return { bool: { filter: [q], must_not: [hidden] } };
}

/** A count of the matches, exact (`track_total_hits: true`), within `budgetMs` (then `timed_out`). */
export function countRequest(index: string, query: Query, budgetMs: number | undefined): estypes.SearchRequest {
  return {
    index,
    query,
    size: 0,
    track_total_hits: true,
    ...(budgetMs !== undefined ? { timeout: `${budgetMs}ms` } : {}),
  };
}

/** The _source columns of a page: the asked ones and sort_key (the cursor), in the order asked. */
export function sourceColumns(columns: readonly string[]): string[] {
  return [...new Set([...columns, 'sort_key'])];
}

/**
 * One page in the stable order: keyset after `afterSortKey` (`search_after`), or family B's `offset` (`from`, within
 * the 50,000 rows of `max_result_window`). No count here (`track_total_hits: false`): the count is its own request.
 */
export function pageRequest(
  index: string,
  query: Query,
  columns: readonly string[],
  afterSortKey: number | null,
  limit: number,
  offset: number,
  budgetMs: number,
): estypes.SearchRequest {
  // search_after cannot be combined with `from`: a cursor with an offset is a range on sort_key instead.
  const keyset = afterSortKey !== null && offset === 0;
  const q: Query =
    afterSortKey !== null && !keyset
      ? { bool: { filter: [query, { range: { sort_key: { gt: afterSortKey } } }] } }
      : query;
  return {
    index,
    query: q,
    sort: SORT,
    size: limit,
    ...(offset > 0 ? { from: offset } : {}),
    ...(keyset ? { search_after: [afterSortKey] } : {}),
    _source: { includes: sourceColumns(columns) },
    track_total_hits: false,
    timeout: `${budgetMs}ms`,
  };
}
