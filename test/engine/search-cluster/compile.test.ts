import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileWhere } from '../../../src/engine/search-cluster/compile/compile-where.js';
import { BENCH_CASES, compiled, FILTER_CASES, IR_NODE_CASES, type IrCase } from './cases.js';

/**
 * Golden tests of the IR -> Query DSL compiler: the DSL of every IR node type and leaf operator, of the filter shapes
 * with particular trees, and of every fixed bench/query-bench query, against checked-in JSON reviewed by hand
 * (test/fixtures/elasticsearch/). After a deliberate compiler change: UPDATE_GOLDEN=1, then review the diff.
 */
const dir = join(process.cwd(), 'test', 'fixtures', 'elasticsearch');

function golden(file: string, cases: readonly IrCase[]): void {
  const path = join(dir, file);
  const actual = Object.fromEntries(cases.map((k) => [k.name, { entity: k.entity, where: k.where, ...compiled(k) }]));
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(path, `${JSON.stringify(actual, null, 2)}\n`);
  expect([path, existsSync(path)]).toEqual([path, true]);
  const expected = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  expect(Object.keys(actual)).toEqual(Object.keys(expected));
  for (const k of cases)
    expect([k.name, JSON.parse(JSON.stringify(actual[k.name]))]).toEqual([k.name, expected[k.name]]);
}

describe('Elasticsearch compiler goldens', () => {
  it('every IR node type and leaf operator', () => golden('ir-nodes.json', IR_NODE_CASES));
  it('filter shapes (exclude_*, secondary roles, phrases, NAICS prefixes, regions, month ranges, has_*)', () =>
    golden('filter-shapes.json', FILTER_CASES));
  it('every fixed query of bench/query-bench', () => golden('bench-queries.json', BENCH_CASES));

  it('refuses operators a column cannot answer instead of answering nothing', () => {
    expect(() => compileWhere('contact', { field: 'headline', op: 'words', value: 'founder' })).toThrow(/whole-word/);
    expect(() => compileWhere('contact', { field: 'company_employee_count', op: 'contains', value: '1' })).toThrow(
      /not defined/,
    );
  });

  it('never puts client text in a script or a query string, and escapes wildcard syntax', () => {
    const all = JSON.stringify([...IR_NODE_CASES, ...FILTER_CASES, ...BENCH_CASES].map((k) => compiled(k).query));
    expect(all).not.toMatch(/"(script|query_string|simple_query_string|regexp)"/);
    const contains = compiled(IR_NODE_CASES.find((k) => k.name === 'text contains')!).query;
    expect(JSON.stringify(contains)).toContain('"*zz\\\\*\\\\?\\\\\\\\q*"');
  });
});
