import type { DuckDBValue } from '@duckdb/node-api';
import { type Entity, findColumn } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import { lowerText } from '../../domain/text/lower.js';
import type { ValueCount } from '../port.js';
import { Params } from './compile/params.js';
import { ident, TABLE } from './schema.js';
import { CONTACT_COUNT, type CompanyCuts, keptSql, type Suppressed } from './suppression/suppressed.js';

/**
 * SQL for the distinct stored values of one column with their row counts, most frequent first.
 * Only catalog columns reach the SQL (the name is the catalog's, never the caller's text); `q` and
 * `limit` are parameters. List columns are unnested, so each element counts once per row. Suppressed contacts are
 * not counted. A company's contact_count under a suppression that cuts it is counted by `cutCountValues` instead.
 */
export function distinctValuesSql(
  entity: Entity,
  column: string,
  q: string | null,
  limit: number,
  sup: Suppressed | null = null,
): { sql: string; params: DuckDBValue[] } {
  const col = findColumn(entity, column, true);
  if (!col || col.kind === 'record') {
    throw new AppError('column.not_found', `Column ${column} has no listable values.`, { field: 'column' });
  }
  const p = new Params();
  const kept = entity === 'contact' && sup ? ` WHERE ${keptSql(sup.contactsBits, p)}` : '';
  const source =
    col.kind === 'list'
      ? `SELECT unnest(${ident(col.name)}) AS value FROM ${ident(TABLE[entity])}${kept}`
      : `SELECT CAST(${ident(col.name)} AS VARCHAR) AS value FROM ${ident(TABLE[entity])}${kept}`;
  let where = `value IS NOT NULL AND value <> ''`;
  if (q !== null && q.trim() !== '') where += ` AND contains(lower(value), ${p.add(lowerText(q.trim()))})`;
  const sql =
    `SELECT value, count(*) AS count FROM (${source}) WHERE ${where} GROUP BY value ORDER BY count DESC, value ` +
    `LIMIT ${p.add(Math.max(1, Math.min(Math.trunc(limit) || 1, 10_000)))}`;
  return { sql, params: p.values };
}

/** Whether distinct values of a column must be counted with the suppression's cut contact counts. */
export function readsCutCounts(entity: Entity, column: string, sup: Suppressed | null): boolean {
  return entity === 'company' && sup?.companies != null && findColumn(entity, column, true)?.name === CONTACT_COUNT;
}

/**
 * Distinct values of companies' contact_count under a suppression: the stored counts of the companies without a cut
 * (`stored`, from `cutCountStoredSql`) plus the cut counts of the others, then filtered, ordered and limited as
 * distinctValuesSql does.
 */
export function cutCountValues(
  stored: readonly ValueCount[],
  cuts: CompanyCuts,
  q: string | null,
  limit: number,
): ValueCount[] {
  const counts = new Map(stored.map((v) => [v.value, v.count]));
  for (const n of cuts.counts) counts.set(String(n), (counts.get(String(n)) ?? 0) + 1);
  const needle = lowerText(q?.trim() ?? '');
  return [...counts]
    .filter(([value]) => value !== '' && lowerText(value).includes(needle))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, Math.max(1, Math.min(Math.trunc(limit) || 1, 10_000)))
    .map(([value, count]) => ({ value, count }));
}

/** The stored contact counts of the companies without a cut, with their row counts. */
export function cutCountStoredSql(cuts: CompanyCuts): { sql: string; params: DuckDBValue[] } {
  const p = new Params();
  return {
    sql:
      `SELECT CAST(${ident(CONTACT_COUNT)} AS VARCHAR) AS value, count(*) AS count FROM ${ident(TABLE.company)} WHERE ` +
      `${keptSql(cuts.affectedBits, p)} GROUP BY value`,
    params: p.values,
  };
}
