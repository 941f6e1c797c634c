import type { estypes } from '@elastic/elasticsearch';
import { type ColumnDef, type Entity, findColumn } from '../../../domain/catalog/index.js';
import { type IRNode, isLeaf, type Leaf, leafValues, type Scalar } from '../../../domain/query/ir.js';
import { lowerText } from '../../../domain/text/lower.js';
import { hasWordsField } from '../mappings.js';
import { DATE, LOWER, WORDS } from '../schema.js';
import { phraseText, wildcardLiteral } from './words.js';

export type Query = estypes.QueryDslQueryContainer;

/**
 * A leaf's query as the engine reads it when the stored field does not hold the value a read must see (a company's
 * contact_count under a suppression, suppression.ts): given the stored query, the one to use.
 */
export type LeafRewrite = (leaf: Leaf, stored: Query) => Query;

export const MATCH_ALL: Query = { match_all: {} };
export const MATCH_NONE: Query = { match_none: {} };

/**
 * Query IR -> Query DSL of OpenSearch and Elasticsearch (ARCHITECTURE rule 2), with the semantics documented in
 * domain/query/ir.ts and the answers of engine/duckdb/compile/compile-where.ts. Client values only ever appear as term values, range
 * bounds, literal `prefix` values, escaped `wildcard` literals and `match_phrase` text of letters and digits: never in
 * a script or a query string. Bool queries are two-valued: every leaf matches only rows holding a value (a missing
 * field matches no value leaf), so `must_not` of a leaf keeps the rows without a value, as `not` must.
 */
export function compileWhere(entity: Entity, node: IRNode, rewrite?: LeafRewrite): Query {
  if (isLeaf(node)) {
    const stored = compileLeaf(entity, node);
    return rewrite ? rewrite(node, stored) : stored;
  }
  if ('and' in node) {
    if (node.and.length === 0) return MATCH_ALL;
    return { bool: { filter: node.and.map((n) => compileWhere(entity, n, rewrite)) } };
  }
  if ('or' in node) {
    if (node.or.length === 0) return MATCH_NONE;
    return { bool: { should: node.or.map((n) => compileWhere(entity, n, rewrite)), minimum_should_match: 1 } };
  }
  return { bool: { must_not: [compileWhere(entity, node.not, rewrite)] } };
}

function column(entity: Entity, field: string): ColumnDef {
  const col = findColumn(entity, field, true);
  if (!col) throw new Error(`IR field ${field} is not a ${entity} column`);
  return col;
}

function one(leaf: Leaf): Scalar {
  const v = leafValues(leaf);
  if (v.length !== 1) throw new Error(`IR leaf ${leaf.field} ${leaf.op} needs one value`);
  return v[0]!;
}

/** The field holds something (a list with an element, any text including ''). */
const has = (field: string): Query => ({ exists: { field } });
/** Text that counts as no value: DuckDB's `NOT IN ('', '[]', '{}', 'null')`. */
const EMPTY_TEXTS = ['', '[]', '{}', 'null'];

/** Terms per `terms` query: the cluster refuses more than `index.max_terms_count` (65,536 by default). */
export const TERMS_MAX = 65_536;

/** The rows whose field holds any of the values (several `terms` clauses past TERMS_MAX). */
export function termsOf(field: string, values: readonly estypes.FieldValue[]): Query {
  if (values.length <= TERMS_MAX) return { terms: { [field]: [...values] } };
  const should: Query[] = [];
  for (let i = 0; i < values.length; i += TERMS_MAX)
    should.push({ terms: { [field]: values.slice(i, i + TERMS_MAX) } });
  return { bool: { should, minimum_should_match: 1 } };
}

const andNot = (pos: Query, neg: Query): Query => ({ bool: { filter: [pos], must_not: [neg] } });

/** A term value of the column's type (booleans and numbers as JSON numbers and booleans, text as text). */
function termValue(col: ColumnDef, v: Scalar): estypes.FieldValue {
  if (col.storage === 'BIGINT' || col.storage === 'DOUBLE') return typeof v === 'number' ? v : Number(v);
  if (col.storage === 'BOOLEAN') return typeof v === 'boolean' ? v : v === 'true';
  return String(v);
}

