import { FILTER_NUMBER_RANGE_TEXT, inFilterRange } from '../../../domain/query/number-range.js';
import { isIsoDate, quote } from '../../../domain/query/shape.js';
import { guardLiteral, refuse } from './refuse.js';

/** The AST of DuckDB's `json_serialize_sql`, as far as the walk reads it. */
export interface AstNode {
  class: string;
  type: string;
  [member: string]: unknown;
}

export type Literal =
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'date'; value: string };

const INTEGER_TYPES = new Set([
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'HUGEINT',
  'UTINYINT',
  'USMALLINT',
  'UINTEGER',
  'UBIGINT',
  'UHUGEINT',
]);

export function isAstNode(v: unknown): v is AstNode {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as AstNode).class === 'string' &&
    typeof (v as AstNode).type === 'string'
  );
}

/**
 * A constant of the allow-list: strings, integers, decimals, booleans, dates (`DATE '2024-01-31'`). Anything else is
 * refused.
 */
export function literal(n: AstNode): Literal {
  if (n.class === 'CONSTANT') return constant(n);
  // TRUE / FALSE and DATE '…' reach the AST as casts of a string constant; no other cast is taken.
  if (n.class === 'CAST' && n.try_cast === false && isAstNode(n.child) && n.child.class === 'CONSTANT') {
    const inner = constant(n.child);
    const to = (n.cast_type as { id?: unknown } | undefined)?.id;
    if (inner.kind === 'string' && to === 'BOOLEAN' && (inner.value === 't' || inner.value === 'f'))
      return { kind: 'boolean', value: inner.value === 't' };
    if (inner.kind === 'string' && to === 'DATE') {
      if (!isIsoDate(inner.value))
        throw refuse(
          `DATE ${quote(inner.value)} is not a date in YYYY-MM-DD format.`,
          "Write dates as DATE '2024-01-31' or '2024-01-31'.",
        );
      return { kind: 'date', value: inner.value };
    }
  }
  throw refuse(`where_sql compares a column with ${describe(n)}; only constants are accepted there.`, VALUE_HINT);
}

const VALUE_HINT = "Values are constants: 'text', 42, 2.5, TRUE, FALSE, DATE '2024-01-31'.";

function constant(n: AstNode): Literal {
  const v = n.value as
    | { type?: { id?: unknown; type_info?: { scale?: unknown } | null }; is_null?: unknown; value?: unknown }
    | undefined;
  if (v?.is_null === true)
    throw refuse('where_sql compares a column with NULL, which never matches.', 'Use col IS NULL or col IS NOT NULL.');
  const id = v?.type?.id;
  const raw = v?.value;
  if (id === 'VARCHAR' && typeof raw === 'string') {
    guardLiteral(raw);
    return { kind: 'string', value: raw };
  }
  if (id === 'BOOLEAN' && typeof raw === 'boolean') return { kind: 'boolean', value: raw };
  if (typeof id === 'string' && INTEGER_TYPES.has(id) && typeof raw === 'number' && Number.isSafeInteger(raw))
    return { kind: 'number', value: raw };
  if (id === 'DECIMAL' && typeof raw === 'number' && Number.isSafeInteger(raw)) {
    const scale = v?.type?.type_info?.scale;
    if (typeof scale === 'number' && Number.isInteger(scale) && scale >= 0 && scale <= 22)
      return { kind: 'number', value: raw / 10 ** scale };
  }
  if ((id === 'DOUBLE' || id === 'FLOAT') && typeof raw === 'number' && inFilterRange(raw))
    return { kind: 'number', value: raw };
  if (id === 'DOUBLE' || id === 'FLOAT')
    throw refuse(`A number in where_sql is outside the range ${FILTER_NUMBER_RANGE_TEXT}.`, VALUE_HINT);
  if (typeof id === 'string' && (INTEGER_TYPES.has(id) || id === 'DECIMAL')) {
    throw refuse('A number in where_sql is too large or too precise.', 'Use at most 15 significant digits.');
  }
  throw refuse(
    `where_sql holds a constant of type ${typeof id === 'string' ? id : 'unknown'}, which is not accepted.`,
    VALUE_HINT,
  );
}

/** What a refused node is, in the words of SQL. */
export function describe(n: AstNode): string {
  switch (n.class) {
    case 'FUNCTION':
      return typeof n.function_name === 'string' && /^[a-z_][a-z0-9_]*$/i.test(n.function_name)
        ? `the function ${n.function_name}()`
        : `the operator ${quote(String(n.function_name))}`;
    case 'SUBQUERY':
      return n.subquery_type === 'EXISTS' ? 'EXISTS (subquery)' : 'a subquery';
    case 'STAR':
      return n.columns === true ? 'COLUMNS(…)' : '*';
    case 'CAST':
      return 'a cast';
    case 'CASE':
      return 'CASE';
    case 'WINDOW':
      return 'a window function';
    case 'PARAMETER':
      return 'a parameter placeholder';
    case 'COLLATE':
      return 'COLLATE';
    case 'LAMBDA':
      return 'a lambda';
    case 'COLUMN_REF':
      return 'a column';
    case 'CONSTANT':
      return 'a constant';
    case 'CONJUNCTION':
      return 'AND / OR';
    default:
      return `a ${n.class.toLowerCase().replace(/_/g, ' ')} expression`;
  }
}
