import {
  COMPANY_FILTER_KEYS,
  CONTACT_FILTER_KEYS,
  type ColumnDef,
  columnsOf,
  type Entity,
  type FilterKeyDef,
} from '../../../src/domain/catalog/index.js';
import { type IRNode, type LeafOp, parseCompanyFilter, parseContactFilter } from '../../../src/domain/query/index.js';
import type { SearchEngine } from '../../../src/engine/port.js';
import type { Row } from '../../helpers/rows.js';
import { ENGINES } from './engines.js';
import { matches } from './ir-eval.js';
import { type ConformanceRelease, conformanceRelease } from './release.js';

/**
 * Engine conformance, filters: every column of both entities under every operator its kind takes, and every
 * family A filter key with values drawn from the data, compiled by each engine and compared with the IR's
 * documented semantics evaluated in JS over the stored rows: the count, and the first page in sort_key order.
 */

let rel: ConformanceRelease;
beforeAll(async () => {
  rel = await conformanceRelease(6000, 600, 5);
}, 120_000);
afterAll(() => rel.remove());

interface Case {
  name: string;
  entity: Entity;
  ir: () => IRNode;
}

const rowsOf = (entity: Entity): Row[] => (entity === 'contact' ? rel.contacts : rel.companies);

/** The most frequent present values of a column (list elements for lists), most frequent first. */
function frequent(entity: Entity, column: string, n: number): unknown[] {
  const counts = new Map<string, { v: unknown; n: number }>();
  for (const r of rowsOf(entity)) {
    const v = r[column];
    for (const x of Array.isArray(v) ? v : [v]) {
      if (x === null || x === undefined || x === '') continue;
      const k = JSON.stringify(x);
      const e = counts.get(k) ?? { v: x, n: 0 };
      e.n++;
      counts.set(k, e);
    }
  }
  return [...counts.values()]
    .sort((a, b) => b.n - a.n || JSON.stringify(a.v).localeCompare(JSON.stringify(b.v)))
    .slice(0, n)
    .map((e) => e.v);
}

/** The median present value of a scalar column. */
function median(entity: Entity, column: string): unknown {
  const vals = rowsOf(entity)
    .map((r) => r[column])
    .filter((v) => v !== null && v !== undefined && v !== '')
    .sort((a, b) => (typeof a === 'number' ? a - (b as number) : String(a).localeCompare(String(b))));
  return vals[Math.floor(vals.length / 2)];
}

/** A word of a frequent text value (for contains, prefix and words). */
function aWord(entity: Entity, column: string): string | undefined {
  for (const v of frequent(entity, column, 20)) {
    const word = String(v)
      .split(/[^A-Za-z0-9]+/)
      .find((w) => w.length >= 4);
    if (word) return word;
  }
  return undefined;
}

/** IR leaves over one column, one per operator its storage takes, with values from the data. */
function columnCases(entity: Entity, col: ColumnDef): Case[] {
  const out: Case[] = [];
  const add = (op: LeafOp, value?: unknown) => {
    if (op !== 'exists' && (value === undefined || (Array.isArray(value) && value.length === 0))) return;
    const leaf = { field: col.name, op, ...(value === undefined ? {} : { value }) } as IRNode;
    out.push({ name: `${entity}.${col.name} ${op} ${JSON.stringify(value ?? null)}`, entity, ir: () => leaf });
  };
  add('exists', true);
  add('exists', false);
  if (col.storage === 'JSON') {
    const word = aWord(entity, col.name);
    add('contains', word);
    return out;
  }
  const top = frequent(entity, col.name, 3);
  if (col.storage === 'BOOLEAN') {
    add('eq', true);
    add('eq', false);
    add('neq', true);
    return out;
  }
  if (col.storage === 'BIGINT' || col.storage === 'DOUBLE' || col.kind === 'date' || col.type === 'month') {
    const m = median(entity, col.name);
    for (const op of ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const)
      add(op, op === 'eq' || op === 'neq' ? top[0] : m);
    add('in', top);
    add('not_in', top);
    return out;
  }
  add('eq', top[0]);
  add('neq', top[0]);
  add('in', top);
  add('not_in', top);
  const word = aWord(entity, col.name);
  if (word) {
    add('contains', word.slice(1, 4).toUpperCase());
    add('prefix', word.slice(0, 2));
    // `words` leaves come only from the filter keys of the columns the catalog marks for whole-word matching (the
    // title and the secondary titles: domain/query/flat-keys.ts); the search cluster indexes `.words` on those alone.
    if (col.words !== undefined) add('words', word.toLowerCase());
  }
  return out;
}

