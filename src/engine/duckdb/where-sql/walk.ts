import { type ColumnDef, findColumn, isContactPoint, publicColumns } from '../../../domain/catalog/index.js';
import { and, type IRNode, type LeafOp, not, or, type Scalar } from '../../../domain/query/ir.js';
import { isIsoDate, isYearMonth, quote, unique } from '../../../domain/query/shape.js';
import { closest } from '../../../domain/query/suggest.js';
import { foldOrThrow } from '../../../domain/query/values.js';
import { opsOf } from '../../../domain/query/where-operators.js';
import { type AstNode, describe, isAstNode, type Literal, literal } from './literals.js';
import { FIELD, refuse } from './refuse.js';

/** Nesting of AND / OR / NOT a where_sql predicate may have; deeper trees are refused. */
export const WHERE_SQL_MAX_DEPTH = 32;

/**
 * The WHERE clause AST of DuckDB's parser into the Query IR, against an allow-list: public contact
 * columns; =, <>, !=, <, <=, >, >=, IN, NOT IN, BETWEEN, IS [NOT] NULL, [NOT] LIKE / ILIKE with
 * '%x%' or 'x%' (LIKE also 'x'), list_contains / array_contains; AND, OR, NOT; constants. Operators
 * and values must fit the column kind (family A rules). Everything else is refused with a 400.
 */
export function walkPredicate(n: unknown, depth = 0): IRNode {
  if (!isAstNode(n)) throw refuse('where_sql could not be read.', "Send one condition such as title ILIKE '%sales%'.");
  if (depth > WHERE_SQL_MAX_DEPTH)
    throw refuse(`where_sql is nested deeper than ${WHERE_SQL_MAX_DEPTH} levels.`, 'Flatten the condition.');
  switch (n.class) {
    case 'CONJUNCTION': {
      const children = nodes(n.children).map((c) => walkPredicate(c, depth + 1));
      if (n.type === 'CONJUNCTION_AND') return and(...children);
      if (n.type === 'CONJUNCTION_OR') return or(...children);
      break;
    }
    case 'OPERATOR':
      return operator(n, depth);
    case 'COMPARISON':
      return comparison(n);
    case 'BETWEEN':
      return between(n);
    case 'FUNCTION':
      return functionCall(n);
    case 'COLUMN_REF': {
      // A bare boolean column is a condition of its own: WHERE has_phone.
      const col = column(n);
      if (col.kind === 'bool') return { field: col.name, op: 'eq', value: true };
      throw refuse(`${col.name} is not a condition by itself.`, `Compare it: ${takes(col)}.`);
    }
  }
  if (n.class === 'CONSTANT' || (n.class === 'CAST' && isAstNode(n.child) && n.child.class === 'CONSTANT')) {
    throw refuse(
      'A where_sql condition must name a contact column; a constant alone is not a condition.',
      ALLOWED_HINT,
    );
  }
  throw refuse(`where_sql does not accept ${describe(n)}.`, ALLOWED_HINT);
}

const ALLOWED_HINT =
  'where_sql takes conditions on contact columns joined by AND, OR, NOT: =, <>, <, <=, >, >=, IN (…), NOT IN (…), ' +
  "BETWEEN, IS [NOT] NULL, LIKE / ILIKE '%x%' or 'x%', list_contains(col, 'x').";

function nodes(v: unknown): AstNode[] {
  if (!Array.isArray(v) || !v.every(isAstNode)) throw refuse('where_sql could not be read.', ALLOWED_HINT);
  return v;
}

function operator(n: AstNode, depth: number): IRNode {
  const children = nodes(n.children);
  switch (n.type) {
    case 'OPERATOR_NOT':
      return not(walkPredicate(children[0], depth + 1));
    case 'OPERATOR_IS_NULL':
    case 'OPERATOR_IS_NOT_NULL': {
      const col = column(children[0]!);
      return leafFor(col, 'exists', n.type === 'OPERATOR_IS_NOT_NULL');
    }
    case 'COMPARE_IN':
    case 'COMPARE_NOT_IN': {
      const [first, ...rest] = children;
      const col = column(first!);
      const op = n.type === 'COMPARE_IN' ? 'in' : 'not_in';
      allow(col, op);
      return { field: col.name, op, value: unique(rest.map((c) => scalar(col, op, literal(c)))) };
    }
  }
  throw refuse(`where_sql does not accept ${describe(n)}.`, ALLOWED_HINT);
}

