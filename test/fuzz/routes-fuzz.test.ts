import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { columnsOf, FAMILY_B_PARAMS } from '../../src/domain/catalog/index.js';
import { ERROR_CATALOG } from '../../src/domain/errors/index.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { repoRoot } from '../helpers/paths.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Fuzz pass over every route (issue 6): random and mutated bodies, query strings and path parameters.
 * Every answer must be a JSON envelope with a catalog code, never a 5xx, and the server must stay up.
 * CDS_FUZZ_RUNS sets the number of requests (default 10,000).
 */
const RUNS = Number(process.env.CDS_FUZZ_RUNS ?? 10_000);

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({
    contacts: 1500,
    companies: 200,
    env: {
      CDS_RATE_PER_MINUTE: '1000000',
      CDS_RATE_CONCURRENT: '1000',
      CDS_ADMIN_TOKEN: 'fuzz-operator-token-0123456789abcdef',
    },
    plans: {
      fuzz: {
        name: 'Fuzz',
        contact: { kind: 'windows', daily: 1_000_000_000, monthly: 1_000_000_000 },
        premiumMonthly: 1_000_000,
        alerts: true,
        maxActiveAlerts: 100,
      },
    },
  });
  key = (await app.createAccount('fuzz')).apiKey;
});
afterAll(async () => app.close());

/** Valid-looking starting points that mutations break in many ways. */
const SEEDS: unknown[] = [
  { filter: { countries: ['us'], seniority: ['vp'] }, limit: 5 },
  {
    filter: {
      where: {
        and: [
          { field: 'title', op: 'contains', value: 'sales' },
          { not: { field: 'country', op: 'in', value: ['us', 'gb'] } },
        ],
      },
    },
  },
  {
    filter: { title_query: ['head of growth'], include_secondary_roles: true },
    columns: ['name', 'title'],
    cursor: null,
  },
  { inputs: ['a@b.com', '+1 415 555 0100', 'https://www.network.com/in/x'], company_domain: 'acme.com' },
  { countries: ['US'], seniority: ['VP'], where_sql: "country = 'us' AND title ILIKE '%vp%'", limit: 10, offset: 0 },
  { items: [{ network_url: 'https://www.network.com/in/jane' }], limit_per_item: 2 },
  { items: [{ first_name: 'Jane', last_name: 'Doe', company_domain: 'acme.com' }] },
  { phones: ['+14155550100'] },
  { company_domains: ['acme.com'], limit: 10 },
  { work_email: 'jane@acme.com', limit: 5 },
  { message: 'hello', category: 'bug' },
  { plan: 'pro', name: 'x', billing_day: 3 },
  { kind: 'network_profile', target: 'https://www.network.com/in/jane', dry_run: true },
  { filter: {}, columns: ['*'], max_rows: 10, format: 'csv' },
  // Every numeric parameter: family B's flat numbers and family A's where on every number column.
  ...FAMILY_B_PARAMS.filter((d) => d.type === 'number').map((d) => ({ [d.name]: 1 })),
  ...columnsOf('contact')
    .filter((c) => c.kind === 'number')
    .map((c) => ({ filter: { where: { field: c.name, op: 'gte', value: 1 } } })),
];

/** Numbers at the edges: beyond 64 bits, beyond safe integers, negative zero, the smallest double (JSON text such as
 * 1e-400 and 1e400 is in the raw bodies below, since JS cannot hold it). */
const NUMERIC_EDGES = [1e19, -1e19, 2 ** 53, 2 ** 53 + 2, 2 ** 63, -0, Number.MIN_VALUE, Number.MAX_VALUE];

const hostile = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }),
  fc.string({ maxLength: 300 }),
  fc.constantFrom(
    '',
    ' ',
    '*',
    '%',
    "'; DROP TABLE contacts; --",
    '../../etc/passwd',
    '\u0000',
    '\uFFFF',
    'a'.repeat(5000),
    '=cmd|calc',
    'null',
    '1e309',
    '-1',
    '9007199254740993',
  ),
  fc.integer(),
  fc.double(),
  fc.constantFrom(...NUMERIC_EDGES),
  fc.constantFrom(...NUMERIC_EDGES),
  fc.constantFrom(null, true, false, [], {}, [[[]]], { where: { where: {} } }),
);

/** A mutation: replace, delete or add a member at any depth. */
function mutate(value: unknown, path: number[], replacement: unknown, mode: number): unknown {
  if (path.length === 0 || value === null || typeof value !== 'object') return mode === 0 ? replacement : value;
  const [step, ...rest] = path;
  if (Array.isArray(value)) {
    if (value.length === 0) return [replacement];
    const i = step! % value.length;
    const copy = [...value];
    if (rest.length === 0 && mode === 1) copy.splice(i, 1);
    else if (rest.length === 0 && mode === 2) copy.push(replacement);
    else copy[i] = mutate(copy[i], rest, replacement, mode);
    return copy;
  }
  const keys = Object.keys(value as object);
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (keys.length === 0 || (rest.length === 0 && mode === 2)) {
    copy[`k${step}`] = replacement;
    return copy;
  }
  const k = keys[step! % keys.length]!;
  if (rest.length === 0 && mode === 1) delete copy[k];
  else copy[k] = mutate(copy[k], rest, replacement, mode);
  return copy;
}

