import { type ColumnDef, DEFAULT_CONTACT_COLUMNS, type Entity, findColumn } from '../../src/domain/catalog/index.js';
import { parseContactFilter } from '../../src/domain/query/index.js';
import { type IRNode, isLeaf, type Leaf, leafValues, type Scalar } from '../../src/domain/query/ir.js';
import { wordsKey, wordTokens } from '../../src/domain/text/words.js';

/**
 * The Query IR as PostgreSQL SQL, written the way a competent engineer would for the indexes of ./schema.ts:
 * `= ANY` and `@>`/`&&` on arrays (GIN), `LIKE` on the lowercased text and on the words companions (pg_trgm).
 * The semantics are those of src/domain/query/ir.ts; the bench fails on any count or first-page difference with
 * the service, so a translation mistake cannot pass as a speed figure.
 */
export class PgParams {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

/** The PostgreSQL statements of a contact filter: a count and the first 100 rows (default columns) in the stable order. */
export function peerSql(
  table: string,
  filter: Record<string, unknown>,
): { count: [string, unknown[]]; first: [string, unknown[]] } {
  const { ir } = parseContactFilter({ filter });
  const p = new PgParams();
  const where = pgWhere('contact', ir, p);
  const cols = DEFAULT_CONTACT_COLUMNS.map((c) => `"${c}"`).join(', ');
  return {
    count: [`SELECT count(*)::bigint AS n FROM ${table} WHERE ${where}`, p.values],
    first: [`SELECT ${cols} FROM ${table} WHERE ${where} ORDER BY sort_key LIMIT 100`, p.values],
  };
}

export function pgWhere(entity: Entity, node: IRNode, p: PgParams, nullSafe = false): string {
  if (isLeaf(node)) {
    const sql = pgLeaf(entity, node, p);
    return nullSafe ? `coalesce(${sql}, FALSE)` : sql;
  }
  if ('and' in node) {
    return node.and.length === 0 ? 'TRUE' : `(${node.and.map((n) => pgWhere(entity, n, p, nullSafe)).join(' AND ')})`;
  }
  if ('or' in node) {
    return node.or.length === 0 ? 'FALSE' : `(${node.or.map((n) => pgWhere(entity, n, p, nullSafe)).join(' OR ')})`;
  }
  return `(NOT ${pgWhere(entity, node.not, p, true)})`;
}

function column(entity: Entity, field: string): ColumnDef {
  const col = findColumn(entity, field, true);
  if (!col) throw new Error(`IR field ${field} is not a ${entity} column`);
  return col;
}

function one(leaf: Leaf): Scalar {
  const [v, ...rest] = leafValues(leaf);
  if (v === undefined || rest.length > 0) throw new Error(`IR leaf ${leaf.field} ${leaf.op} needs one value`);
  return v;
}

/** A LIKE pattern that matches `text` literally anywhere. */
const likeAnywhere = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const likeStart = (text: string): string => `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const CMP = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

const pgType = (col: ColumnDef): string =>
  col.storage === 'BIGINT'
    ? 'bigint'
    : col.storage === 'DOUBLE'
      ? 'float8'
      : col.storage === 'BOOLEAN'
        ? 'boolean'
        : 'text';

function pgLeaf(entity: Entity, leaf: Leaf, p: PgParams): string {
  const col = column(entity, leaf.field);
  const c = `"${col.name}"`;
  if (col.storage === 'VARCHAR[]') return pgListLeaf(c, leaf, p, col.words);
  const textual = col.storage === 'VARCHAR' || col.storage === 'JSON';
  const present = textual ? `(${c} IS NOT NULL AND ${c} NOT IN ('', '[]', '{}', 'null'))` : `(${c} IS NOT NULL)`;
  switch (leaf.op) {
    case 'exists':
      return leaf.value === false ? `(NOT ${present})` : present;
    case 'eq':
    case 'neq':
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return `(${c} ${CMP[leaf.op]} ${p.add(one(leaf))}::${pgType(col)})`;
    case 'in':
    case 'not_in': {
      const list = leafValues(leaf);
      if (list.length === 0) return leaf.op === 'in' ? 'FALSE' : `(${c} IS NOT NULL)`;
      const any = `${c} = ANY(${p.add(list)}::${pgType(col)}[])`;
      return leaf.op === 'in' ? `(${any})` : `(NOT (${any}) AND ${c} IS NOT NULL)`;
    }
    case 'contains':
      return `(lower(${c}) LIKE ${p.add(likeAnywhere(String(one(leaf)).toLowerCase()))})`;
    case 'prefix':
      return `(lower(${c}) LIKE ${p.add(likeStart(String(one(leaf)).toLowerCase()))})`;
    case 'words': {
      const key = wordsKey(String(one(leaf)));
      if (!key) return 'FALSE';
      if (col.words) return `("${col.words}" LIKE ${p.add(likeAnywhere(key))})`;
      return `(${c} ~* ${p.add(phraseRegex(String(one(leaf))))})`;
    }
  }
}

/** Whole words with any non-alphanumeric run between them (PostgreSQL's classes stand for \pL\pN). */
function phraseRegex(phrase: string): string {
  return `(^|[^[:alnum:]])${wordTokens(phrase).join('[^[:alnum:]]+')}([^[:alnum:]]|$)`;
}

function pgListLeaf(c: string, leaf: Leaf, p: PgParams, words?: string): string {
  const nonEmpty = `(${c} IS NOT NULL AND cardinality(${c}) > 0)`;
  const anyElement = (test: string): string => `EXISTS (SELECT 1 FROM unnest(${c}) AS x WHERE ${test})`;
  switch (leaf.op) {
    case 'exists':
      return leaf.value === false ? `(NOT ${nonEmpty})` : nonEmpty;
    case 'eq':
      return `(${c} @> ARRAY[${p.add(String(one(leaf)))}::text])`;
    case 'neq':
      return `(${nonEmpty} AND NOT ${c} @> ARRAY[${p.add(String(one(leaf)))}::text])`;
    case 'in': {
      const vals = leafValues(leaf).map(String);
      return vals.length === 0 ? 'FALSE' : `(${c} && ${p.add(vals)}::text[])`;
    }
    case 'not_in': {
      const vals = leafValues(leaf).map(String);
      return vals.length === 0 ? nonEmpty : `(${nonEmpty} AND NOT ${c} && ${p.add(vals)}::text[])`;
    }
    case 'contains':
      return `(${nonEmpty} AND ${anyElement(`lower(x) LIKE ${p.add(likeAnywhere(String(one(leaf)).toLowerCase()))}`)})`;
    case 'prefix':
      return `(${nonEmpty} AND ${anyElement(`lower(x) LIKE ${p.add(likeStart(String(one(leaf)).toLowerCase()))}`)})`;
    case 'words': {
      const key = wordsKey(String(one(leaf)));
      if (!key) return 'FALSE';
      if (words) {
        const w = `"${words}"`;
        return `(${w} IS NOT NULL AND EXISTS (SELECT 1 FROM unnest(${w}) AS x WHERE x LIKE ${p.add(likeAnywhere(key))}))`;
      }
      return `(${nonEmpty} AND ${anyElement(`x ~* ${p.add(phraseRegex(String(one(leaf))))}`)})`;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      throw new Error(`IR op ${leaf.op} is not defined on list column ${leaf.field}`);
  }
}