const COMPARE: Readonly<Record<string, LeafOp>> = {
  COMPARE_EQUAL: 'eq',
  COMPARE_NOTEQUAL: 'neq',
  COMPARE_LESSTHAN: 'lt',
  COMPARE_LESSTHANOREQUALTO: 'lte',
  COMPARE_GREATERTHAN: 'gt',
  COMPARE_GREATERTHANOREQUALTO: 'gte',
};
/** The same comparison with its sides swapped: 5 < col is col > 5. */
const MIRROR: Readonly<Partial<Record<LeafOp, LeafOp>>> = { lt: 'gt', lte: 'gte', gt: 'lt', gte: 'lte' };

function comparison(n: AstNode): IRNode {
  let op = COMPARE[n.type];
  if (op === undefined)
    throw refuse(
      `where_sql does not accept the comparison ${n.type.replace(/^COMPARE_/, '').replace(/_/g, ' ')}.`,
      ALLOWED_HINT,
    );
  const [left, right] = [n.left, n.right];
  if (!isAstNode(left) || !isAstNode(right)) throw refuse('where_sql could not be read.', ALLOWED_HINT);
  refuseLower(left);
  refuseLower(right);
  const leftIsColumn = left.class === 'COLUMN_REF';
  const rightIsColumn = right.class === 'COLUMN_REF';
  if (leftIsColumn && rightIsColumn)
    throw refuse('where_sql compares two columns, which is not accepted.', 'Compare a column with a constant.');
  if (!leftIsColumn && !rightIsColumn) {
    const found =
      left.class === 'CONSTANT' && right.class === 'CONSTANT'
        ? 'it compares two constants'
        : `found ${describe(left)} and ${describe(right)}`;
    throw refuse(`A where_sql comparison must name a contact column; ${found}.`, ALLOWED_HINT);
  }
  const [colNode, valueNode] = leftIsColumn ? [left, right] : [right, left];
  if (!leftIsColumn) op = MIRROR[op] ?? op;
  const col = column(colNode);
  return leafFor(col, op, scalar(col, op, literal(valueNode)));
}

function between(n: AstNode): IRNode {
  if (!isAstNode(n.input) || !isAstNode(n.lower) || !isAstNode(n.upper))
    throw refuse('where_sql could not be read.', ALLOWED_HINT);
  if (n.input.class !== 'COLUMN_REF')
    throw refuse(`BETWEEN in where_sql needs a column on its left; found ${describe(n.input)}.`, ALLOWED_HINT);
  const col = column(n.input);
  return and(
    leafFor(col, 'gte', scalar(col, 'gte', literal(n.lower))),
    leafFor(col, 'lte', scalar(col, 'lte', literal(n.upper))),
  );
}

const LIKE: Readonly<Record<string, { negated: boolean; insensitive: boolean; sql: string }>> = {
  '~~': { negated: false, insensitive: false, sql: 'LIKE' },
  '!~~': { negated: true, insensitive: false, sql: 'NOT LIKE' },
  '~~*': { negated: false, insensitive: true, sql: 'ILIKE' },
  '!~~*': { negated: true, insensitive: true, sql: 'NOT ILIKE' },
};
const LIST_CONTAINS = new Set(['list_contains', 'array_contains', 'list_has', 'array_has']);

