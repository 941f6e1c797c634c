import { COUNTRY_CONTINENT, COUNTRY_REGION } from '../../src/domain/catalog/lists/geo.js';
import { allRows, has, list, type Row, wordsMatch } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let key: string;
let rows: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 3000, companies: 400, seed: 23 });
  key = (await app.createAccount('unlimited')).apiKey;
  rows = await allRows(app, 'contacts');
});
afterAll(async () => app.close());

const lc = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : '');
const sub = (v: unknown, needle: string) => lc(v).includes(needle.toLowerCase());
const anySub = (v: unknown, needle: string) => list(v).some((x) => sub(x, needle));
const first = <T>(xs: T[]): T => xs[0]!;
const withField = (f: string) => rows.filter((r) => has(r[f]));
const _band = (n: number) =>
  ['1-10', '11-50', '51-200', '201-500', '501-1K', '1K-5K', '5K-10K', '10K+'][
    [10, 50, 200, 500, 1000, 5000, 10000, Infinity].findIndex((m) => n <= m)
  ];

/** One case per family B parameter: the body and the same audience as a plain predicate over stored rows. */
function cases(): Array<[string, Record<string, unknown>, (r: Row) => boolean]> {
  const s = first(
    rows.filter((r) =>
      [r.company_domain, r.company, r.city, r.state, r.first_name, r.last_name, r.work_email, r.network, r.title].every(
        has,
      ),
    ),
  );
  const tech = first(withField('company_technologies')).company_technologies[0];
  const persona = first(withField('personas')).personas[0];
  const naics = first(withField('company_naics_codes')).company_naics_codes[0] as string;
  const naicsDesc = first(withField('company_naics_descriptions')).company_naics_descriptions[0] as string;
  const sic = first(withField('company_sic_codes')).company_sic_codes[0];
  const sicDesc = first(withField('company_sic_descriptions')).company_sic_descriptions[0] as string;
  const uk = first(withField('company_uk_industry_codes')).company_uk_industry_codes[0];
  const ukDesc = first(withField('company_uk_industry_descriptions')).company_uk_industry_descriptions[0] as string;
  const startup = first(withField('company_startup_categories')).company_startup_categories[0] as string;
  const spec = first(withField('company_specialties')).company_specialties[0] as string;
  const skill = first(withField('skills')).skills[0] as string;
  const lang = first(withField('languages')).languages[0] as string;
  const desc = (first(withField('company_description')).company_description as string).split(' ').slice(1, 3).join(' ');
  const headline = (first(withField('headline')).headline as string).split(/\s+/)[0]!;
  const jobDesc = (first(withField('job_description')).job_description as string).split(/\s+/).slice(0, 2).join(' ');
  const personDesc = (first(withField('person_description')).person_description as string)
    .split(/\s+/)
    .slice(0, 2)
    .join(' ');
  const eduWord = (JSON.stringify(first(withField('education')).education).match(/[A-Z][a-z]{4,}/) ?? [
    'University',
  ])[0];
  const certWord = (JSON.stringify(first(withField('certifications')).certifications).match(/[A-Z][a-z]{3,}/) ?? [
    'Certified',
  ])[0];
  const office = first(withField('company_office_cities')).company_office_cities[0] as string;
  const officeState = first(withField('company_office_states')).company_office_states[0] as string;
  const jl = first(withField('job_location_city'));
  const industry = first(withField('company_industries')).company_industries[0] as string;
  const title = (s.title as string).split(/\s+/).find((w: string) => /^[A-Za-z]{4,}$/.test(w)) ?? 'Manager';
  return [
    ['domains', { domains: [`https://www.${s.company_domain}/x`] }, (r) => r.company_domain === s.company_domain],
    [
      'company_name substring',
      { company_name: String(s.company).slice(0, 4) },
      (r) => sub(r.company, String(s.company).slice(0, 4)),
    ],
    [
      'email_domain comma OR',
      { email_domain: `${s.email_domain}, nothing.example` },
      (r) => r.email_domain === s.email_domain,
    ],
    ['job_titles whole words', { job_titles: [title] }, (r) => wordsMatch(r.title, title)],
    ['job_titles acronym does not cross-match', { job_titles: ['VP'] }, (r) => wordsMatch(r.title, 'VP')],
    [
      'seniority labels and aliases',
      { seniority: ['C-Suite', 'Vice President'] },
      (r) => ['c_level', 'founder_or_partner', 'vp'].includes(r.seniority),
    ],
    ['seniority Staff', { seniority: ['Staff'] }, (r) => ['senior_ic', 'entry'].includes(r.seniority)],
    [
      'job_functions department names',
      { job_functions: ['Sales & Business Development', 'Engineering'] },
      (r) => ['sales_and_bizdev', 'engineering'].includes(r.function),
    ],
    ['personas', { personas: [persona] }, (r) => list(r.personas).includes(persona)],
    [
      'job_start_date range',
      { job_start_date_min: '2025-01-01', job_start_date_max: '2026-06-30' },
      (r) => has(r.role_since) && r.role_since >= '2025-01-01' && r.role_since <= '2026-06-30',
    ],
    ['industries by slug', { industries: [industry] }, (r) => list(r.company_industries).includes(industry)],
    [
      'company_size labels',
      { company_size: ['51-200 employees', '201-500 employees'] },
      (r) => ['51-200', '201-500'].includes(r.company_size),
    ],
    [
      'company_size_min/max bands',
      { company_size_min: 100, company_size_max: 300 },
      (r) => ['51-200', '201-500'].includes(r.company_size),
    ],
    ['employees_max 9 keeps the 1-10 band', { employees_max: 9 }, (r) => r.company_size === '1-10'],
    [
      'employees band overlap',
      { employees_min: 40, employees_max: 60 },
      (r) => ['11-50', '51-200'].includes(r.company_size),
    ],
    ['revenue labels', { revenue: ['$10M to <$50M', '$1B+'] }, (r) => ['10M-50M', '1B+'].includes(r.company_revenue)],
    ['headquarters_countries', { headquarters_countries: ['United States'] }, (r) => r.company_hq_country === 'us'],
    ['company_description', { company_description: desc }, (r) => sub(r.company_description, desc)],
    ['entity_types', { entity_types: ['Privately Held'] }, (r) => r.company_entity_type === 'private'],
    ['technologies', { technologies: [tech] }, (r) => list(r.company_technologies).includes(tech)],
    ['has_mobile_app false', { has_mobile_app: false }, (r) => r.company_has_mobile_app === false],
    ['has_web_app true', { has_web_app: true }, (r) => r.company_has_web_app === true],
    [
      'naics_codes prefix',
      { naics_codes: [naics.slice(0, 3)] },
      (r) => list(r.company_naics_codes).some((c) => c.startsWith(naics.slice(0, 3))),
    ],
    [
      'naics_descriptions',
      { naics_descriptions: [naicsDesc.slice(2, 9)] },
      (r) => anySub(r.company_naics_descriptions, naicsDesc.slice(2, 9)),
    ],
    [
      'sic_descriptions',
      { sic_descriptions: [sicDesc.slice(0, 6)] },
      (r) => anySub(r.company_sic_descriptions, sicDesc.slice(0, 6)),
    ],
    [
      'uk_industry_descriptions',
      { uk_industry_descriptions: [ukDesc.slice(0, 6)] },
      (r) => anySub(r.company_uk_industry_descriptions, ukDesc.slice(0, 6)),
    ],
    [
      'startup_db_categories',
      { startup_db_categories: [startup.slice(0, 5)] },
      (r) => anySub(r.company_startup_categories, startup.slice(0, 5)),
    ],
    ['sic_codes exact', { sic_codes: [sic] }, (r) => list(r.company_sic_codes).includes(sic)],
    ['uk_industry_codes exact', { uk_industry_codes: [uk] }, (r) => list(r.company_uk_industry_codes).includes(uk)],
    [
      'revenue_min/max',
      { revenue_min: 1e6, revenue_max: 5e7 },
      (r) => r.company_revenue_usd !== null && r.company_revenue_usd >= 1e6 && r.company_revenue_usd <= 5e7,
    ],
    ['followers_min', { followers_min: 1000 }, (r) => r.company_followers !== null && r.company_followers >= 1000],
    [
      'founded_year_max',
      { founded_year_max: 2010 },
      (r) => r.company_founded_year !== null && r.company_founded_year <= 2010,
    ],
    [
      'total_funding_min',
      { total_funding_min: 5e6 },
      (r) => r.company_total_funding_usd !== null && r.company_total_funding_usd >= 5e6,
    ],
    [
      'monthly_traffic_max',
      { monthly_traffic_max: 50000 },
      (r) => r.company_monthly_traffic !== null && r.company_monthly_traffic <= 50000,
    ],
    [
      'employee_growth_rate_min',
      { employee_growth_rate_min: 10 },
      (r) => r.company_employee_growth_pct !== null && r.company_employee_growth_pct >= 10,
    ],
    [
      'monthly_search_adspend_min',
      { monthly_search_adspend_min: 1000 },
      (r) => r.company_monthly_search_adspend !== null && r.company_monthly_search_adspend >= 1000,
    ],
    [
      'employee_profiles_on_network_max',
      { employee_profiles_on_network_max: 100 },
      (r) => r.company_employee_profiles !== null && r.company_employee_profiles <= 100,
    ],
    [
      'valid_email_count_min',
      { valid_email_count_min: 50 },
      (r) => r.company_valid_email_count !== null && r.company_valid_email_count >= 50,
    ],
    [
      'specialties keywords OR',
      { specialties: `${spec.slice(0, 6)}, zzzz-nothing` },
      (r) => anySub(r.company_specialties, spec.slice(0, 6)),
    ],
    [
      'company_headline keywords',
      { company_headline: 'platform, cloud' },
      (r) => sub(r.company_headline, 'platform') || sub(r.company_headline, 'cloud'),
    ],
    ['countries', { countries: ['US', 'Germany'] }, (r) => ['us', 'de'].includes(r.country)],
    ['exclude_countries keeps empty', { exclude_countries: ['us'] }, (r) => r.country !== 'us'],
    ['regions', { regions: ['EMEA'] }, (r) => has(r.country) && COUNTRY_REGION[r.country] === 'EMEA'],
    [
      'continents',
      { continents: ['Asia', 'Oceania'] },
      (r) => has(r.country) && ['Asia', 'Oceania'].includes(COUNTRY_CONTINENT[r.country]!),
    ],
    ['cities', { cities: [String(s.city).slice(0, 4)] }, (r) => sub(r.city, String(s.city).slice(0, 4))],
    ['states', { states: [String(s.state).slice(0, 4)] }, (r) => sub(r.state, String(s.state).slice(0, 4))],
    ['job_location_country', { job_location_country: ['gb'] }, (r) => r.job_location_country === 'gb'],
    [
      'job_location_state',
      { job_location_state: [String(jl.job_location_state ?? 'a').slice(0, 3)] },
      (r) => sub(r.job_location_state, String(jl.job_location_state ?? 'a').slice(0, 3)),
    ],
    [
      'job_location_city',
      { job_location_city: [String(jl.job_location_city).slice(0, 4)] },
      (r) => sub(r.job_location_city, String(jl.job_location_city).slice(0, 4)),
    ],
    ['office_countries', { office_countries: ['de'] }, (r) => list(r.company_office_countries).includes('de')],
    [
      'office_states',
      { office_states: [officeState.slice(0, 4)] },
      (r) => anySub(r.company_office_states, officeState.slice(0, 4)),
    ],
    [
      'office_cities',
      { office_cities: [office.slice(0, 4)] },
      (r) => anySub(r.company_office_cities, office.slice(0, 4)),
    ],
    [
      'first_name',
      { first_name: String(s.first_name).slice(0, 3) },
      (r) => sub(r.first_name, String(s.first_name).slice(0, 3)),
    ],
    [
      'last_name',
      { last_name: String(s.last_name).slice(0, 3) },
      (r) => sub(r.last_name, String(s.last_name).slice(0, 3)),
    ],
    [
      'email_address exact, any case',
      { email_address: String(s.work_email).toUpperCase() },
      (r) => r.work_email === s.work_email,
    ],
    [
      'network_url substring',
      { network_url: String(s.network).slice(-8) },
      (r) => sub(r.network, String(s.network).slice(-8)),
    ],
    ['person_description', { person_description: personDesc }, (r) => sub(r.person_description, personDesc)],
    ['skills keyword', { skills: skill.slice(0, 4) }, (r) => anySub(r.skills, skill.slice(0, 4))],
    ['education', { education: eduWord }, (r) => sub(JSON.stringify(r.education ?? ''), eduWord)],
    ['languages', { languages: lang.slice(0, 4) }, (r) => anySub(r.languages, lang.slice(0, 4))],
    ['certifications', { certifications: certWord }, (r) => sub(JSON.stringify(r.certifications ?? ''), certWord)],
    ['network_headline keywords', { network_headline: `${headline}, zzzz-nothing` }, (r) => sub(r.headline, headline)],
    ['job_description keywords', { job_description: jobDesc }, (r) => sub(r.job_description, jobDesc)],
    ['email_status', { email_status: ['VALID', 'CATCH_ALL'] }, (r) => ['valid', 'catch_all'].includes(r.email_status)],
    ['require_email', { require_email: true }, (r) => has(r.work_email)],
    ['require_phone', { require_phone: true }, (r) => has(r.mobile_phone) || has(r.direct_phone)],
    ['require_phone false adds nothing', { require_phone: false }, () => true],
    ['exclude_domains', { exclude_domains: [s.company_domain] }, (r) => r.company_domain !== s.company_domain],
    [
      'exclude_headquarters_countries',
      { exclude_headquarters_countries: ['us'] },
      (r) => r.company_hq_country !== 'us',
    ],
    ['exclude_industries', { exclude_industries: [industry] }, (r) => !list(r.company_industries).includes(industry)],
    [
      'exclude_job_titles',
      { exclude_job_titles: ['manager', 'director'] },
      (r) => !wordsMatch(r.title, 'manager') && !wordsMatch(r.title, 'director'),
    ],
    [
      'nested filters object',
      { filters: { countries: ['us'], seniority: ['Director'] } },
      (r) => r.country === 'us' && r.seniority === 'director',
    ],
    [
      'where_sql',
      { where_sql: "country = 'us' AND company_employee_count >= 100 AND title ILIKE '%engineer%'" },
      (r) =>
        r.country === 'us' &&
        r.company_employee_count !== null &&
        r.company_employee_count >= 100 &&
        sub(r.title, 'engineer'),
    ],
    [
      'where_sql with filters',
      { countries: ['gb'], where_sql: 'company_founded_year BETWEEN 1990 AND 2010' },
      (r) =>
        r.country === 'gb' &&
        r.company_founded_year !== null &&
        r.company_founded_year >= 1990 &&
        r.company_founded_year <= 2010,
    ],
  ];
}

