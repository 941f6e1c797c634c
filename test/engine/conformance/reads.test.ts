import { CONTACT_CARD_COLUMNS, type Entity, listValues, publicColumns } from '../../../src/domain/catalog/index.js';
import type { IRNode, Leaf } from '../../../src/domain/query/ir.js';
import type { SearchEngine } from '../../../src/engine/port.js';
import { candidateColumns, candidatesWhere } from '../../../src/operations/enrichment/lookup-candidates.js';
import { employeesWhere, FROM_PERSON_COLUMNS, PERSON_FIELDS } from '../../../src/operations/family-b/enrich.js';
import { foldCase, type Row } from '../../helpers/rows.js';
import { ENGINES } from './engines.js';
import { matches } from './ir-eval.js';
import { type ConformanceRelease, conformanceRelease } from './release.js';

/**
 * Engine conformance, reads: point reads (enrichment and lookups: an OR of `in` leaves on lookup columns, first
 * page; the queries the enrichments send, built by their own code, with the columns they read), distinct values
 * with their counts, and per-column populated counts, each compared with the stored rows.
 */

let rel: ConformanceRelease;
beforeAll(async () => {
  rel = await conformanceRelease(5000, 500, 9);
}, 120_000);
afterAll(() => rel.remove());

const rowsOf = (entity: Entity): Row[] => (entity === 'contact' ? rel.contacts : rel.companies);

/** Every `step`-th present value of a column, plus one value no row holds. */
function sample(entity: Entity, column: string, step: number, miss: string): string[] {
  const present = rowsOf(entity)
    .map((r) => r[column])
    .filter((v): v is string => typeof v === 'string' && v !== '');
  return [...new Set([...present.filter((_, i) => i % step === 0).slice(0, 40), miss])];
}

/** The stored value of a cell as an engine answers it (lists and numbers as stored). */
const cells = (rows: Row[], columns: readonly string[]) =>
  rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c] ?? null])));

