import { expectError } from '../helpers/errors.js';
import { allRows, has, list, type Row, wordsMatch } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let key: string;
let rows: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 3000, companies: 400, seed: 11 });
  key = (await app.createAccount('pro')).apiKey;
  rows = await allRows(app, 'contacts');
});
afterAll(async () => app.close());

const pick = <T>(xs: T[], i = 0): T => xs[Math.min(i, xs.length - 1)]!;
const sample = () =>
  rows.find(
    (r) =>
      has(r.company_domain) &&
      has(r.title) &&
      has(r.country) &&
      list(r.company_industries).length > 0 &&
      has(r.company_employee_count),
  )!;

/** Each case: a filter and the same audience written as a plain JS predicate over the stored rows. */
function cases(): Array<[string, Record<string, unknown>, (r: Row) => boolean]> {
  const s = sample();
  const skill = pick(rows.filter((r) => list(r.skills).length > 0)).skills[0] as string;
  const school = pick(rows.filter((r) => list(r.schools).length > 0)).schools[0] as string;
  const industry = s.company_industries[0] as string;
  const titleWord = (s.title as string).split(/\s+/).find((w: string) => /^[A-Za-z]{4,}$/.test(w)) ?? 'manager';
  return [
    ['countries by alias', { countries: ['USA', 'United Kingdom'] }, (r) => r.country === 'us' || r.country === 'gb'],
    ['exclude_countries (nulls kept)', { exclude_countries: ['us'] }, (r) => r.country !== 'us'],
    ['has_network true', { has_network: true }, (r) => has(r.network)],
    ['has_network false', { has_network: false }, (r) => !has(r.network)],
    ['has_work_email', { has_work_email: true }, (r) => has(r.work_email)],
    ['has_phone true', { has_phone: true }, (r) => has(r.mobile_phone) || has(r.direct_phone)],
    ['has_phone false', { has_phone: false }, (r) => !has(r.mobile_phone) && !has(r.direct_phone)],
    ['seniority', { seniority: ['vp', 'director'] }, (r) => r.seniority === 'vp' || r.seniority === 'director'],
    [
      'exclude_seniority',
      { exclude_seniority: ['entry', 'unknown'] },
      (r) => r.seniority !== 'entry' && r.seniority !== 'unknown',
    ],
    ['functions', { functions: ['sales_and_bizdev'] }, (r) => r.function === 'sales_and_bizdev'],
    ['exclude_functions', { exclude_functions: ['engineering'] }, (r) => r.function !== 'engineering'],
    [
      'domains with a URL',
      { domains: [`https://www.${s.company_domain}/about`] },
      (r) => r.company_domain === s.company_domain,
    ],
    [
      'exclude_domains (nulls kept)',
      { exclude_domains: [s.company_domain] },
      (r) => r.company_domain !== s.company_domain,
    ],
    [
      'company_names normalized',
      { company_names: [`  The ${String(s.company).toUpperCase()}, Inc. `] },
      (r) => r.company_name_norm === s.company_name_norm,
    ],
    [
      'company_size',
      { company_size: ['51-200', '201-500'] },
      (r) => r.company_size === '51-200' || r.company_size === '201-500',
    ],
    ['company_revenue', { company_revenue: ['10M-50M'] }, (r) => r.company_revenue === '10M-50M'],
    ['industries by slug', { industries: [industry] }, (r) => list(r.company_industries).includes(industry)],
    [
      'exclude_industries (nulls kept)',
      { exclude_industries: [industry] },
      (r) => !list(r.company_industries).includes(industry),
    ],
    ['skills lowercased', { skills: [skill.toUpperCase()] }, (r) => list(r.skills).includes(skill)],
    ['schools', { schools: [school] }, (r) => list(r.schools).includes(school)],
    [
      'employee_count range',
      { employee_count_min: 50, employee_count_max: 500 },
      (r) => r.company_employee_count !== null && r.company_employee_count >= 50 && r.company_employee_count <= 500,
    ],
    [
      'founded_year range',
      { founded_year_min: 2000, founded_year_max: 2015 },
      (r) => r.company_founded_year !== null && r.company_founded_year >= 2000 && r.company_founded_year <= 2015,
    ],
    [
      'company_hq_countries',
      { company_hq_countries: ['Germany', 'us'] },
      (r) => r.company_hq_country === 'de' || r.company_hq_country === 'us',
    ],
    [
      'last_round_after (exclusive)',
      { last_round_after: '2025-01' },
      (r) => has(r.company_last_round_date) && r.company_last_round_date > '2025-01',
    ],
    [
      'last_round_before (exclusive)',
      { last_round_before: '2020-06' },
      (r) => has(r.company_last_round_date) && r.company_last_round_date < '2020-06',
    ],
    [
      'last_round_types',
      { last_round_types: ['seed', 'series_a'] },
      (r) => r.company_last_round_type === 'seed' || r.company_last_round_type === 'series_a',
    ],
    [
      'total_funding range',
      { total_funding_min: 1_000_000, total_funding_max: 50_000_000 },
      (r) =>
        r.company_total_funding_usd !== null &&
        r.company_total_funding_usd >= 1e6 &&
        r.company_total_funding_usd <= 5e7,
    ],
    ['company_ids', { company_ids: [s.company_id] }, (r) => r.company_id === s.company_id],
    ['title_query phrase', { title_query: titleWord }, (r) => wordsMatch(r.title, titleWord)],
    [
      'title_query array',
      { title_query: ['head of growth', 'vice president'] },
      (r) => wordsMatch(r.title, 'head of growth') || wordsMatch(r.title, 'vice president'),
    ],
    [
      'where signals eq',
      { where: { field: 'signals', op: 'eq', value: 'new_in_role_90d' } },
      (r) => list(r.signals).includes('new_in_role_90d'),
    ],
    [
      'where signals in',
      { where: { field: 'signals', op: 'in', value: ['founder', 'at_public_company'] } },
      (r) => list(r.signals).some((x) => x === 'founder' || x === 'at_public_company'),
    ],
    [
      'where contains name',
      { where: { field: 'name', op: 'contains', value: String(s.name).slice(1, 4) } },
      (r) => typeof r.name === 'string' && r.name.toLowerCase().includes(String(s.name).slice(1, 4).toLowerCase()),
    ],
    [
      'where role_since gte',
      { where: { field: 'role_since', op: 'gte', value: '2026-01-01' } },
      (r) => has(r.role_since) && r.role_since >= '2026-01-01',
    ],
    [
      'where number exists false',
      { where: { field: 'company_total_funding_usd', op: 'exists', value: false } },
      (r) => r.company_total_funding_usd === null,
    ],
    [
      'where not + or',
      {
        where: {
          not: {
            or: [
              { field: 'country', op: 'eq', value: 'us' },
              { field: 'seniority', op: 'eq', value: 'entry' },
            ],
          },
        },
      },
      (r) => r.country !== 'us' && r.seniority !== 'entry',
    ],
    [
      'where list neq',
      { where: { field: 'skills', op: 'neq', value: skill } },
      (r) => list(r.skills).length > 0 && !list(r.skills).includes(skill),
    ],
    [
      'where has_work_email neq',
      { where: { field: 'has_work_email', op: 'neq', value: true } },
      (r) => r.has_work_email === false,
    ],
    [
      'where experience contains',
      { where: { field: 'experience', op: 'contains', value: String(s.company).slice(0, 5) } },
      (r) =>
        JSON.stringify(r.experience ?? '')
          .toLowerCase()
          .includes(String(s.company).slice(0, 5).toLowerCase()),
    ],
    [
      'combined keys',
      { countries: ['us'], seniority: ['vp', 'director', 'c_level'], company_size: ['51-200', '201-500', '501-1K'] },
      (r) =>
        r.country === 'us' &&
        ['vp', 'director', 'c_level'].includes(r.seniority) &&
        ['51-200', '201-500', '501-1K'].includes(r.company_size),
    ],
    ['empty filter', {}, () => true],
  ];
}

