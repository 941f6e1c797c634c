import type { ColumnDef, Entity } from '../catalog/index.js';
import { rejected, tooManyValues } from './filter-errors.js';
import type { Scalar } from './ir.js';
import { WHERE_MAX_IN_VALUES } from './limits.js';
import { FILTER_NUMBER_RANGE_TEXT, filterNumber, inFilterRange } from './number-range.js';
import { describeType, hasEdgeWildcard, isAbsent, isIsoDate, isYearMonth, item, quote, unique } from './shape.js';
import { foldOrThrow } from './values.js';
import { FOLDING_OPS, takes, type WhereOp } from './where-operators.js';

/**
 * The normalized value of a where leaf, checked against the column's kind. Every refusal is
 * 422 `filter.rejected` naming what the column takes, except an unknown closed-list value (400).
 */
export function leafValue(col: ColumnDef, op: WhereOp, raw: unknown, path: string, entity: Entity): Scalar | Scalar[] {
  if (op === 'exists') return existsValue(col, raw, path);
  if (isAbsent(raw)) {
    throw rejected(
      path,
      `A ${op} leaf needs a value.`,
      `${takes(col)}; to find rows without a value use {"op": "exists", "value": false}.`,
    );
  }
  if (op === 'in' || op === 'not_in') {
    if (!Array.isArray(raw))
      throw rejected(
        path,
        `${op} takes a list of values, not ${describeType(raw)}.`,
        `${takes(col)}; send "value": [ … ].`,
      );
    if (raw.length === 0)
      throw rejected(path, `${op} needs at least one value.`, 'Send one value or more, or remove the leaf.');
    if (raw.length > WHERE_MAX_IN_VALUES) throw tooManyValues(path, raw.length, WHERE_MAX_IN_VALUES);
    return unique(raw.map((v: unknown, i) => scalar(col, op, v, item(path, i), entity)));
  }
  if (Array.isArray(raw))
    throw rejected(path, `${op} takes a single value, not a list.`, `Use "op": "in" to match any of several values.`);
  return scalar(col, op, raw, path, entity);
}

/** `exists` takes no value or true; false means the column is empty. */
function existsValue(col: ColumnDef, raw: unknown, path: string): boolean {
  if (isAbsent(raw) || raw === true) return true;
  if (raw === false) return false;
  throw rejected(path, `exists takes no value, true or false; got ${describeType(raw)}.`, `${takes(col)}.`);
}

function scalar(col: ColumnDef, op: WhereOp, raw: unknown, path: string, entity: Entity): Scalar {
  const refuse = (what: string): never => {
    throw rejected(path, `${col.name} does not take ${what}.`, `${takes(col)}.`);
  };
  switch (col.kind) {
    case 'number':
      if (typeof raw !== 'number' || !Number.isFinite(raw)) return refuse(describeType(raw));
      return inFilterRange(raw) ? filterNumber(raw) : refuse(`${raw}; numbers are ${FILTER_NUMBER_RANGE_TEXT}`);
    case 'bool':
      return typeof raw === 'boolean' ? raw : refuse(describeType(raw));
    case 'date':
      if (typeof raw !== 'string') return refuse(describeType(raw));
      return isIsoDate(raw.trim()) ? raw.trim() : refuse(`${quote(raw)}; it needs a date in YYYY-MM-DD format`);
    case 'text':
    case 'list':
    case 'record':
      return text(col, op, raw, path, entity, refuse);
  }
}

function text(
  col: ColumnDef,
  op: WhereOp,
  raw: unknown,
  path: string,
  entity: Entity,
  refuse: (what: string) => never,
): string {
  if (typeof raw !== 'string') return refuse(describeType(raw));
  const value = raw.trim();
  if (value === '') return refuse('a blank value (use exists false to find empty values)');
  if (hasEdgeWildcard(value).leading) {
    throw rejected(
      path,
      `${quote(raw)} starts with a wildcard, which where leaves do not take.`,
      'Drop the wildcard: contains already matches anywhere in the text.',
    );
  }
  if (op === 'contains') return value;
  if (col.type === 'month' && !isYearMonth(value)) return refuse(`${quote(raw)}; it needs a month in YYYY-MM format`);
  return col.list !== undefined && FOLDING_OPS.has(op) ? foldOrThrow(col.list, value, path, entity) : value;
}