const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(fc.constantFrom(...SEEDS), fc.array(fc.nat(50), { maxLength: 4 }), hostile, fc.nat(2))
      .map(([s, p, r, m]) => mutate(s, p, r, m)),
  },
  { weight: 1, arbitrary: hostile },
  { weight: 1, arbitrary: fc.constantFrom(...SEEDS) },
);

const request = fc.record({
  op: fc.nat(OPERATIONS.length - 1),
  body,
  raw: fc.oneof(
    fc.constant(undefined),
    fc.constantFrom('{', '{"a":', '[1,2', 'not json', '\u0000\u0001', '{"filter":{"countries":["us"]}}}'),
    fc.constantFrom(
      '{"filter":{"where":{"field":"company_employee_count","op":"gt","value":1e-400}}}',
      '{"filter":{"where":{"field":"company_employee_count","op":"lt","value":-1e400}}}',
      '{"revenue_min":1e400}',
      '{"total_funding_min":-0,"total_funding_max":1e-400}',
      '{"where_sql":"company_employee_count > 1e400"}',
    ),
  ),
  param: fc.oneof(
    fc.constantFrom(
      'exp_x',
      'col_x',
      'alr_x',
      'key_x',
      'industries',
      'country',
      '..%2F..%2Fetc',
      '%00',
      'a'.repeat(300),
    ),
    fc.string({ maxLength: 40 }),
  ),
  auth: fc.constantFrom('key', 'key', 'key', 'none', 'bad', 'operator'),
});

describe('fuzz: every route', () => {
  it(`${RUNS} random and mutated requests: no 5xx, only catalog codes, the server stays up`, async () => {
    const seen = new Map<number, number>();
    const failures: string[] = [];
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const op = OPERATIONS[r.op]!;
        const path = op.path.replace(/:(\w+)/g, () => encodeURIComponent(r.param).slice(0, 400));
        const headers: Record<string, string> =
          r.auth === 'operator'
            ? { Authorization: 'Bearer fuzz-operator-token-0123456789abcdef' }
            : r.auth === 'bad'
              ? { Authorization: 'Bearer cds_bad' }
              : {};
        const useKey = r.auth === 'key' ? key : undefined;
        const opts: Parameters<TestApp['request']>[2] = {
          headers,
          ...(useKey ? { key: useKey, keyHeader: op.family === 'B' ? 'x-api-key' : 'bearer' } : {}),
        };
        let url = path;
        if (op.method === 'GET' || op.method === 'DELETE') {
          const q =
            r.body && typeof r.body === 'object' && !Array.isArray(r.body)
              ? Object.entries(r.body as Record<string, unknown>).map(
                  ([k, v]) =>
                    `${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'string' ? v : JSON.stringify(v))}`,
                )
              : [];
          url = `${path}${q.length ? `?${q.join('&')}` : ''}`;
        } else if (r.raw !== undefined) opts.rawBody = r.raw;
        else opts.body = r.body;
        const res = await app.request(op.method, url, opts);
        seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
        const b = res.body as { ok?: boolean; error?: { code?: string } };
        const bad =
          res.status >= 500 ||
          typeof b !== 'object' ||
          b === null ||
          (b.ok === false && !(b.error?.code && b.error.code in ERROR_CATALOG)) ||
          (b.ok !== true && b.ok !== false);
        if (bad && failures.length < 20)
          failures.push(`${op.method} ${url.slice(0, 120)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        return true;
      }),
      { numRuns: RUNS, seed: 4242 },
    );
    if (process.env.CDS_BENCH_RECORD) {
      mkdirSync(join(repoRoot(), 'bench', 'results'), { recursive: true });
      const statuses = Object.fromEntries([...seen].sort((a, b) => a[0] - b[0]));
      writeFileSync(
        join(repoRoot(), 'bench', 'results', 'fuzz.json'),
        `${JSON.stringify({ requests: RUNS, routes: OPERATIONS.length, seconds: (Date.now() - started) / 1000, statuses, server_errors: failures.length, at: new Date().toISOString() }, null, 2)}\n`,
      );
    }
    expect(failures).toEqual([]);
    expect((await app.request('GET', '/v1/health')).status).toBe(200);
    // Both good and refused answers were exercised.
    expect([...seen.keys()].some((s) => s < 300)).toBe(true);
    expect([...seen.keys()].some((s) => s >= 400)).toBe(true);
  }, 600_000);
});