function functionCall(n: AstNode): IRNode {
  const name = typeof n.function_name === 'string' ? n.function_name.toLowerCase() : '';
  const plain =
    n.schema === '' && n.catalog === '' && n.filter === null && n.distinct === false && n.export_state === false;
  const orders = (n.order_bys as { orders?: unknown[] } | undefined)?.orders;
  const like = LIKE[name];
  if (plain && Array.isArray(orders) && orders.length === 0 && (like !== undefined || LIST_CONTAINS.has(name))) {
    const args = nodes(n.children);
    if (args.length === 2 && args[0]!.class === 'COLUMN_REF') {
      const col = column(args[0]!);
      const value = literal(args[1]!);
      if (like !== undefined) return likeLeaf(col, like, value);
      if (col.kind !== 'list') throw refuse(`${name}() takes a list column; ${col.name} is not one.`, `${takes(col)}.`);
      return leafFor(col, 'eq', scalar(col, 'eq', value));
    }
    throw refuse(
      `${like?.sql ?? `${name}()`} in where_sql needs a column and a constant, such as ` +
        `${like ? `title ${like.sql} '%sales%'` : `${name}(skills, 'python')`}.`,
      ALLOWED_HINT,
    );
  }
  if (name === 'lower' || name === 'upper' || name === 'lcase' || name === 'ucase') throw lowerRefusal();
  throw refuse(`where_sql does not accept ${describe(n)}.`, ALLOWED_HINT);
}

/**
 * LIKE patterns the IR can say: '%x%' -> contains, 'x%' -> prefix (both case-insensitive in the IR),
 * and for LIKE (not ILIKE) an exact 'x' -> eq. `_`, a leading-only % and an inner % are refused.
 */
function likeLeaf(
  col: ColumnDef,
  like: { negated: boolean; insensitive: boolean; sql: string },
  value: Literal,
): IRNode {
  if (value.kind !== 'string')
    throw refuse(
      `${like.sql} takes a text pattern, not ${value.kind === 'number' ? 'a number' : `a ${value.kind}`}.`,
      `${takes(col)}.`,
    );
  const pattern = value.value;
  const shapes = "Patterns: '%text%' (contains) or 'text%' (starts with).";
  if (pattern.includes('_'))
    throw refuse(
      `The ${like.sql} pattern ${quote(pattern)} uses the _ wildcard, which where_sql does not take.`,
      `${shapes} Compare with = or IN for exact values.`,
    );
  const m = /^(%*)([^%]*)(%*)$/.exec(pattern);
  if (m === null)
    throw refuse(
      `The ${like.sql} pattern ${quote(pattern)} has a % inside the text, which where_sql does not take.`,
      shapes,
    );
  const [, lead, core, trail] = m as unknown as [string, string, string, string];
  if (core === '')
    throw refuse(
      `The ${like.sql} pattern ${quote(pattern)} has no text.`,
      'Use col IS NOT NULL to find rows with a value.',
    );
  let op: LeafOp;
  if (lead !== '' && trail !== '') op = 'contains';
  else if (lead !== '')
    throw refuse(
      `The ${like.sql} pattern ${quote(pattern)} has a leading wildcard only (ends with), which where_sql does not ` +
        `take.`,
      shapes,
    );
  else if (trail !== '') op = 'prefix';
  else if (!like.insensitive) op = 'eq';
  else throw lowerRefusal();
  const leaf = leafFor(col, op, op === 'eq' ? scalar(col, op, { kind: 'string', value: core }) : textValue(col, core));
  return like.negated ? not(leaf) : leaf;
}

/** Case-insensitive equality has no IR operator; say what to use instead. */
function lowerRefusal() {
  return refuse(
    'Case-insensitive equality (lower(col) = …, ILIKE without %) is not accepted in where_sql.',
    "Stored values are normalized (slugs, lowercase emails and domains): compare with = 'value', or use ILIKE " +
      "'%text%' for a case-insensitive substring.",
  );
}

function refuseLower(n: AstNode): void {
  if (
    n.class === 'FUNCTION' &&
    typeof n.function_name === 'string' &&
    ['lower', 'upper', 'lcase', 'ucase'].includes(n.function_name.toLowerCase())
  )
    throw lowerRefusal();
}