describe('POST /v1/contacts/count against an independent computation', () => {
  it('every case counts exactly what the plain predicate finds', async () => {
    const failures: string[] = [];
    for (const [name, filter, pred] of cases()) {
      const res = await app.request('POST', '/v1/contacts/count', { key, body: { filter } });
      const want = rows.filter(pred).length;
      if (res.status !== 200 || res.body.data.count !== want)
        failures.push(`${name}: got ${res.status} ${JSON.stringify(res.body.data ?? res.body.error)} want ${want}`);
    }
    expect(failures).toEqual([]);
  });

  it('is free and exact; zero rows warn no_rows with keys_applied and a hint', async () => {
    const before = await app.request('GET', '/v1/account', { key });
    const res = await app.request('POST', '/v1/contacts/count', {
      key,
      body: { filter: { countries: ['us'], domains: ['no-such-domain-anywhere.example'] } },
    });
    expect(res.body.data.count).toBe(0);
    expect(res.body.warnings).toEqual([
      expect.objectContaining({
        code: 'no_rows',
        keys_applied: ['countries', 'domains'],
        hint: expect.stringMatching(/Remove a key/),
      }),
    ]);
    expect(res.body.quota.contact_credits_used).toBe(0);
    expect(res.body.quota.month_remaining).toBe(before.body.quota.month_remaining);
  });

  it('exclude_ids removes those rows; unknown ids have no effect', async () => {
    const ids = rows.slice(0, 5).map((r) => r.id as string);
    const res = await app.request('POST', '/v1/contacts/count', {
      key,
      body: { filter: {}, exclude_ids: [...ids, 'per_unknown'] },
    });
    expect(res.body.data.count).toBe(rows.length - 5);
  });

  it('filter is required for count', async () => {
    const res = await app.request('POST', '/v1/contacts/count', { key, body: {} });
    expectError(res, 400, 'request.invalid');
  });
});

