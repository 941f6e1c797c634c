import type { DuckDBValue } from '@duckdb/node-api';
import { type Entity, findColumn } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import { ident, TABLE } from './schema.js';

/**
 * SQL for the distinct stored values of one column with their row counts, most frequent first.
 * Only catalog columns reach the SQL (the name is the catalog's, never the caller's text); `q` and
 * `limit` are parameters. List columns are unnested, so each element counts once per row.
 */
export function distinctValuesSql(
  entity: Entity,
  column: string,
  q: string | null,
  limit: number,
): { sql: string; params: DuckDBValue[] } {
  const col = findColumn(entity, column, true);
  if (!col || col.kind === 'record') {
    throw new AppError('column.not_found', `Column ${column} has no listable values.`, { field: 'column' });
  }
  const source =
    col.kind === 'list'
      ? `SELECT unnest(${ident(col.name)}) AS value FROM ${ident(TABLE[entity])}`
      : `SELECT CAST(${ident(col.name)} AS VARCHAR) AS value FROM ${ident(TABLE[entity])}`;
  const params: DuckDBValue[] = [];
  let where = `value IS NOT NULL AND value <> ''`;
  if (q !== null && q.trim() !== '') {
    params.push(q.trim().toLowerCase());
    where += ` AND contains(lower(value), $${params.length})`;
  }
  params.push(Math.max(1, Math.min(Math.trunc(limit) || 1, 10_000)));
  const sql =
    `SELECT value, count(*) AS count FROM (${source}) WHERE ${where} GROUP BY value ORDER BY count DESC, value ` +
    `LIMIT $${params.length}`;
  return { sql, params };
}
