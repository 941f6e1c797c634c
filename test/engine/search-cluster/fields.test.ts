import type { estypes } from '@elastic/elasticsearch';
import { columnsOf, type Entity, publicColumns } from '../../../src/domain/catalog/index.js';
import { compileWhere } from '../../../src/engine/search-cluster/compile/compile-where.js';
import { SORT } from '../../../src/engine/search-cluster/compile/select.js';
import { hasWordsField, indexMappings, mappedField } from '../../../src/engine/search-cluster/mappings.js';
import { SUPPRESSION_READ_FIELDS } from '../../../src/engine/search-cluster/suppression.js';
import { BENCH_CASES, compiled, FILTER_CASES, IR_NODE_CASES, SUPPRESSION_QUERY } from './cases.js';

/**
 * Consistency of compiled requests with index-mappings: every field a query, aggregation or sort names exists in the
 * mapping with a type that query accepts (term, terms and range on keyword, numeric, boolean or date; prefix and
 * wildcard on keyword; match_phrase on text; exists on anything).
 */
const ACCEPTS: Record<string, readonly string[]> = {
  term: ['keyword', 'long', 'double', 'boolean', 'date'],
  terms: ['keyword', 'long', 'double', 'boolean', 'date'],
  range: ['keyword', 'long', 'double', 'date'],
  prefix: ['keyword'],
  wildcard: ['keyword'],
  match_phrase: ['text'],
  exists: ['keyword', 'long', 'double', 'boolean', 'date', 'text'],
};
const AGGREGATABLE = ['keyword', 'long', 'double', 'boolean', 'date'];

/** Every (query type, field) a query names. */
function fieldsOf(q: unknown, out: Array<[string, string]> = []): Array<[string, string]> {
  if (Array.isArray(q)) {
    for (const x of q) fieldsOf(x, out);
    return out;
  }
  if (!q || typeof q !== 'object') return out;
  for (const [k, v] of Object.entries(q as Record<string, unknown>)) {
    if (k === 'exists') out.push([k, (v as { field: string }).field]);
    else if (k in ACCEPTS) out.push([k, Object.keys(v as object)[0]!]);
    else if (k !== 'match_all' && k !== 'match_none') fieldsOf(v, out);
  }
  return out;
}

function check(entity: Entity, q: unknown): void {
  const mappings = indexMappings(entity);
  for (const [type, field] of fieldsOf(q)) {
    const m = mappedField(mappings, field);
    expect([type, field, m ? 'mapped' : 'missing']).toEqual([type, field, 'mapped']);
    expect([type, field, ACCEPTS[type]!.includes(m!.type)]).toEqual([type, field, true]);
  }
}

describe('compiled Elasticsearch requests against index-mappings', () => {
  it.each([...IR_NODE_CASES, ...FILTER_CASES, ...BENCH_CASES].map((k) => [k.name, k] as const))(
    '%s names mapped fields of accepted types',
    (_n, k) => {
      const c = compiled(k);
      check(k.entity, c.query);
      check(k.entity, c.count.query);
      check(k.entity, c.page.query);
    },
  );

  it('every operator on every column compiles onto mapped fields of accepted types', () => {
    for (const entity of ['contact', 'company'] as const) {
      for (const col of columnsOf(entity)) {
        const ops =
          col.storage === 'VARCHAR[]'
            ? (['eq', 'neq', 'in', 'not_in', 'contains', 'prefix', 'words', 'exists'] as const)
            : col.storage === 'VARCHAR' || col.storage === 'JSON'
              ? (['eq', 'neq', 'in', 'not_in', 'gt', 'lte', 'contains', 'prefix', 'words', 'exists'] as const)
              : col.storage === 'BOOLEAN'
                ? (['eq', 'neq', 'in', 'not_in', 'exists'] as const)
                : (['eq', 'neq', 'in', 'not_in', 'gt', 'lte', 'exists'] as const);
        for (const op of ops) {
          const value =
            col.storage === 'BOOLEAN' ? true : col.storage === 'BIGINT' || col.storage === 'DOUBLE' ? 1 : 'a b';
          const where = {
            field: col.name,
            op,
            ...(op === 'exists' ? {} : { value: op.endsWith('in') ? [value] : value }),
          };
          if (op === 'words' && !hasWordsField(col)) continue; // whole-word phrases go to the title columns only
          check(entity, compileWhere(entity, where));
        }
      }
    }
  });

  it('the suppression query, the export and page sort, and the aggregations name mapped fields', () => {
    check('contact', SUPPRESSION_QUERY);
    const contacts = indexMappings('contact');
    const companies = indexMappings('company');
    for (const s of SORT as Array<Record<string, unknown>>)
      for (const f of Object.keys(s)) expect(mappedField(contacts, f)?.type).toBe('long');
    // Terms sources: distinct values of every listable column, the cap's company_domain, suppression's company_id.
    for (const entity of ['contact', 'company'] as const) {
      const m = entity === 'contact' ? contacts : companies;
      for (const c of publicColumns(entity).filter((c) => c.kind !== 'record'))
        expect([c.name, AGGREGATABLE.includes(mappedField(m, c.name)!.type)]).toEqual([c.name, true]);
    }
    for (const f of ['company_domain', 'company_id', ...SUPPRESSION_READ_FIELDS])
      expect([f, mappedField(contacts, f)?.type]).toEqual([f, 'keyword']);
  });

  it('request bodies are the client’s request types', () => {
    const k = BENCH_CASES[0]!;
    const c = compiled(k);
    const body = { ...c.page, pit: { id: 'x', keep_alive: '5m' } } satisfies estypes.SearchRequest;
    expect(body.sort).toEqual(SORT);
  });
});