describe('POST /v1/contacts/search', () => {
  it('cursor walks return every matching row exactly once, in order, and the union equals the count', async () => {
    for (const [name, filter, pred] of cases().filter((c) =>
      ['seniority', 'has_phone true', 'title_query array', 'where signals in'].includes(c[0]),
    )) {
      const want = rows.filter(pred).map((r) => r.id as string);
      const got: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { status: number; body: any } = await app.request('POST', '/v1/contacts/search', {
          key,
          body: { filter, limit: 50, cursor, columns: ['name'] },
        });
        expect(res.status).toBe(200);
        expect(res.body.page.total).toBe(want.length);
        expect(res.body.page.returned).toBe(res.body.data.length);
        got.push(...res.body.data.map((r: Row) => r.id));
        cursor = res.body.page.next_cursor;
        pages++;
      } while (cursor && pages < 200);
      expect({ name, got }).toEqual({ name, got: want });
    }
  });

  it('charges one credit per returned row; no_rows charges nothing', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await app.request('POST', '/v1/contacts/search', {
      key: apiKey,
      body: { filter: { countries: ['us'] }, limit: 7 },
    });
    expect(res.body.data).toHaveLength(7);
    expect(res.body.quota.contact_credits_used).toBe(7);
    expect(res.body.quota.today_remaining).toBe(10_000 - 7);
    const none = await app.request('POST', '/v1/contacts/search', {
      key: apiKey,
      body: { filter: { domains: ['nothing.example'] } },
    });
    expect(none.body.data).toEqual([]);
    expect(none.body.quota.contact_credits_used).toBe(0);
    expect(none.body.warnings[0].code).toBe('no_rows');
    expect(none.body.page).toEqual({ returned: 0, limit: 100, total: 0, next_cursor: null });
  });

  it('columns: id first, default set, ["*"], unknown names answer 400 listing the allowed', async () => {
    const res = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: {}, limit: 1, columns: ['title', 'country'] },
    });
    expect(Object.keys(res.body.data[0])).toEqual(['id', 'title', 'country']);
    const all = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: {}, limit: 1, columns: ['*'] },
    });
    expect(Object.keys(all.body.data[0])[0]).toBe('id');
    expect(Object.keys(all.body.data[0])).toContain('experience');
    expect(typeof all.body.data[0].experience).toBe('object');
    const dflt = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 1 } });
    expect(Object.keys(dflt.body.data[0])).toEqual([
      'id',
      'name',
      'title',
      'company',
      'company_domain',
      'work_email',
      'country',
      'seniority',
      'last_updated',
      'mobile_phone',
      'direct_phone',
      'has_phone',
      'function',
      'location',
      'email_status',
      'company_size',
      'company_industries',
      'company_network',
      'network',
    ]);
    const bad = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: {}, columns: ['title', 'nope'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.field).toBe('columns[1]');
    expect(bad.body.error.hint).toMatch(/company_domain/);
  });

  it('max_rows_per_company caps each page per company_domain', async () => {
    const res = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: { has_work_email: true }, limit: 200, max_rows_per_company: 1, columns: ['company_domain'] },
    });
    const domains = res.body.data.map((r: Row) => r.company_domain).filter(Boolean);
    expect(new Set(domains).size).toBe(domains.length);
    expect(res.body.data.length).toBeGreaterThan(10);
  });

  it('a tampered cursor answers 400 request.invalid; a cursor for another filter too', async () => {
    const first = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 2 } });
    const c = first.body.page.next_cursor as string;
    // The character replaced must change: test the one replaced, not the last (1 run in 64 sent the cursor intact).
    const tampered = `${c.slice(0, -3)}${c.at(-3) === 'A' ? 'B' : 'A'}${c.slice(-2)}`;
    expect(tampered).not.toBe(c);
    const t = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: {}, limit: 2, cursor: tampered },
    });
    expectError(t, 400, 'request.invalid');
    const other = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: { countries: ['us'] }, limit: 2, cursor: c },
    });
    expect(other.status).toBe(400);
    expect(other.body.error.field).toBe('cursor');
  });

  it('a page is cut to the credits left; with none left 402 contact_credits.exhausted with binding and resets_at', async () => {
    const { accountId, apiKey } = await app.createAccount('free');
    const hold = await app.services.state.reserve({
      accountId,
      kind: 'contact',
      category: 'search',
      amount: 95,
      mode: 'exact',
      now: app.clock.now(),
    });
    await app.services.state.commit(hold.id, 95, app.clock.now());
    const cut = await app.request('POST', '/v1/contacts/search', { key: apiKey, body: { filter: {}, limit: 20 } });
    expect(cut.status).toBe(200);
    expect(cut.body.data).toHaveLength(5);
    expect(cut.body.page.limit).toBe(20);
    expect(cut.body.page.next_cursor).toBeTruthy();
    expect(cut.body.quota.month_remaining).toBe(0);
    const none = await app.request('POST', '/v1/contacts/search', { key: apiKey, body: { filter: {}, limit: 20 } });
    expectError(none, 402, 'contact_credits.exhausted');
    expect(none.body.error.details).toEqual({ binding: 'month', resets_at: '9999-12-31T23:59:59.000Z' });
    expect(none.body.quota.month_remaining).toBe(0);
  });

  it('suspended accounts cannot search but can count', async () => {
    const { accountId, apiKey } = await app.createAccount('pro');
    await app.services.state.setAccountStatus(accountId, 'suspended');
    const s = await app.request('POST', '/v1/contacts/search', { key: apiKey, body: { filter: {} } });
    expectError(s, 403, 'account.suspended');
    expect((await app.request('POST', '/v1/contacts/count', { key: apiKey, body: { filter: {} } })).status).toBe(200);
  });

  it.each([
    [{ filter: { colour: ['red'] } }, 400, 'filter.unknown_key'],
    [{ filter: { seniority: ['boss'] } }, 400, 'filter.unknown_value'],
    [{ filter: { countries: ['Atlantis'] } }, 400, 'filter.unknown_value'],
    [{ filter: { title_query: '  ' } }, 400, 'request.invalid'],
    [{ filter: { title_query: '*manager' } }, 422, 'filter.rejected'],
    [{ filter: { company_names: ['Inc.'] } }, 400, 'request.invalid'],
    [{ filter: { domains: Array.from({ length: 1001 }, (_, i) => `d${i}.com`) } }, 422, 'filter.rejected'],
    [{ filter: { skills: Array.from({ length: 51 }, (_, i) => `s${i}`) } }, 422, 'filter.rejected'],
    [{ filter: { where: { field: 'nope', op: 'eq', value: 1 } } }, 400, 'filter.unknown_key'],
    [{ filter: { where: { and: [] } } }, 422, 'filter.rejected'],
    [{ filter: { where: { field: 'title', op: 'contains', value: '%ceo' } } }, 422, 'filter.rejected'],
    [{ filter: { where: { field: 'experience', op: 'eq', value: 'x' } } }, 422, 'filter.rejected'],
    [{ filter: { where: { field: 'title', op: 'eq' } } }, 422, 'filter.rejected'],
    [{ limit: 0 }, 400, 'request.invalid'],
    [{ limit: 1001 }, 400, 'request.invalid'],
  ])('%j answers %d %s', async (body, status, code) => {
    const res = await app.request('POST', '/v1/contacts/search', { key, body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.hint).toBeTruthy();
    expect(res.body.quota.contact_credits_used).toBe(0);
  });
});
