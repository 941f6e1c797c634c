import { type ColumnDef, type ColumnKind, listValues, publicColumns } from '../../src/domain/catalog/index.js';
import type { AppError } from '../../src/domain/errors/index.js';
import { type IRNode, parseCompanyFilter, parseContactFilter } from '../../src/domain/query/index.js';
import { caught } from '../helpers/caught.js';

const where = (tree: unknown): IRNode => parseContactFilter({ filter: { where: tree } }).ir;
const fails = (tree: unknown): AppError => caught(() => where(tree));
const leaf = (field: string, op: string, value?: unknown) =>
  value === undefined ? { field, op } : { field, op, value };

const OPS = ['eq', 'neq', 'in', 'not_in', 'gt', 'gte', 'lt', 'lte', 'contains', 'exists'] as const;

/** The spec's operator rules by column kind, written out here so the source table is checked, not echoed. */
const SPEC_OPS: Record<ColumnKind, readonly string[]> = {
  text: OPS,
  date: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists'],
  number: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'exists'],
  bool: ['eq', 'neq'],
  list: ['in', 'not_in', 'contains', 'exists', 'eq', 'neq'],
  record: ['contains', 'exists'],
};

/** One column per kind and a valid scalar for it. */
const BY_KIND: Array<[ColumnKind, string, string | number | boolean]> = [
  ['text', 'title', 'engineer'],
  ['date', 'role_since', '2024-01-15'],
  ['number', 'company_employee_count', 100],
  ['bool', 'has_phone', true],
  ['list', 'skills', 'python'],
  ['record', 'experience', 'acme'],
];

describe('operator × column kind', () => {
  const matrix = BY_KIND.flatMap(([kind, field, sample]) =>
    OPS.map((op) => [kind, op, field, sample, SPEC_OPS[kind].includes(op)] as const),
  );

  it.each(matrix)('%s column, %s: accepted=%s', (_kind, op, field, sample, accepted) => {
    const value = op === 'exists' ? undefined : op === 'in' || op === 'not_in' ? [sample] : sample;
    if (accepted) {
      expect(where(leaf(field, op, value))).toEqual({ field, op, value: op === 'exists' ? true : value });
    } else {
      const err = fails(leaf(field, op, value));
      expect([err.code, err.field]).toEqual(['filter.rejected', 'filter.where.op']);
      expect(err.hint).toContain(`${field} takes ${SPEC_OPS[_kind].join(', ')}`);
    }
  });

  /** A valid value for any public column, so every column is reachable through where. */
  function valueFor(col: ColumnDef): unknown {
    if (col.list && listValues(col.list).length > 0) return listValues(col.list)[0]!.slug;
    const byKind: Record<ColumnKind, unknown> = {
      text: col.type === 'month' ? '2024-05' : 'x',
      date: '2024-05-01',
      number: 1,
      bool: false,
      list: 'x',
      record: 'x',
    };
    return byKind[col.kind];
  }

  it.each(publicColumns('contact').map((c) => [c.name, c] as const))(
    'contact column %s takes its first operator',
    (_name, col) => {
      const op = SPEC_OPS[col.kind][0]!;
      const value = op === 'exists' ? undefined : op === 'in' || op === 'not_in' ? [valueFor(col)] : valueFor(col);
      expect(() => where(leaf(col.name, op, value))).not.toThrow();
    },
  );
});

