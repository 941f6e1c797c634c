import { CONTACT_FILTER_KEYS, publicColumns } from '../../src/domain/catalog/index.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.createAccount('free')).apiKey;
});
afterAll(async () => app.close());

const COLUMN_TYPES = ['string', 'integer', 'number', 'boolean', 'date', 'month', 'array', 'object'];
const KEY_TYPES = ['list', 'string', 'boolean', 'integer', 'month'];

describe('GET /v1/contacts/schema', () => {
  it('lists every public column, id first, with frozen types, and every filter key', async () => {
    const res = await app.request('GET', '/v1/contacts/schema', { key });
    expect(res.status).toBe(200);
    const cols = res.body.data.columns as Array<Record<string, unknown>>;
    expect(cols[0]!.name).toBe('id');
    expect(cols.map((c) => c.name)).toEqual(publicColumns('contact').map((c) => c.name));
    for (const c of cols) expect(COLUMN_TYPES).toContain(c.type);
    for (const name of [
      'name',
      'title',
      'company',
      'company_domain',
      'work_email',
      'country',
      'seniority',
      'function',
      'last_updated',
      'mobile_phone',
      'direct_phone',
      'has_phone',
      'location',
      'email_status',
      'company_size',
      'company_industries',
      'company_network',
      'network',
      'role_since',
      'signals',
      'skills',
      'languages',
      'experience',
      'education',
      'certifications',
      'social',
      'company_employee_count',
      'company_founded_year',
      'company_total_funding_usd',
      'company_revenue',
      'last_refreshed',
    ]) {
      expect(cols.some((c) => c.name === name)).toBe(true);
    }
    expect(cols.find((c) => c.name === 'last_updated')).toMatchObject({ type: 'month', format: 'YYYY-MM' });
    expect(cols.find((c) => c.name === 'company_industries')).toMatchObject({
      closed_list: true,
      values_route: '/v1/contacts/schema/industries/values',
    });
    expect(cols.find((c) => c.name === 'country')).toMatchObject({
      values_route: '/v1/contacts/schema/country/values',
    });
    expect(cols.some((c) => c.name === 'sort_key' || c.name === 'network_slug')).toBe(false);

    const keys = res.body.data.filter_keys as Array<Record<string, unknown>>;
    expect(keys.map((k) => k.key)).toEqual(CONTACT_FILTER_KEYS.map((k) => k.key));
    for (const k of keys) expect(KEY_TYPES).toContain(k.type);
    // excludes names the exclude_* twin of an include key; the exclude keys have none
    expect(keys.find((k) => k.key === 'countries')).toMatchObject({ excludes: 'exclude_countries', column: 'country' });
    expect(keys.find((k) => k.key === 'exclude_countries')).toMatchObject({ excludes: null, column: 'country' });
    for (const k of keys.filter((x) => x.excludes !== null)) {
      expect(keys.find((x) => x.key === k.excludes)?.key).toBe(`exclude_${k.key}`);
    }
    expect(keys.filter((x) => x.excludes !== null).length).toBe(
      keys.filter((x) => /^exclude_/.test(String(x.key))).length,
    );
    expect(keys.find((k) => k.key === 'industries')).toMatchObject({
      values_route: '/v1/contacts/schema/industries/values',
    });
    expect(keys.find((k) => k.key === 'has_phone')).toMatchObject({ column: null });
    expect((res.body.data.notes as string[]).length).toBeGreaterThan(3);
    expect(res.body.quota.contact_credits_used).toBe(0);
  });
});

describe('GET /v1/contacts/schema/{column}/values', () => {
  it('industries: slugs with labels and stored counts, q and limit', async () => {
    const res = await app.request('GET', '/v1/contacts/schema/industries/values?q=software&limit=5', { key });
    expect(res.status).toBe(200);
    const values = res.body.data.values as Array<{ value: string; label: string; count: number }>;
    expect(values.length).toBeGreaterThan(0);
    expect(values.length).toBeLessThanOrEqual(5);
    for (const v of values) expect(`${v.value} ${v.label}`.toLowerCase()).toContain('software');
    expect(values.some((v) => v.value === 'software_development')).toBe(true);
    // Counts come from the release: they sum to no more than contacts x industries and are not all zero.
    expect(values.reduce((s, v) => s + v.count, 0)).toBeGreaterThan(0);
  });

  it('country: ISO-2 slugs with English names', async () => {
    const res = await app.request('GET', '/v1/contacts/schema/country/values?q=united', { key });
    const values = res.body.data.values as Array<{ value: string; label: string }>;
    expect(values).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ value: 'us', label: 'United States' }),
        expect.objectContaining({ value: 'gb' }),
      ]),
    );
  });

  it('skills come from the data, lowercase, most frequent first', async () => {
    const res = await app.request('GET', '/v1/contacts/schema/skills/values?limit=20', { key });
    const values = res.body.data.values as Array<{ value: string; count: number }>;
    expect(values.length).toBeGreaterThan(5);
    for (const v of values) expect(v.value).toBe(v.value.toLowerCase());
    for (let i = 1; i < values.length; i++) expect(values[i - 1]!.count).toBeGreaterThanOrEqual(values[i]!.count);
  });

  it('company_size and seniority list every value of the closed list', async () => {
    const sizes = await app.request('GET', '/v1/contacts/schema/company_size/values', { key });
    expect(sizes.body.data.values.map((v: { value: string }) => v.value)).toEqual([
      '1-10',
      '11-50',
      '51-200',
      '201-500',
      '501-1K',
      '1K-5K',
      '5K-10K',
      '10K+',
    ]);
    const sen = await app.request('GET', '/v1/contacts/schema/seniority/values', { key });
    expect(sen.body.data.values).toHaveLength(8);
  });

  it('an unknown column, or one without values, answers 404 column.not_found', async () => {
    for (const col of ['nope', 'title']) {
      const res = await app.request('GET', `/v1/contacts/schema/${col}/values`, { key });
      expectError(res, 404, 'column.not_found');
      expect(res.body.error.hint).toMatch(/industries/);
    }
  });

  it('a bad limit answers 400 request.invalid', async () => {
    for (const limit of ['0', '1001', 'ten']) {
      const res = await app.request('GET', `/v1/contacts/schema/country/values?limit=${limit}`, { key });
      expect(res.status).toBe(400);
      expect(res.body.error.field).toBe('limit');
    }
  });
});

describe('companies schema routes', () => {
  it('GET /v1/companies/schema lists company columns and filter keys', async () => {
    const res = await app.request('GET', '/v1/companies/schema', { key });
    const names = (res.body.data.columns as Array<{ name: string }>).map((c) => c.name);
    expect(names[0]).toBe('id');
    for (const n of [
      'headcount_band',
      'revenue_range',
      'employee_growth_pct',
      'specialties',
      'investors',
      'investor_count',
      'locations',
    ])
      expect(names).toContain(n);
    expect(res.body.data.filter_keys.length).toBeGreaterThan(5);
  });

  it('GET /v1/companies/schema/headcount_band/values', async () => {
    const res = await app.request('GET', '/v1/companies/schema/headcount_band/values', { key });
    expect(res.status).toBe(200);
    expect(res.body.data.values).toHaveLength(8);
    expect(res.body.data.values.reduce((s: number, v: { count: number }) => s + v.count, 0)).toBeGreaterThan(0);
  });
});