describe('family B filters against an independent computation', () => {
  it('POST /api/v1/contacts/search/count counts what the plain predicate finds, for every parameter', async () => {
    const failures: string[] = [];
    for (const [name, body, pred] of cases()) {
      const res = await app.request('POST', '/api/v1/contacts/search/count', { key, keyHeader: 'x-api-key', body });
      const want = rows.filter(pred).length;
      if (res.status !== 200 || res.body.count !== want)
        failures.push(`${name}: got ${res.status} ${JSON.stringify(res.body.count ?? res.body.error)} want ${want}`);
    }
    expect(failures).toEqual([]);
  });

  it('cases are not vacuous: most select some rows and not all', () => {
    const sizes = cases().map(([, , p]) => rows.filter(p).length);
    expect(sizes.filter((n) => n > 0 && n < rows.length).length).toBeGreaterThan(sizes.length * 0.8);
  });
});

describe('POST /api/v1/contacts/search', () => {
  it('returns the matching rows in order in `contacts` with offset paging and credits', async () => {
    const { apiKey } = await app.createAccount('pro');
    const want = rows.filter((r) => r.country === 'us').map((r) => r.id);
    const got: string[] = [];
    let offset = 0;
    for (;;) {
      const res = await app.request('POST', '/api/v1/contacts/search', {
        key: apiKey,
        keyHeader: 'x-api-key',
        body: { countries: ['us'], limit: 250, offset },
      });
      expect(res.status).toBe(200);
      got.push(...res.body.contacts.map((c: Row) => c.id));
      if (!res.body.has_more) {
        expect(res.body.next_offset).toBeNull();
        expect(res.body.total_available).toBe(want.length);
        expect(res.body.total_available_is_minimum).toBe(false);
        break;
      }
      expect(res.body.total_available_is_minimum).toBe(true);
      offset = res.body.next_offset;
    }
    expect(got).toEqual(want);
    const acct = await app.request('GET', '/v1/account', { key: apiKey });
    expect(acct.body.quota.today_remaining).toBe(10_000 - want.length);
  });

  it('limit defaults to 1000; above 5,000 it is clamped and echoed', async () => {
    const d = await app.request('POST', '/api/v1/contacts/search', { key, keyHeader: 'x-api-key', body: {} });
    expect(d.body.limit).toBe(1000);
    expect(d.body.contacts).toHaveLength(1000);
    const c = await app.request('POST', '/api/v1/contacts/search', {
      key,
      keyHeader: 'x-api-key',
      body: { limit: 9000 },
    });
    expect(c.body.limit).toBe(5000);
    expect(c.body.contacts).toHaveLength(3000);
  });

  it('columns by display label or name; default set plus filtered columns', async () => {
    const res = await app.request('POST', '/api/v1/contacts/search', {
      key,
      keyHeader: 'x-api-key',
      body: { columns: ['Job Title', 'country'], limit: 1 },
    });
    expect(Object.keys(res.body.contacts[0])).toEqual(['id', 'title', 'country']);
    const dflt = await app.request('POST', '/api/v1/contacts/search', {
      key,
      keyHeader: 'x-api-key',
      body: { technologies: [first(withField('company_technologies')).company_technologies[0]], limit: 1 },
    });
    expect(Object.keys(dflt.body.contacts[0])).toContain('company_technologies');
  });

  it('max_per_company caps rows per company domain', async () => {
    const res = await app.request('POST', '/api/v1/contacts/search', {
      key,
      keyHeader: 'x-api-key',
      body: { require_email: true, limit: 500, max_per_company: 1, columns: ['company_domain'] },
    });
    const d = res.body.contacts.map((r: Row) => r.company_domain).filter(Boolean);
    expect(new Set(d).size).toBe(d.length);
  });

  it('an offset at or beyond 50,000 answers 400 pointing to count and export', async () => {
    const res = await app.request('POST', '/api/v1/contacts/search', {
      key,
      keyHeader: 'x-api-key',
      body: { offset: 50_000 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.hint).toMatch(/count/);
    expect(res.body.error.hint).toMatch(/export/);
  });

  it.each([
    [{ colour: 'red' }, 'filter.unknown_key'],
    [{ seniority: ['Boss'] }, 'filter.unknown_value'],
    [{ email_status: ['verified'] }, 'filter.unknown_value'],
    [{ company_network_urls: ['https://www.network.com/in/jane'] }, 'request.invalid'],
    [{ where_sql: 'x'.repeat(4001) }, 'request.invalid'],
    [{ where_sql: "title = 'system'" }, 'request.invalid'],
    [{ where_sql: '1=1; DROP TABLE contacts' }, 'request.invalid'],
    [{ where_sql: 'id IN (SELECT id FROM contacts)' }, 'request.invalid'],
    [{ where_sql: 'nope = 1' }, 'request.invalid'],
    [{ countries: 'us', filters: { countries: ['gb'] } }, 'request.invalid'],
  ])('%j answers 400 %s', async (body, code) => {
    const res = await app.request('POST', '/api/v1/contacts/search', { key, keyHeader: 'x-api-key', body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
  });
});

describe('family A and family B agree', () => {
  const pairs: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
    ['us vps', { countries: ['us'], seniority: ['vp'] }, { countries: ['us'], seniority: ['VP'] }],
    [
      'sales in gb',
      { countries: ['gb'], functions: ['sales_and_bizdev'] },
      { countries: ['gb'], job_functions: ['Sales & Business Development'] },
    ],
    ['mid-size', { company_size: ['51-200', '201-500'] }, { company_size: ['51-200 employees', '201-500 employees'] }],
    ['revenue', { company_revenue: ['10M-50M'] }, { revenue: ['$10M to <$50M'] }],
    ['hq', { company_hq_countries: ['de'] }, { headquarters_countries: ['Germany'] }],
    ['with email', { has_work_email: true }, { require_email: true }],
    ['with phone', { has_phone: true }, { require_phone: true }],
    ['funding', { total_funding_min: 1_000_000 }, { total_funding_min: 1_000_000 }],
    ['founded', { founded_year_min: 2000, founded_year_max: 2015 }, { founded_year_min: 2000, founded_year_max: 2015 }],
    [
      'directors not in us',
      { seniority: ['director'], exclude_countries: ['us'] },
      { seniority: ['Director'], exclude_countries: ['us'] },
    ],
    ['title phrase', { title_query: 'software engineer' }, { job_titles: ['software engineer'] }],
    [
      'exclude industries',
      { exclude_industries: ['software_development'] },
      { exclude_industries: ['software_development'] },
    ],
  ];
  it.each(pairs)('%s', async (_n, filter, bBody) => {
    const a = await app.request('POST', '/v1/contacts/count', { key, body: { filter } });
    const b = await app.request('POST', '/api/v1/contacts/search/count', { key, keyHeader: 'x-api-key', body: bBody });
    expect(a.status).toBe(200);
    expect(b.body.count).toBe(a.body.data.count);
    expect(a.body.data.count).toBeGreaterThan(0);
  });
});

describe('filter-values, contacts health, fair use', () => {
  it('lists values of a list filter, none for free text, 400 for an unknown filter', async () => {
    const sen = await app.request('GET', '/api/v1/contacts/filter-values?filter=seniority', {
      key,
      keyHeader: 'x-api-key',
    });
    expect(sen.body.values).toEqual(['C-Team', 'VP', 'Director', 'Manager', 'Staff', 'Other']);
    const tech = await app.request('GET', '/api/v1/contacts/filter-values?filter=technologies&limit=5', {
      key,
      keyHeader: 'x-api-key',
    });
    expect(tech.body.values.length).toBe(5);
    const free = await app.request('GET', '/api/v1/contacts/filter-values?filter=first_name', {
      key,
      keyHeader: 'x-api-key',
    });
    expect(free.body).toMatchObject({ values: [], free_text: true });
    const bad = await app.request('GET', '/api/v1/contacts/filter-values?filter=nope', { key, keyHeader: 'x-api-key' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.hint).toMatch(/seniority/);
  });

  it('contacts health reports the approximate record count', async () => {
    const res = await app.request('GET', '/api/v1/contacts/health', { key, keyHeader: 'x-api-key' });
    expect(res.body).toMatchObject({ ok: true, status: 'ok', approximate_records: rows.length });
  });

  it('fair use on an unlimited plan: used, remaining, caps and the next 00:00 UTC', async () => {
    const { accountId, apiKey } = await app.createAccount('unlimited');
    const h = await app.services.state.reserve({
      accountId,
      kind: 'contact',
      category: 'export',
      amount: 120,
      mode: 'exact',
      now: app.clock.now(),
    });
    await app.services.state.commit(h.id, 120, app.clock.now());
    const res = await app.request('GET', '/api/v1/usage/fair-use', { key: apiKey, keyHeader: 'x-api-key' });
    expect(res.body.unlimited).toBe(true);
    expect(res.body.resets_at).toBe('2026-11-11T00:00:00.000Z');
    expect(JSON.stringify(res.body.fair_use.export)).toContain('"used":120');
    const paid = await app.request('GET', '/api/v1/usage/fair-use', {
      key: (await app.createAccount('pro')).apiKey,
      keyHeader: 'x-api-key',
    });
    expect(paid.body.unlimited).toBe(false);
  });
});