function column(n: AstNode): ColumnDef {
  if (n.class !== 'COLUMN_REF') throw refuse(`where_sql expects a column here; found ${describe(n)}.`, ALLOWED_HINT);
  const names = n.column_names;
  if (!Array.isArray(names) || names.length !== 1 || typeof names[0] !== 'string') {
    throw refuse(
      `where_sql column names are written alone, without a table or schema: ` +
        `${quote(Array.isArray(names) ? names.join('.') : '?')}.`,
      'Write the column name only, such as title.',
    );
  }
  const col = findColumn('contact', names[0]);
  if (col === undefined) {
    const guess = closest(names[0], PUBLIC_NAMES);
    throw refuse(
      `${quote(names[0])} is not a contact column.`,
      `${guess ? `Did you mean ${guess}? ` : ''}GET /v1/contacts/schema lists the column names.`,
    );
  }
  return col;
}

const PUBLIC_NAMES = publicColumns('contact').map((c) => c.name);

/** Operators a column takes: family A's rules by kind, plus a prefix (LIKE 'x%') on text and list columns. */
function allowedOps(col: ColumnDef): readonly LeafOp[] {
  const ops: LeafOp[] = [...opsOf(col)];
  if ((col.kind === 'text' || col.kind === 'list') && !isContactPoint(col)) ops.push('prefix');
  return ops;
}

function allow(col: ColumnDef, op: LeafOp): void {
  if (!allowedOps(col).includes(op)) throw refuse(`${col.name} does not take ${SQL_OP[op]}.`, `${takes(col)}.`);
}

function leafFor(col: ColumnDef, op: LeafOp, value: Scalar | Scalar[]): IRNode {
  allow(col, op);
  return { field: col.name, op, value };
}

const SQL_OP: Readonly<Record<LeafOp, string>> = {
  eq: '=',
  neq: '<>',
  in: 'IN (…)',
  not_in: 'NOT IN (…)',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  contains: "LIKE '%x%'",
  prefix: "LIKE 'x%'",
  words: 'whole-word matching',
  exists: 'IS [NOT] NULL',
};

const VALUES_BY_KIND: Readonly<Record<ColumnDef['kind'], string>> = {
  text: "'text' values",
  date: "'YYYY-MM-DD' dates",
  number: 'numbers',
  bool: 'TRUE or FALSE',
  list: "'text' values (a list column matches when it holds the value)",
  record: "'text'",
};

/** What a column takes, in SQL words: "role_since takes =, <>, … with 'YYYY-MM-DD' dates". */
function takes(col: ColumnDef): string {
  const values = col.type === 'month' ? "'YYYY-MM' months" : VALUES_BY_KIND[col.kind];
  return `${col.name} takes ${allowedOps(col)
    .map((o) => SQL_OP[o])
    .join(', ')} with ${values}`;
}

/** The IR value of a constant compared with `col`: its kind must fit the column; closed-list values fold to slugs. */
function scalar(col: ColumnDef, op: LeafOp, lit: Literal): Scalar {
  const refuseKind = (): never => {
    throw refuse(
      `${col.name} is compared with ` +
        `${lit.kind === 'string' ? `the text ${quote(lit.value)}` : `${lit.kind === 'number' ? 'the number' : lit.kind === 'boolean' ? 'the boolean' : 'the date'} ${String(lit.value)}`},` +
        ` which it does not take.`,
      `${takes(col)}.`,
    );
  };
  switch (col.kind) {
    case 'number':
      return lit.kind === 'number' ? lit.value : refuseKind();
    case 'bool':
      return lit.kind === 'boolean' ? lit.value : refuseKind();
    case 'date':
      if (lit.kind === 'date') return lit.value;
      if (lit.kind === 'string' && isIsoDate(lit.value)) return lit.value;
      return refuseKind();
    case 'text':
    case 'list':
    case 'record': {
      if (lit.kind !== 'string') return refuseKind();
      const value = textValue(col, lit.value);
      if (col.type === 'month' && !isYearMonth(value)) return refuseKind();
      const folds = col.list !== undefined && (op === 'eq' || op === 'neq' || op === 'in' || op === 'not_in');
      return folds ? foldOrThrow(col.list!, value, FIELD, 'contact') : value;
    }
  }
}

/** Text values are trimmed; a blank one is refused (IS NULL finds empty columns). */
function textValue(col: ColumnDef, raw: string): string {
  const value = raw.trim();
  if (value === '')
    throw refuse(`${col.name} is compared with a blank text.`, 'Use col IS NULL to find rows without a value.');
  return value;
}