const RANGE = { gt: 'gt', gte: 'gte', lt: 'lt', lte: 'lte' } as const;

function compileLeaf(entity: Entity, leaf: Leaf): Query {
  const col = column(entity, leaf.field);
  const f = col.name;
  if (col.storage === 'VARCHAR[]') return compileListLeaf(col, leaf);
  const textual = col.storage === 'VARCHAR' || col.storage === 'JSON';
  const present: Query = textual ? andNot(has(f), { terms: { [f]: EMPTY_TEXTS } }) : has(f);
  switch (leaf.op) {
    case 'exists':
      return leaf.value === false ? { bool: { must_not: [present] } } : present;
    case 'eq':
      return { term: { [f]: termValue(col, one(leaf)) } };
    case 'neq':
      return andNot(has(f), { term: { [f]: termValue(col, one(leaf)) } });
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const field = col.kind === 'date' ? `${f}.${DATE}` : f;
      const bound = termValue(col, one(leaf));
      return { range: { [field]: { [RANGE[leaf.op]]: bound } } };
    }
    case 'in':
    case 'not_in': {
      const list = leafValues(leaf).map((v) => termValue(col, v));
      if (list.length === 0) return leaf.op === 'in' ? MATCH_NONE : has(f);
      const terms = termsOf(f, list);
      return leaf.op === 'in' ? terms : andNot(has(f), terms);
    }
    case 'contains':
    case 'prefix':
    case 'words':
      // Text operators read the text sub-fields; no parser sends them on a number or a boolean.
      if (!textual) throw new Error(`IR op ${leaf.op} is not defined on ${col.storage} column ${leaf.field}`);
      return leaf.op === 'contains'
        ? containsQuery(f, one(leaf))
        : leaf.op === 'prefix'
          ? prefixQuery(f, one(leaf))
          : wordsQuery(col, one(leaf));
  }
}

/** `contains`: the lowercased text (any element of a list) holds the lowercased value. */
function containsQuery(f: string, v: Scalar): Query {
  return { wildcard: { [`${f}.${LOWER}`]: { value: `*${wildcardLiteral(lowerText(String(v)))}*` } } };
}

/** `prefix`: the lowercased text (any element) starts with the lowercased value (a literal, no pattern syntax). */
function prefixQuery(f: string, v: Scalar): Query {
  return { prefix: { [`${f}.${LOWER}`]: { value: lowerText(String(v)) } } };
}

/**
 * `words`: the phrase's words as consecutive whole words of the text (of one element of a list), on the columns marked
 * for whole-word matching (mappings.ts hasWordsField); on another column it is a programming error (the parsers send
 * `words` to the title and the secondary titles only), never a silent empty answer.
 */
function wordsQuery(col: ColumnDef, v: Scalar): Query {
  if (!hasWordsField(col)) throw new Error(`IR op words needs a whole-word column; ${col.name} is not one`);
  const text = phraseText(String(v));
  return text === undefined ? MATCH_NONE : { match_phrase: { [`${col.name}.${WORDS}`]: { query: text, slop: 0 } } };
}

/** List columns: eq = holds the value, in = holds any, not_in = holds none (and holds something). */
function compileListLeaf(col: ColumnDef, leaf: Leaf): Query {
  const f = col.name;
  switch (leaf.op) {
    case 'exists':
      return leaf.value === false ? { bool: { must_not: [has(f)] } } : has(f);
    case 'eq':
      return { term: { [f]: String(one(leaf)) } };
    case 'neq':
      return andNot(has(f), { term: { [f]: String(one(leaf)) } });
    case 'in': {
      const vals = leafValues(leaf).map(String);
      return vals.length === 0 ? MATCH_NONE : termsOf(f, vals);
    }
    case 'not_in': {
      const vals = leafValues(leaf).map(String);
      return vals.length === 0 ? has(f) : andNot(has(f), termsOf(f, vals));
    }
    case 'contains':
      return containsQuery(f, one(leaf));
    case 'prefix':
      return prefixQuery(f, one(leaf));
    case 'words':
      return wordsQuery(col, one(leaf));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      throw new Error(`IR op ${leaf.op} is not defined on list column ${leaf.field}`);
  }
}
