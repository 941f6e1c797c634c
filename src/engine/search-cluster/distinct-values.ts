import { type ColumnDef, type Entity, findColumn } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import { lowerText } from '../../domain/text/lower.js';
import type { ValueCount } from '../port.js';
import { allBuckets } from './aggregations.js';
import { MATCH_ALL, type Query, termsOf } from './compile/compile-where.js';
import { wildcardLiteral } from './compile/words.js';
import { LOWER } from './schema.js';
import type { ClusterSession } from './session.js';
import { CONTACT_COUNT } from './suppression.js';

/** A stored value as DuckDB's CAST(… AS VARCHAR) prints it. */
function valueText(col: ColumnDef, key: unknown): string {
  if (col.storage === 'BOOLEAN') return key === true || key === 1 || key === 'true' ? 'true' : 'false';
  if (col.storage === 'DOUBLE' && typeof key === 'number' && Number.isInteger(key)) return key.toFixed(1);
  return String(key);
}

const clampLimit = (limit: number) => Math.max(1, Math.min(Math.trunc(limit) || 1, 10_000));

/**
 * Distinct stored values of a column with their row counts, most frequent first (ties by value), as
 * engine/duckdb/distinct-values.ts answers: list elements count once per row holding them, empty text is no value,
 * `q` keeps values containing it (case-insensitive). The rows are those reads see (suppressed contacts left out); a
 * company's contact_count under a suppression that cuts it is counted on the cut counts.
 */
export async function distinctValues(
  s: ClusterSession,
  entity: Entity,
  column: string,
  q: string | null,
  limit: number,
): Promise<ValueCount[]> {
  const col = findColumn(entity, column, true);
  if (!col || col.kind === 'record')
    throw new AppError('column.not_found', `Column ${column} has no listable values.`, { field: 'column' });
  const sup = s.suppression();
  const needle = lowerText(q?.trim() ?? '');
  const filter: Query[] = [];
  const mustNot: Query[] = [];
  if (entity === 'contact' && sup) mustNot.push(sup.hidden);
  const cuts = entity === 'company' && col.name === CONTACT_COUNT ? sup?.companies : null;
  if (cuts) mustNot.push(termsOf('id', [...cuts.counts.keys()]));
  // Rows holding a matching text value (the buckets are filtered again: a list's other elements come along).
  if (needle && col.storage !== 'BIGINT' && col.storage !== 'DOUBLE' && col.storage !== 'BOOLEAN')
    filter.push({ wildcard: { [`${col.name}.${LOWER}`]: { value: `*${wildcardLiteral(needle)}*` } } });
  const query: Query = filter.length || mustNot.length ? { bool: { filter, must_not: mustNot } } : MATCH_ALL;
  const counts = new Map<string, number>();
  for (const b of await allBuckets(s, s.indices[entity], query, col.name)) {
    const v = valueText(col, b.key);
    counts.set(v, (counts.get(v) ?? 0) + b.count);
  }
  if (cuts) for (const n of cuts.counts.values()) counts.set(String(n), (counts.get(String(n)) ?? 0) + 1);
  return [...counts]
    .filter(([value]) => value !== '' && lowerText(value).includes(needle))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, clampLimit(limit))
    .map(([value, count]) => ({ value, count }));
}