describe.each(ENGINES.map((e) => [e.name, e] as const))('%s', (_name, e) => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await e.open(rel.dataDir);
  });
  afterAll(() => engine.close());

  /** The query an enrichment sends for these identifiers (lookup-candidates.ts). */
  const candidates = (kind: 'email' | 'network', values: readonly string[]): IRNode =>
    candidatesWhere(values.map((value) => ({ kind, value })))!;

  const pointReads = (): Array<{ name: string; entity: Entity; where: IRNode; columns: readonly string[] }> => [
    {
      name: 'family B from-network: profile slugs, with the names',
      entity: 'contact',
      where: candidates('network', sample('contact', 'network_slug', 23, 'no-such-person')),
      columns: candidateColumns(PERSON_FIELDS),
    },
    {
      name: 'family B from-email: work emails, with the names',
      entity: 'contact',
      where: candidates('email', sample('contact', 'work_email', 29, 'nobody@nowhere.example')),
      columns: candidateColumns(PERSON_FIELDS),
    },
    {
      // Not a point read: the index (or the scan) finds the employees, their rows come from the cards (or columns).
      name: 'family B from-person: the employees of company domains and normalized names',
      entity: 'contact',
      where: employeesWhere(
        sample('contact', 'company_domain', 211, 'nowhere.example'),
        sample('contact', 'company_name_norm', 307, 'no such company'),
      )!,
      columns: FROM_PERSON_COLUMNS,
    },
    {
      // Every public column: more than a card holds, so every engine reads the release's columns.
      name: 'enrichment with columns ["*"]: work emails and profile slugs',
      entity: 'contact',
      where: candidatesWhere([
        ...sample('contact', 'work_email', 211, 'nobody@nowhere.example').map((value) => ({
          kind: 'email' as const,
          value,
        })),
        ...sample('contact', 'network_slug', 223, 'no-such-person').map((value) => ({
          kind: 'network' as const,
          value,
        })),
      ])!,
      columns: candidateColumns(publicColumns('contact').map((c) => c.name)),
    },
    {
      name: 'work emails',
      entity: 'contact',
      where: { field: 'work_email', op: 'in', value: sample('contact', 'work_email', 97, 'nobody@nowhere.example') },
      columns: CONTACT_CARD_COLUMNS,
    },
    {
      name: 'phones, mobile or direct',
      entity: 'contact',
      where: {
        or: [
          { field: 'mobile_phone', op: 'in', value: sample('contact', 'mobile_phone', 31, '+10000000000') },
          { field: 'direct_phone', op: 'in', value: sample('contact', 'direct_phone', 31, '+10000000000') },
        ],
      },
      columns: ['id', 'name', 'mobile_phone', 'direct_phone'],
    },
    {
      name: 'profile slugs, one eq leaf',
      entity: 'contact',
      where: { field: 'network_slug', op: 'eq', value: sample('contact', 'network_slug', 1, 'x')[0]! },
      columns: ['id', 'network', 'network_slug'],
    },
    {
      name: 'company domains and names',
      entity: 'company',
      where: {
        or: [
          { field: 'domain', op: 'in', value: sample('company', 'domain', 13, 'nowhere.example') },
          { field: 'name_norm', op: 'in', value: sample('company', 'name_norm', 17, 'no such company') },
        ],
      },
      columns: ['id', 'name', 'domain'],
    },
  ];

  it('answers point reads with exactly the stored rows, in sort_key order, limit applied', async () => {
    for (const p of pointReads()) {
      const want = rowsOf(p.entity).filter((r) => matches(p.entity, p.where, r));
      expect(want.length).toBeGreaterThan(0);
      for (const limit of [1000, 3]) {
        const res = await engine.query(p.entity, p.where, {
          page: { columns: [...p.columns], afterSortKey: null, limit, budgetMs: 10_000 },
        });
        expect({ name: p.name, rows: cells(res.rows, p.columns) }).toEqual({
          name: p.name,
          rows: cells(want.slice(0, limit), p.columns),
        });
      }
    }
  });

  it('answers distinct values with their row counts, most frequent first, and filters them by substring', async () => {
    for (const [entity, column, q] of [
      ['contact', 'seniority', null],
      ['contact', 'country', 'u'],
      // The counts behind the values routes' sort=count (every value of a closed list).
      ['contact', 'country', null],
      ['company', 'hq_country', null],
      ['contact', 'skills', 'an'],
      ['company', 'industries', null],
      ['company', 'headcount_band', null],
    ] as const) {
      const counts = new Map<string, number>();
      for (const r of rowsOf(entity)) {
        const v = r[column];
        for (const x of Array.isArray(v) ? v : [v]) {
          if (x === null || x === undefined || x === '') continue;
          if (q && !foldCase(String(x)).includes(foldCase(q))) continue;
          counts.set(String(x), (counts.get(String(x)) ?? 0) + 1);
        }
      }
      const want = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      const got = await engine.distinctValues(entity, column, q, 10_000);
      expect({ column, values: got.map((v) => [v.value, v.count]) }).toEqual({ column, values: want });
      const top = await engine.distinctValues(entity, column, q, 3);
      expect(top.map((v) => v.count)).toEqual(want.slice(0, 3).map((w) => w[1]));
    }
    // Closed lists hold only their own values.
    const allowed = new Set(listValues('seniority').map((v) => v.slug));
    for (const v of await engine.distinctValues('contact', 'seniority', null, 100))
      expect(allowed.has(v.value)).toBe(true);
  });

  it('counts rows and populated columns as the stored rows do', async () => {
    for (const entity of ['contact', 'company'] as const) {
      const got = await engine.populatedCounts(entity);
      expect(got.rows).toBe(rowsOf(entity).length);
      for (const [column, n] of Object.entries(got.columns)) {
        const want = rowsOf(entity).filter((r) => matches(entity, { field: column, op: 'exists' } as Leaf, r)).length;
        expect({ column, n }).toEqual({ column, n: want });
      }
    }
  });
});