describe('leaf values', () => {
  it.each<[string, unknown, string]>([
    ['text given a number', leaf('title', 'eq', 5), 'title takes'],
    ['text given a boolean', leaf('company', 'contains', true), 'company takes'],
    ['blank text', leaf('title', 'eq', '  '), 'exists'],
    ['date not a calendar day', leaf('role_since', 'eq', '2024-02-30'), 'YYYY-MM-DD'],
    ['date as a month', leaf('role_since', 'gt', '2024-01'), 'YYYY-MM-DD'],
    ['date as a number', leaf('last_refreshed', 'lt', 20240101), 'YYYY-MM-DD'],
    ['number as a string', leaf('company_founded_year', 'gte', '1990'), 'numbers'],
    ['bool as a string', leaf('has_work_email', 'eq', 'true'), 'true or false'],
    ['bool as a number', leaf('has_phone', 'neq', 1), 'true or false'],
    ['list element a number', leaf('skills', 'eq', 5), 'skills takes'],
    ['record given a boolean', leaf('education', 'contains', false), 'education takes'],
    ['month column, bad month', leaf('last_updated', 'gte', '2024-5'), 'YYYY-MM'],
    ['a value that is an object', leaf('title', 'eq', { a: 1 }), 'title takes'],
    ['eq given a list', leaf('title', 'eq', ['a', 'b']), 'in'],
    ['in given a scalar', leaf('title', 'in', 'a'), 'value'],
    ['in given an empty list', leaf('title', 'in', []), 'one value'],
    ['exists given a string', leaf('title', 'exists', 'yes'), 'title takes'],
  ])('%s → 422', (_name, tree, hint) => {
    const err = fails(tree);
    expect(err.code).toBe('filter.rejected');
    expect(err.field).toMatch(/^filter\.where\.value/);
    expect(err.hint).toContain(hint);
  });

  it('names the element of an in list', () => {
    expect(fails(leaf('company_employee_count', 'in', [1, 2, 'three'])).field).toBe('filter.where.value[2]');
  });

  it.each([undefined, null])('a non-exists leaf with value %p → 422', (value) => {
    const err = fails({ field: 'title', op: 'eq', value });
    expect([err.code, err.field]).toEqual(['filter.rejected', 'filter.where.value']);
    expect(err.hint).toMatch(/exists/);
  });

  it.each<[unknown, boolean]>([
    [undefined, true],
    [null, true],
    [true, true],
    [false, false],
  ])('exists with value %p means %p', (value, present) => {
    expect(where({ field: 'mobile_phone', op: 'exists', value })).toEqual({
      field: 'mobile_phone',
      op: 'exists',
      value: present,
    });
  });

  it.each(['*acme', '%acme', '  *acme'])('a leading wildcard (%j) → 422', (value) => {
    const err = fails(leaf('company', 'contains', value));
    expect([err.code, err.field]).toEqual(['filter.rejected', 'filter.where.value']);
    expect(err.hint).toMatch(/wildcard/);
  });

  it('a leading wildcard inside an in list → 422 at its index', () => {
    expect(fails(leaf('title', 'in', ['cto', '%ceo'])).field).toBe('filter.where.value[1]');
  });

  it('keeps text trimmed, a trailing wildcard literal, month contains free', () => {
    expect(where(leaf('title', 'contains', ' sales* '))).toEqual(leaf('title', 'contains', 'sales*'));
    expect(where(leaf('last_updated', 'contains', '2024'))).toEqual(leaf('last_updated', 'contains', '2024'));
    expect(where(leaf('last_updated', 'gt', '2024-05'))).toEqual(leaf('last_updated', 'gt', '2024-05'));
  });

  it('in takes 50 values, not 51', () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
    expect(where(leaf('title', 'in', values(50)))).toEqual(leaf('title', 'in', values(50)));
    const err = fails(leaf('title', 'not_in', values(51)));
    expect([err.code, err.field]).toEqual(['filter.rejected', 'filter.where.value']);
  });
});

