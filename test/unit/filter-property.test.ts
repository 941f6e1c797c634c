import fc from 'fast-check';
import {
  COMPANY_FILTER_KEYS,
  CONTACT_FILTER_KEYS,
  type FilterKeyDef,
  listValues,
  publicColumns,
} from '../../src/domain/catalog/index.js';
import { AppError } from '../../src/domain/errors/index.js';
import {
  type IRNode,
  isLeaf,
  parseCompanyFilter,
  parseContactFilter,
  WHERE_OPS,
} from '../../src/domain/query/index.js';

/** The only codes a filter may fail with (spec "Errors"): never a 500, never another exception type. */
const FILTER_CODES = new Set(['request.invalid', 'filter.unknown_key', 'filter.unknown_value', 'filter.rejected']);
const LEAF_OPS = new Set([
  'eq',
  'neq',
  'in',
  'not_in',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'prefix',
  'words',
  'exists',
]);

type Outcome = { ok: true; ir: IRNode; keysApplied: string[] } | { ok: false; error: AppError };

function run(parse: () => { ir: IRNode; keysApplied: string[] }): Outcome {
  try {
    return { ok: true, ...parse() };
  } catch (e) {
    if (!(e instanceof AppError)) throw new Error(`not an AppError: ${String(e)}`);
    return { ok: false, error: e };
  }
}

/** Every node is a well-formed group or leaf with a known op and a JSON value. */
function wellFormed(n: IRNode): boolean {
  if (isLeaf(n)) {
    const v = n.value;
    const scalar = (x: unknown) => ['string', 'number', 'boolean'].includes(typeof x);
    return (
      LEAF_OPS.has(n.op) && (v === undefined || scalar(v) || (Array.isArray(v) && v.length > 0 && v.every(scalar)))
    );
  }
  if ('and' in n) return n.and.every(wellFormed);
  if ('or' in n) return n.or.length > 0 && n.or.every(wellFormed);
  return wellFormed(n.not);
}

function checkOutcome(o: Outcome): void {
  if (o.ok) {
    expect(wellFormed(o.ir)).toBe(true);
    expect(JSON.parse(JSON.stringify(o.ir))).toEqual(o.ir);
    return;
  }
  const e = o.error;
  expect(FILTER_CODES.has(e.code)).toBe(true);
  expect(e.field).toMatch(/^(filter|exclude_ids)(\.|\[|$)/);
  expect(typeof e.hint).toBe('string');
  expect(e.hint!.length).toBeGreaterThan(0);
  expect(e.message.length).toBeLessThan(500);
}

// ---- arbitraries: known names mixed with noise, so both deep paths and early failures are hit ----

const contactKeys = CONTACT_FILTER_KEYS.map((k) => k.key);
const columnNames = publicColumns('contact').map((c) => c.name);
const slugs = [
  'seniority',
  'function',
  'company_size',
  'company_revenue',
  'funding_round_type',
  'signals',
  'email_status',
].flatMap((l) => listValues(l).flatMap((v) => [v.slug, v.label]));
const words = fc.constantFrom(
  'us',
  'USA',
  'Narnia',
  'acme.com',
  'https://acme.com/x',
  'Acme Inc',
  ', Inc.',
  'com_1',
  'per_1',
  '*x',
  'x%',
  '',
  ' ',
  '2024-01',
  '2024-01-15',
  '2024-13',
  'Software Development',
  ...slugs,
);
const text = fc.oneof(words, fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 8 }));
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 4, arbitrary: fc.array(scalar, { maxLength: 6 }) },
  { weight: 2, arbitrary: fc.array(words, { maxLength: 6 }) },
  { weight: 1, arbitrary: fc.array(words, { minLength: 45, maxLength: 1100 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
const key = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...contactKeys, 'where', 'include_secondary_roles') },
  { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'exclude_ids', 'hq_countries', 'ids') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

const tree = fc.letrec<{ node: unknown; leaf: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: tie('leaf') },
    { weight: 1, arbitrary: fc.record({ and: fc.array(tie('node'), { maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ or: fc.array(tie('node'), { maxLength: 5 }) }) },
    { weight: 1, arbitrary: fc.record({ not: tie('node') }) },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  ),
  leaf: fc.record(
    {
      field: fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom(...columnNames, 'SIGNALS', 'network_slug') },
        fc.string({ maxLength: 8 }),
        fc.integer(),
      ),
      op: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...WHERE_OPS, 'like', 'EQ') }, fc.anything({ maxDepth: 1 })),
      value,
    },
    { requiredKeys: ['field', 'op'] },
  ),
}));

/** A deep chain of groups, past every depth limit. */
const deepChain = fc.integer({ min: 1, max: 60 }).map((n) => {
  let node: unknown = { field: 'title', op: 'eq', value: 'x' };
  for (let i = 0; i < n; i++) node = i % 2 ? { not: node } : { and: [node, node] };
  return node;
});

const filterObject = fc.dictionary(
  key,
  fc.oneof({ weight: 4, arbitrary: value }, { weight: 2, arbitrary: tree.node }, { weight: 1, arbitrary: deepChain }),
  { maxKeys: 6 },
);
const anyFilter = fc.oneof(
  { weight: 8, arbitrary: filterObject },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);
