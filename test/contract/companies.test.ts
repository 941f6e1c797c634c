import { expectError } from '../helpers/errors.js';
import { allRows, has, list, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let key: string;
let companies: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 2000, companies: 400, seed: 27 });
  key = (await app.createAccount('pro')).apiKey;
  companies = await allRows(app, 'companies');
});
afterAll(async () => app.close());

describe('companies: count, search and lookup', () => {
  it('counts match plain predicates over the stored companies', async () => {
    const c = companies.find((x) => has(x.domain) && list(x.industries).length > 0)!;
    const cases: Array<[Record<string, unknown>, (r: Row) => boolean]> = [
      [{}, () => true],
      [{ hq_countries: ['United States'] }, (r) => r.hq_country === 'us'],
      [{ exclude_hq_countries: ['us'] }, (r) => r.hq_country !== 'us'],
      [{ industries: [c.industries[0]] }, (r) => list(r.industries).includes(c.industries[0])],
      [{ headcount_bands: ['51-200', '201-500'] }, (r) => ['51-200', '201-500'].includes(r.headcount_band)],
      [
        { employee_count_min: 100, employee_count_max: 1000 },
        (r) => r.employee_count !== null && r.employee_count >= 100 && r.employee_count <= 1000,
      ],
      [{ domains: [`https://${c.domain}/about`] }, (r) => r.domain === c.domain],
      [{ last_round_after: '2024-06' }, (r) => has(r.last_round_date) && r.last_round_date > '2024-06'],
      [{ where: { field: 'specialties', op: 'exists' } }, (r) => list(r.specialties).length > 0],
    ];
    for (const [filter, pred] of cases) {
      const res = await app.request('POST', '/v1/companies/count', { key, body: { filter } });
      expect({ filter, count: res.body.data?.count }).toEqual({ filter, count: companies.filter(pred).length });
    }
  });

  it('search walks every matching company once in id order and charges one credit per company', async () => {
    const { apiKey } = await app.createAccount('pro');
    const want = companies.filter((r) => r.hq_country === 'us').map((r) => r.id);
    const got: string[] = [];
    let cursor: string | null = null;
    do {
      const res: { body: any } = await app.request('POST', '/v1/companies/search', {
        key: apiKey,
        body: { filter: { hq_countries: ['us'] }, limit: 50, cursor },
      });
      expect(res.body.page.total).toBe(want.length);
      got.push(...res.body.data.map((r: Row) => r.id));
      cursor = res.body.page.next_cursor;
    } while (cursor);
    expect(got).toEqual(want);
    const acct = await app.request('GET', '/v1/account', { key: apiKey });
    expect(acct.body.quota.today_remaining).toBe(10_000 - want.length);
  });

  it('lookup by domain, URL, name, profile URL or id; misses free; one credit per match', async () => {
    const { apiKey } = await app.createAccount('pro');
    const [a, b, d] = companies.filter((x) => has(x.domain) && has(x.network) && has(x.name_norm));
    const inputs = [a!.domain, `https://www.${b!.domain}/`, d!.id, d!.network, 'no-such-company-anywhere.example', ''];
    const res = await app.request('POST', '/v1/companies/lookup', { key: apiKey, body: { inputs } });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: Row) => r.company?.id ?? null)).toEqual([a!.id, b!.id, d!.id, d!.id, null, null]);
    expect(res.body.data[5]).toMatchObject({ matched: false, reason: 'invalid' });
    expect(res.body.quota.contact_credits_used).toBe(4);
  });

  it('refuses unknown keys and values with the spec codes', async () => {
    const bad = await app.request('POST', '/v1/companies/count', { key, body: { filter: { colour: ['red'] } } });
    expectError(bad, 400, 'filter.unknown_key');
    const val = await app.request('POST', '/v1/companies/count', {
      key,
      body: { filter: { headcount_bands: ['huge'] } },
    });
    expect(val.body.error.code).toBe('filter.unknown_value');
  });
});