describe('closed-list values fold like named keys', () => {
  it.each<[string, string, unknown, unknown]>([
    ['seniority', 'eq', 'SVP', 'vp'],
    ['seniority', 'in', ['Vice President', 'c-level', 'vp'], ['vp', 'c_level']],
    ['function', 'neq', 'Sales', 'sales_and_bizdev'],
    ['country', 'eq', 'United States', 'us'],
    ['country', 'not_in', ['USA', 'UK'], ['us', 'gb']],
    ['job_location_country', 'eq', 'Germany', 'de'],
    ['company_size', 'eq', '501-1000', '501-1K'],
    ['company_revenue', 'in', ['$1B+'], ['1B+']],
    ['email_status', 'eq', 'CATCH-ALL', 'catch_all'],
    ['company_industries', 'eq', 'Software Development', 'software_development'],
    ['signals', 'in', ['New in role (90 days)', 'founder'], ['new_in_role_90d', 'founder']],
    ['company_last_round_type', 'eq', 'Series C', 'series_c_plus'],
    ['skills', 'eq', 'Python', 'python'],
  ])('%s %s %j → %j', (field, op, value, folded) => {
    expect(where(leaf(field, op, value))).toEqual(leaf(field, op, folded));
  });

  it('contains is a substring test and does not fold', () => {
    expect(where(leaf('seniority', 'contains', 'SVP'))).toEqual(leaf('seniority', 'contains', 'SVP'));
  });

  it.each<[string, unknown, string, RegExp]>([
    ['seniority', 'boss', 'filter.where.value', /c_level, vp, director/],
    [
      'signals',
      ['founder', 'rich'],
      'filter.where.value[1]',
      /one_year_at_company, new_in_role_90d, recent_job_change, founder, at_public_company/,
    ],
    ['country', 'Narnia', 'filter.where.value', /\/v1\/contacts\/schema\/country\/values/],
    ['company_industries', 'Basket Weaving', 'filter.where.value', /\/v1\/contacts\/schema\/industries\/values/],
  ])('%s %j → 400 filter.unknown_value', (field, value, path, hint) => {
    const err = fails(leaf(field, Array.isArray(value) ? 'in' : 'eq', value));
    expect([err.code, err.field, err.status]).toEqual(['filter.unknown_value', path, 400]);
    expect(err.hint).toMatch(hint);
  });
});

describe('fields and operators', () => {
  it('field names are case-insensitive and trimmed', () => {
    expect(where(leaf(' Country ', 'eq', 'us'))).toEqual(leaf('country', 'eq', 'us'));
    expect(where(leaf('SIGNALS', 'exists'))).toEqual(leaf('signals', 'exists', true));
  });

  it.each<[string, RegExp]>([
    ['colour', /GET \/v1\/contacts\/schema/],
    ['titel', /Did you mean title\?/],
    ['network_slug', /schema/], // internal fields are not public columns
    ['', /schema/],
  ])('unknown field %j → 400 filter.unknown_key', (field, hint) => {
    const err = fails(leaf(field, 'eq', 'x'));
    expect([err.code, err.field, err.status]).toEqual(['filter.unknown_key', 'filter.where.field', 400]);
    expect(err.hint).toMatch(hint);
  });

  it.each(['like', 'EQ', 'between', ''])('unknown op %j → 422', (op) => {
    const err = fails(leaf('title', op, 'x'));
    expect([err.code, err.field]).toEqual(['filter.rejected', 'filter.where.op']);
    expect(err.hint).toMatch(/eq, neq, in, not_in, gt, gte, lt, lte, contains, exists/);
  });
});

describe('tree shape', () => {
  const ok = leaf('title', 'eq', 'cto');

  it('compiles groups as written', () => {
    const tree = { or: [{ and: [ok, leaf('country', 'eq', 'USA')] }, { not: leaf('seniority', 'in', ['SVP']) }] };
    expect(where(tree)).toEqual({
      or: [{ and: [ok, leaf('country', 'eq', 'us')] }, { not: leaf('seniority', 'in', ['vp']) }],
    });
  });

  it.each<[string, unknown, string, string]>([
    ['a string', 'title = cto', 'request.invalid', 'filter.where'],
    ['an array', [ok], 'request.invalid', 'filter.where'],
    ['an empty object', {}, 'request.invalid', 'filter.where.field'],
    ['and not an array', { and: ok }, 'request.invalid', 'filter.where.and'],
    ['not given an array', { not: [ok] }, 'request.invalid', 'filter.where.not'],
    ['two groups in one node', { and: [ok], or: [ok] }, 'request.invalid', 'filter.where'],
    ['a group with leaf members', { and: [ok], field: 'title' }, 'request.invalid', 'filter.where'],
    [
      'a leaf with an unknown member',
      { field: 'title', op: 'in', values: ['cto'] },
      'request.invalid',
      'filter.where.values',
    ],
    ['field not a string', { field: 3, op: 'eq', value: 'x' }, 'request.invalid', 'filter.where.field'],
    ['op not a string', { field: 'title', op: ['eq'], value: 'x' }, 'request.invalid', 'filter.where.op'],
    ['empty and', { and: [] }, 'filter.rejected', 'filter.where.and'],
    ['empty or deep down', { and: [ok, { not: { or: [] } }] }, 'filter.rejected', 'filter.where.and[1].not.or'],
    ['a bad child', { and: [ok, { or: [ok, 7] }] }, 'request.invalid', 'filter.where.and[1].or[1]'],
    [
      'a bad op deep down',
      { and: [ok, { or: [ok, leaf('has_phone', 'gt', true)] }] },
      'filter.rejected',
      'filter.where.and[1].or[1].op',
    ],
  ])('%s → %s at %s', (_name, tree, code, field) => {
    const err = fails(tree);
    expect([err.code, err.field]).toEqual([code, field]);
    expect(err.hint).toBeTruthy();
  });
});