const excludeIds = fc.oneof(
  fc.constant(undefined),
  fc.array(fc.oneof(fc.constantFrom('per_1', 'per_abc', 'com_1'), text), { maxLength: 5 }),
  fc.array(fc.constant('per_x'), { minLength: 995, maxLength: 1005 }),
  scalar,
);

describe('filter parsing never fails with anything but a filter error', () => {
  it('contact filters: random and malformed bodies (5,000 runs)', () => {
    fc.assert(
      fc.property(anyFilter, excludeIds, (filter, exclude_ids) => {
        checkOutcome(run(() => parseContactFilter({ filter, exclude_ids })));
      }),
      { numRuns: 5000 },
    );
  });

  it('where trees: random groups and leaves (3,000 runs)', () => {
    fc.assert(
      fc.property(fc.oneof(tree.node, deepChain), (where) => {
        checkOutcome(run(() => parseContactFilter({ filter: { where } })));
      }),
      { numRuns: 3000 },
    );
  });

  it('contact filters: random JSON anywhere (1,000 runs)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (filter, exclude_ids) => {
        checkOutcome(run(() => parseContactFilter({ filter, exclude_ids })));
      }),
      { numRuns: 1000 },
    );
  });

  it('company filters (1,000 runs)', () => {
    const companyKey = fc.oneof(
      fc.constantFrom(...COMPANY_FILTER_KEYS.map((k) => k.key), 'where'),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.dictionary(companyKey, fc.oneof(value, tree.node), { maxKeys: 5 }), (filter) => {
        checkOutcome(run(() => parseCompanyFilter({ filter })));
      }),
      { numRuns: 1000 },
    );
  });
});

// ---- valid filters always parse, and keysApplied names exactly the keys that constrain ----

/** A valid raw value for a flat key (aliases included), never empty, so the key always applies. */
function validValue(def: FilterKeyDef): fc.Arbitrary<unknown> {
  const listOf = (a: fc.Arbitrary<string>) => fc.array(a, { minLength: 1, maxLength: 4 });
  switch (def.match) {
    case 'min':
    case 'max':
      return fc.integer({ min: 0, max: 10_000_000 });
    case 'after':
    case 'before':
      return fc
        .tuple(fc.integer({ min: 1990, max: 2030 }), fc.integer({ min: 1, max: 12 }))
        .map(([y, m]) => `${y}-${String(m).padStart(2, '0')}`);
    case 'present':
      return fc.boolean();
    case 'option':
      return fc.constant(true);
    case 'phrase':
      return fc.oneof(fc.constantFrom('cto', 'head of sales'), listOf(fc.constantFrom('vp sales', 'engineer')));
    default:
      break;
  }
  switch (def.normalize) {
    case 'country':
      return listOf(fc.constantFrom('us', 'USA', 'United States', 'gb', 'Germany'));
    case 'industry':
      return listOf(fc.constantFrom('software_development', 'Software Development', 'Financial Services'));
    case 'domain':
      return listOf(fc.constantFrom('acme.com', 'https://www.example.org/path', 'Globex.IO'));
    case 'company_name':
      return listOf(fc.constantFrom('Acme Inc.', 'The Globex Corporation', 'Initech'));
    case 'company_id':
      return listOf(fc.stringMatching(/^com_[a-z0-9]{1,8}$/));
    default: {
      const values = def.list ? listValues(def.list).flatMap((v) => [v.slug, v.label, ...(v.aliases ?? [])]) : [];
      return listOf(values.length > 0 ? fc.constantFrom(...values) : fc.stringMatching(/^[A-Za-z][a-z]{0,8}$/));
    }
  }
}

const validLeaf = fc.constantFrom(
  { field: 'title', op: 'contains', value: 'sales' },
  { field: 'Seniority', op: 'in', value: ['SVP', 'director'] },
  { field: 'role_since', op: 'gte', value: '2023-06-01' },
  { field: 'company_employee_count', op: 'lt', value: 500 },
  { field: 'has_phone', op: 'eq', value: true },
  { field: 'signals', op: 'exists' },
  { field: 'education', op: 'contains', value: 'stanford' },
);
const validTree = fc.oneof(
  validLeaf,
  fc.record({ and: fc.array(validLeaf, { minLength: 1, maxLength: 8 }) }),
  fc.record({ not: fc.record({ or: fc.array(validLeaf, { minLength: 1, maxLength: 8 }) }) }),
);

const validFilter = fc
  .subarray(CONTACT_FILTER_KEYS as FilterKeyDef[], { maxLength: 8 })
  .chain((defs) => fc.tuple(fc.constant(defs), fc.tuple(...defs.map(validValue)), validTree, fc.boolean()))
  .map(([defs, values, where, withWhere]) => {
    const filter: Record<string, unknown> = Object.fromEntries(defs.map((d, i) => [d.key, values[i]]));
    if (withWhere) filter.where = where;
    return filter;
  });

describe('valid filters always parse', () => {
  it('to a well-formed IR, naming every key in request order (2,000 runs)', () => {
    fc.assert(
      fc.property(validFilter, (filter) => {
        const parsed = parseContactFilter({ filter });
        expect(wellFormed(parsed.ir)).toBe(true);
        expect(parsed.keysApplied).toEqual(Object.keys(filter));
      }),
      { numRuns: 2000 },
    );
  });
});
