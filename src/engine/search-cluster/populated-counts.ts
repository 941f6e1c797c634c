import { type Entity, publicColumns } from '../../domain/catalog/index.js';
import { compileWhere, MATCH_ALL, type Query } from './compile/compile-where.js';
import { clusterCall } from './errors.js';
import type { ClusterSession } from './session.js';

/**
 * Rows in the release and, per public column, rows holding a value, with the IR's `exists` (the same notion as
 * DuckDB's count_if): one search with a `filters` aggregation, suppressed contacts left out.
 */
export async function populatedCounts(
  s: ClusterSession,
  entity: Entity,
): Promise<{ rows: number; columns: Record<string, number> }> {
  const sup = s.suppression();
  const query: Query = entity === 'contact' && sup ? { bool: { must_not: [sup.hidden] } } : MATCH_ALL;
  const filters: Record<string, Query> = {};
  for (const c of publicColumns(entity)) filters[c.name] = compileWhere(entity, { field: c.name, op: 'exists' });
  const r = await clusterCall(() =>
    s.client.search({
      index: s.indices[entity],
      size: 0,
      track_total_hits: true,
      query,
      aggs: { cols: { filters: { filters } } },
    }),
  );
  const total = r.hits.total;
  const buckets =
    (r.aggregations?.cols as { buckets: Record<string, { doc_count: number }> } | undefined)?.buckets ?? {};
  const columns: Record<string, number> = {};
  for (const c of publicColumns(entity)) columns[c.name] = buckets[c.name]?.doc_count ?? 0;
  return { rows: typeof total === 'number' ? total : (total?.value ?? 0), columns };
}