/** A family A filter with values drawn from the data, for one filter key. */
function keyCase(def: FilterKeyDef): Case | undefined {
  const entity = def.entity;
  const parse = (filter: Record<string, unknown>) =>
    (entity === 'contact' ? parseContactFilter({ filter }) : parseCompanyFilter({ filter })).ir;
  let value: unknown;
  if (def.type === 'boolean') {
    if (def.match === 'option')
      return { name: `key ${def.key}`, entity, ir: () => parse({ title_query: 'manager', [def.key]: true }) };
    value = true;
  } else if (def.type === 'list') {
    const column = def.normalize === 'company_name' ? (entity === 'contact' ? 'company' : 'name') : def.column!;
    value = frequent(entity, column, 2).map(String);
  } else if (def.type === 'integer') {
    value = median(entity, def.column!);
  } else if (def.type === 'month') {
    value = String(median(entity, def.column!)).slice(0, 7);
  } else {
    value = aWord(entity, def.column!);
  }
  if (value === undefined) return undefined;
  return { name: `key ${def.key} = ${JSON.stringify(value)}`, entity, ir: () => parse({ [def.key]: value }) };
}

const CASES = (): Case[] => [
  ...(['contact', 'company'] as const).flatMap((entity) => columnsOf(entity).flatMap((c) => columnCases(entity, c))),
  ...[...CONTACT_FILTER_KEYS, ...COMPANY_FILTER_KEYS].map(keyCase).filter((c): c is Case => c !== undefined),
  {
    name: 'a tree: (country in top 2 or seniority = top) and not has_phone',
    entity: 'contact',
    ir: () => ({
      and: [
        {
          or: [
            { field: 'country', op: 'in', value: frequent('contact', 'country', 2) as string[] },
            { field: 'seniority', op: 'eq', value: frequent('contact', 'seniority', 1)[0] as string },
          ],
        },
        { not: { field: 'has_phone', op: 'eq', value: true } },
      ],
    }),
  },
];

describe('the release', () => {
  it('spans several row groups and holds every kind of column', () => {
    expect(rel.rowGroups).toBeGreaterThanOrEqual(3);
    expect(CASES().length).toBeGreaterThan(300);
  });
});

describe.each(ENGINES.map((e) => [e.name, e] as const))('%s', (_name, e) => {
  let engine: SearchEngine;
  beforeAll(async () => {
    engine = await e.open(rel.dataDir);
  });
  afterAll(() => engine.close());

  it('answers every column, operator and filter key as the IR semantics say: count and first page', async () => {
    const problems: string[] = [];
    let withMatches = 0;
    for (const c of CASES()) {
      const ir = c.ir();
      const want = rowsOf(c.entity).filter((r) => matches(c.entity, ir, r));
      if (want.length > 0 && want.length < rowsOf(c.entity).length) withMatches++;
      const res = await engine.query(c.entity, ir, {
        countBudgetMs: 30_000,
        page: { columns: ['id'], afterSortKey: null, limit: 25, budgetMs: 30_000 },
      });
      const got = res.rows.map((r) => r.id);
      const first = want.slice(0, 25).map((r) => r.id);
      if (res.count !== want.length || JSON.stringify(got) !== JSON.stringify(first)) {
        problems.push(
          `${c.name}: count ${res.count} (want ${want.length}), first ${got.slice(0, 3)} (want ${first.slice(0, 3)})`,
        );
      }
    }
    expect(problems).toEqual([]);
    // The cases discriminate: most select some rows but not all.
    expect(withMatches).toBeGreaterThan(200);
  }, 240_000);
});
