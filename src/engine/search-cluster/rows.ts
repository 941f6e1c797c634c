import type { estypes } from '@elastic/elasticsearch';

/**
 * A hit as a row the rest of the service sees: the asked columns from `_source` (a missing field is null, as a DuckDB
 * NULL; lists as arrays; records as their JSON text, as stored) and `sort_key`.
 */
export function rowOf(
  hit: estypes.SearchHit<Record<string, unknown>>,
  columns: readonly string[],
): Record<string, unknown> {
  const src = hit._source ?? {};
  const row: Record<string, unknown> = {};
  for (const c of columns) row[c] = src[c] ?? null;
  row.sort_key = src.sort_key ?? hit.sort?.[0] ?? null;
  return row;
}