describe('tree limits: at the boundary and one past it', () => {
  const ok = leaf('title', 'eq', 'cto');
  /** `groups` nested groups (and, or, not in turn) around one leaf: depth = groups. */
  const nested = (groups: number): unknown => {
    let node: unknown = ok;
    for (let i = 0; i < groups; i++)
      node = i % 3 === 0 ? { and: [node] } : i % 3 === 1 ? { or: [node] } : { not: node };
    return node;
  };

  it('a bare leaf and 4 nested groups are accepted; 5 are refused', () => {
    expect(where(ok)).toEqual(ok);
    expect(() => where(nested(4))).not.toThrow();
    const err = fails(nested(5));
    expect([err.code, err.field]).toEqual(['filter.rejected', 'filter.where.or[0].and[0].not.or[0]']);
    expect(err.message).toMatch(/4/);
  });

  it('depth counts not groups too', () => {
    expect(fails({ not: { not: { not: { not: { not: ok } } } } }).field).toBe('filter.where.not.not.not.not');
  });

  const leaves = (n: number) => Array.from({ length: n }, (_, i) => leaf('title', 'eq', `t${i}`));

  it('25 leaves are accepted, 26 refused at the 26th', () => {
    expect(() => where({ and: leaves(25) })).not.toThrow();
    const err = fails({ or: leaves(26) });
    expect([err.code, err.field]).toEqual(['filter.rejected', 'filter.where.or[25]']);
    expect(err.message).toMatch(/25 leaves/);
  });

  /** A root and + 25 leaves + `nots` of them wrapped in not: 26 + nots predicates, depth 2. */
  const predicates = (nots: number) => ({ and: leaves(25).map((l, i) => (i < nots ? { not: l } : l)) });

  it('32 predicates (leaves + groups) are accepted, 33 refused', () => {
    expect(() => where(predicates(6))).not.toThrow();
    const err = fails(predicates(7));
    expect(err.code).toBe('filter.rejected');
    expect(err.message).toMatch(/32 predicates/);
  });

  it('a huge or deep tree is refused without walking it all', () => {
    const wide = { and: Array.from({ length: 100_000 }, () => ok) };
    expect(fails(wide).code).toBe('filter.rejected');
    let deep: unknown = ok;
    for (let i = 0; i < 100_000; i++) deep = { not: deep };
    expect(fails(deep).code).toBe('filter.rejected');
  });
});

describe('company where', () => {
  const cwhere = (tree: unknown) => parseCompanyFilter({ filter: { where: tree } });

  it('reads company columns and folds their lists', () => {
    expect(
      cwhere({
        and: [
          leaf('headcount_band', 'eq', '501-1000'),
          leaf('HQ_Country', 'in', ['USA']),
          leaf('locations', 'contains', 'main street'),
        ],
      }),
    ).toEqual({
      ir: {
        and: [
          leaf('headcount_band', 'eq', '501-1K'),
          leaf('hq_country', 'in', ['us']),
          leaf('locations', 'contains', 'main street'),
        ],
      },
      keysApplied: ['where'],
    });
  });

  it('contact-only columns are unknown', () => {
    const err = caught(() => cwhere(leaf('signals', 'exists')));
    expect([err.code, err.field]).toEqual(['filter.unknown_key', 'filter.where.field']);
    expect(err.hint).toMatch(/\/v1\/companies\/schema/);
  });
});
