import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { FAMILY_B_PARAMS, findColumn, SIZE_BANDS } from '../../src/domain/catalog/index.js';
import { COUNTRY_CONTINENT, COUNTRY_REGION } from '../../src/domain/catalog/lists/geo.js';
import { overlappingBands, parseFamilyBFilters } from '../../src/domain/family-b/index.js';
import type { IRNode } from '../../src/domain/query/index.js';
import { compileWhere } from '../../src/engine/duckdb/compile/compile-where.js';
import { Params } from '../../src/engine/duckdb/compile/params.js';
import { createTableSql } from '../../src/engine/duckdb/schema.js';
import { caught } from '../helpers/caught.js';
import { contractFixture } from '../helpers/paths.js';

const HOST = 'network.example';
const LISTS: Record<string, string[]> = {
  dl_1: ['Acme.com', 'https://www.globex.com/about', 'not a domain', 'acme.com'],
  dl_empty: [],
};
const opts = { networkHost: HOST, domainLists: (id: string) => LISTS[id] };

const parse = (body: Record<string, unknown>) => parseFamilyBFilters(body, opts);
const ir = (body: Record<string, unknown>): IRNode => parse(body).ir;

/** The family B filter parameters of the contract's body-parameter table (test/fixtures/contract). */
function specFilterNames(): string[] {
  return [...contractFixture<{ filters: string[] }>('family-b-filters.json').filters].sort();
}

const countriesWhere = (map: Readonly<Record<string, string>>, name: string) =>
  Object.keys(map)
    .filter((c) => map[c] === name)
    .sort();

// [parameter, raw value, expected IR]
const cases: Array<[string, unknown, IRNode]> = [
  [
    'domains',
    ['https://www.Acme.com/about', 'globex.com', 'acme.com'],
    { field: 'company_domain', op: 'in', value: ['acme.com', 'globex.com'] },
  ],
  ['domains', 'acme.com', { field: 'company_domain', op: 'in', value: ['acme.com'] }],
  ['company_name', ' Acme ', { field: 'company', op: 'contains', value: 'Acme' }],
  ['email_domain', 'acme.com, @Globex.com,,', { field: 'email_domain', op: 'in', value: ['acme.com', 'globex.com'] }],
  ['domain_list_id', 'dl_1', { field: 'company_domain', op: 'in', value: ['acme.com', 'globex.com'] }],
  ['domain_list_id', 'dl_empty', { or: [] }],
  [
    'company_network_urls',
    [`https://www.${HOST}/company/acme/`, `${HOST}/company/Globex?trk=x`],
    { field: 'company_network_slug', op: 'in', value: ['acme', 'globex'] },
  ],
  [
    'job_titles',
    ['VP', '  Head   of Sales '],
    {
      or: [
        { field: 'title', op: 'words', value: 'VP' },
        { field: 'title', op: 'words', value: 'Head of Sales' },
      ],
    },
  ],
  ['job_titles', 'Vice President', { field: 'title', op: 'words', value: 'Vice President' }],
  ['seniority', ['C-Team'], { field: 'seniority', op: 'in', value: ['c_level', 'founder_or_partner'] }],
  [
    'seniority',
    ['c-suite', 'C-Level', 'Executive'],
    { field: 'seniority', op: 'in', value: ['c_level', 'founder_or_partner'] },
  ],
  ['seniority', ['Vice President', 'SVP', 'EVP', 'vp'], { field: 'seniority', op: 'in', value: ['vp'] }],
  ['seniority', ['Director', 'Manager'], { field: 'seniority', op: 'in', value: ['director', 'manager'] }],
  ['seniority', ['Staff', 'Other'], { field: 'seniority', op: 'in', value: ['senior_ic', 'entry', 'unknown'] }],
  ['seniority', ['founder_or_partner'], { field: 'seniority', op: 'in', value: ['founder_or_partner'] }],
  [
    'job_functions',
    ['Sales & Business Development', 'engineering', 'Information Technology'],
    { field: 'function', op: 'in', value: ['sales_and_bizdev', 'engineering', 'information_technology'] },
  ],
  ['job_functions', 'human_resources', { field: 'function', op: 'in', value: ['human_resources'] }],
  ['personas', ['Economic Buyer'], { field: 'personas', op: 'in', value: ['Economic Buyer'] }],
  ['job_start_date_min', '2024-01-31', { field: 'role_since', op: 'gte', value: '2024-01-31' }],
  ['job_start_date_max', ' 2024-12-31 ', { field: 'role_since', op: 'lte', value: '2024-12-31' }],
  [
    'industries',
    ['Software Development', 'financial_services'],
    { field: 'company_industries', op: 'in', value: ['software_development', 'financial_services'] },
  ],
  [
    'company_size',
    ['11-50 employees', '1-10', '1,001-5,000 employees'],
    { field: 'company_size', op: 'in', value: ['11-50', '1-10', '1K-5K'] },
  ],
  ['company_size_min', 5000, { field: 'company_size', op: 'in', value: ['1K-5K', '5K-10K', '10K+'] }],
  ['company_size_max', 50, { field: 'company_size', op: 'in', value: ['1-10', '11-50'] }],
  ['revenue', ['<$1M', '$1B+', '10M-50M'], { field: 'company_revenue', op: 'in', value: ['0-1M', '1B+', '10M-50M'] }],
  [
    'headquarters_countries',
    ['USA', 'Germany', 'gb'],
    { field: 'company_hq_country', op: 'in', value: ['us', 'de', 'gb'] },
  ],
  ['company_description', 'cloud security', { field: 'company_description', op: 'contains', value: 'cloud security' }],
  [
    'entity_types',
    ['Privately Held', 'public', 'non-profit'],
    { field: 'company_entity_type', op: 'in', value: ['private', 'public', 'non_profit'] },
  ],
  [
    'technologies',
    ['Salesforce', 'HubSpot'],
    { field: 'company_technologies', op: 'in', value: ['Salesforce', 'HubSpot'] },
  ],
  ['has_mobile_app', true, { field: 'company_has_mobile_app', op: 'eq', value: true }],
  ['has_mobile_app', false, { field: 'company_has_mobile_app', op: 'eq', value: false }],
  ['has_web_app', true, { field: 'company_has_web_app', op: 'eq', value: true }],
  [
    'naics_codes',
    ['5112', ' 54 '],
    {
      or: [
        { field: 'company_naics_codes', op: 'prefix', value: '5112' },
        { field: 'company_naics_codes', op: 'prefix', value: '54' },
      ],
    },
  ],
  ['naics_descriptions', ['software'], { field: 'company_naics_descriptions', op: 'contains', value: 'software' }],
  [
    'sic_descriptions',
    ['prepackaged', 'computer'],
    {
      or: [
        { field: 'company_sic_descriptions', op: 'contains', value: 'prepackaged' },
        { field: 'company_sic_descriptions', op: 'contains', value: 'computer' },
      ],
    },
  ],
  [
    'uk_industry_descriptions',
    ['publishing'],
    { field: 'company_uk_industry_descriptions', op: 'contains', value: 'publishing' },
  ],
  ['startup_db_categories', ['fintech'], { field: 'company_startup_categories', op: 'contains', value: 'fintech' }],
  ['sic_codes', ['7372', '7373'], { field: 'company_sic_codes', op: 'in', value: ['7372', '7373'] }],
  ['uk_industry_codes', ['62012'], { field: 'company_uk_industry_codes', op: 'in', value: ['62012'] }],
  ['employees_min', 10001, { field: 'company_size', op: 'in', value: ['10K+'] }],
  ['employees_max', 9, { field: 'company_size', op: 'in', value: ['1-10'] }],
  ['revenue_min', 1_000_000, { field: 'company_revenue_usd', op: 'gte', value: 1_000_000 }],
  ['revenue_max', 5e7, { field: 'company_revenue_usd', op: 'lte', value: 50_000_000 }],
  ['followers_min', 100, { field: 'company_followers', op: 'gte', value: 100 }],
  ['followers_max', 1000, { field: 'company_followers', op: 'lte', value: 1000 }],
  ['founded_year_min', 1990, { field: 'company_founded_year', op: 'gte', value: 1990 }],
  ['founded_year_max', 2020, { field: 'company_founded_year', op: 'lte', value: 2020 }],
  ['total_funding_min', 0, { field: 'company_total_funding_usd', op: 'gte', value: 0 }],
  ['total_funding_max', 2e6, { field: 'company_total_funding_usd', op: 'lte', value: 2_000_000 }],
  ['monthly_traffic_min', 10000, { field: 'company_monthly_traffic', op: 'gte', value: 10000 }],
  ['monthly_traffic_max', 90000, { field: 'company_monthly_traffic', op: 'lte', value: 90000 }],
  ['employee_growth_rate_min', -5.5, { field: 'company_employee_growth_pct', op: 'gte', value: -5.5 }],
  ['employee_growth_rate_max', 12.5, { field: 'company_employee_growth_pct', op: 'lte', value: 12.5 }],
  ['monthly_search_adspend_min', 500, { field: 'company_monthly_search_adspend', op: 'gte', value: 500 }],
  ['monthly_search_adspend_max', 5000, { field: 'company_monthly_search_adspend', op: 'lte', value: 5000 }],
  ['employee_profiles_on_network_min', 20, { field: 'company_employee_profiles', op: 'gte', value: 20 }],
  ['employee_profiles_on_network_max', 200, { field: 'company_employee_profiles', op: 'lte', value: 200 }],
  ['valid_email_count_min', 1, { field: 'company_valid_email_count', op: 'gte', value: 1 }],
  ['valid_email_count_max', 99, { field: 'company_valid_email_count', op: 'lte', value: 99 }],
  [
    'specialties',
    'SaaS, machine learning ,',
    {
      or: [
        { field: 'company_specialties', op: 'contains', value: 'SaaS' },
        { field: 'company_specialties', op: 'contains', value: 'machine learning' },
      ],
    },
  ],
  ['company_headline', 'payments', { field: 'company_headline', op: 'contains', value: 'payments' }],
  ['countries', ['United States', 'US', 'deu'], { field: 'country', op: 'in', value: ['us', 'de'] }],
  ['exclude_countries', ['France'], { not: { field: 'country', op: 'in', value: ['fr'] } }],
  ['regions', ['NORAM'], { field: 'country', op: 'in', value: countriesWhere(COUNTRY_REGION, 'NORAM') }],
  [
    'regions',
    ['emea', 'APAC'],
    {
      field: 'country',
      op: 'in',
      value: [...countriesWhere(COUNTRY_REGION, 'EMEA'), ...countriesWhere(COUNTRY_REGION, 'APAC')],
    },
  ],
  [
    'continents',
    ['South America'],
    { field: 'country', op: 'in', value: countriesWhere(COUNTRY_CONTINENT, 'South America') },
  ],
  ['continents', ['antarctica'], { field: 'country', op: 'in', value: ['aq'] }],
  [
    'cities',
    ['New York', 'san fran*'],
    {
      or: [
        { field: 'city', op: 'contains', value: 'New York' },
        { field: 'city', op: 'contains', value: 'san fran' },
      ],
    },
  ],
  ['states', 'California', { field: 'state', op: 'contains', value: 'California' }],
  ['job_location_country', ['UK'], { field: 'job_location_country', op: 'in', value: ['gb'] }],
  ['job_location_state', ['Bavaria'], { field: 'job_location_state', op: 'contains', value: 'Bavaria' }],
  ['job_location_city', ['Munich'], { field: 'job_location_city', op: 'contains', value: 'Munich' }],
  ['office_countries', ['Japan'], { field: 'company_office_countries', op: 'in', value: ['jp'] }],
  ['office_states', ['Texas'], { field: 'company_office_states', op: 'contains', value: 'Texas' }],
  ['office_cities', ['Austin'], { field: 'company_office_cities', op: 'contains', value: 'Austin' }],
  ['first_name', 'Jo', { field: 'first_name', op: 'contains', value: 'Jo' }],
  ['last_name', 'Smith', { field: 'last_name', op: 'contains', value: 'Smith' }],
  ['email_address', ' Jane.Doe@Acme.COM ', { field: 'work_email', op: 'eq', value: 'jane.doe@acme.com' }],
  ['network_url', '/in/jane-doe', { field: 'network', op: 'contains', value: '/in/jane-doe' }],
  ['person_description', 'growth marketer', { field: 'person_description', op: 'contains', value: 'growth marketer' }],
  ['skills', 'python', { field: 'skills', op: 'contains', value: 'python' }],
  ['education', 'Stanford', { field: 'education', op: 'contains', value: 'Stanford' }],
  ['languages', 'German', { field: 'languages', op: 'contains', value: 'German' }],
  ['certifications', 'CPA', { field: 'certifications', op: 'contains', value: 'CPA' }],
  [
    'network_headline',
    'founder, ceo',
    {
      or: [
        { field: 'headline', op: 'contains', value: 'founder' },
        { field: 'headline', op: 'contains', value: 'ceo' },
      ],
    },
  ],
  ['job_description', 'quota', { field: 'job_description', op: 'contains', value: 'quota' }],
  [
    'email_status',
    ['VALID', 'catch_all', 'Catch-All', 'INVALID'],
    { field: 'email_status', op: 'in', value: ['valid', 'catch_all', 'invalid'] },
  ],
  ['require_email', true, { field: 'has_work_email', op: 'eq', value: true }],
  ['require_email', false, { and: [] }],
  ['require_phone', true, { field: 'has_phone', op: 'eq', value: true }],
  ['require_phone', false, { and: [] }],
  ['exclude_domains', ['acme.com'], { not: { field: 'company_domain', op: 'in', value: ['acme.com'] } }],
  ['exclude_headquarters_countries', ['China'], { not: { field: 'company_hq_country', op: 'in', value: ['cn'] } }],
  [
    'exclude_industries',
    ['Staffing and Recruiting'],
    { not: { field: 'company_industries', op: 'in', value: ['staffing_and_recruiting'] } },
  ],
  [
    'exclude_job_titles',
    ['intern', 'assistant'],
    {
      not: {
        or: [
          { field: 'title', op: 'words', value: 'intern' },
          { field: 'title', op: 'words', value: 'assistant' },
        ],
      },
    },
  ],
];

describe('every family B parameter compiles to the Query IR', () => {
  it.each(cases)('%s: %j', (name, value, expected) => {
    expect(ir({ [name]: value })).toEqual(expected);
  });

  it('a negative zero bound is zero in the IR', () => {
    const leaf = ir({ revenue_max: -0 }) as { value: unknown };
    expect(Object.is(leaf.value, 0)).toBe(true);
  });

  it('covers every parameter of the catalog', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(FAMILY_B_PARAMS.map((p) => p.name)));
  });

  it('holds exactly the filter names of the spec table, once each, each reading a contact column', () => {
    expect(new Set(FAMILY_B_PARAMS.map((p) => p.name)).size).toBe(FAMILY_B_PARAMS.length);
    expect(FAMILY_B_PARAMS.map((p) => p.name).sort()).toEqual(specFilterNames());
    for (const p of FAMILY_B_PARAMS) expect(findColumn('contact', p.column, true)).toBeDefined();
  });
});

describe('band overlap (employees_*, company_size_*)', () => {
  it.each<[number | undefined, number | undefined, string[]]>([
    [undefined, 9, ['1-10']],
    [undefined, 10, ['1-10']],
    [undefined, 11, ['1-10', '11-50']],
    [40, 60, ['11-50', '51-200']],
    [50, 51, ['11-50', '51-200']],
    [10001, undefined, ['10K+']],
    [0, undefined, SIZE_BANDS.map((b) => b.slug)],
    [60, 40, []],
    [undefined, 0, []],
  ])('min %p max %p -> %j', (min, max, bands) => {
    expect(overlappingBands(min, max)).toEqual(bands);
  });

  it('compiles a min/max pair into one leaf and names both keys', () => {
    expect(parse({ employees_min: 40, employees_max: 60 })).toEqual({
      ir: { field: 'company_size', op: 'in', value: ['11-50', '51-200'] },
      keysApplied: ['employees_min', 'employees_max'],
    });
    expect(parse({ filters: { company_size_max: 60 }, company_size_min: 40 })).toEqual({
      ir: { field: 'company_size', op: 'in', value: ['11-50', '51-200'] },
      keysApplied: ['company_size_max', 'company_size_min'],
    });
  });

  it('an empty range matches nothing', () => {
    expect(ir({ employees_min: 60, employees_max: 40 })).toEqual({ or: [] });
  });

  it('employees and company_size pairs each give their own leaf', () => {
    expect(ir({ employees_max: 9, company_size_min: 10001 })).toEqual({
      and: [
        { field: 'company_size', op: 'in', value: ['1-10'] },
        { field: 'company_size', op: 'in', value: ['10K+'] },
      ],
    });
  });
});

describe('nested filters, top level, combination and keysApplied', () => {
  it('nested and top-level filters are merged and AND-combined, nested first', () => {
    const parsed = parse({ countries: ['us'], filters: { job_titles: ['CTO'] }, require_phone: true });
    expect(parsed).toEqual({
      ir: {
        and: [
          { field: 'title', op: 'words', value: 'CTO' },
          { field: 'country', op: 'in', value: ['us'] },
          { field: 'has_phone', op: 'eq', value: true },
        ],
      },
      keysApplied: ['job_titles', 'countries', 'require_phone'],
    });
  });

  it('nested only and top level only give the same IR', () => {
    const body = { seniority: ['VP'], industries: ['Software Development'], employees_max: 9 };
    expect(ir({ filters: body })).toEqual(ir(body));
  });

  it('ignores the non-filter members of the body', () => {
    expect(
      parse({
        limit: 10,
        offset: 20,
        max_per_company: 2,
        columns: ['title'],
        where_sql: 'x',
        format: 'csv',
        max_rows: 5,
        filters: null,
      }),
    ).toEqual({
      ir: { and: [] },
      keysApplied: [],
    });
  });

  it('null, an empty list, a blank string and require_* false are filters not sent', () => {
    expect(
      parse({
        countries: null,
        domains: [],
        company_name: '  ',
        job_titles: '',
        require_email: false,
        filters: { cities: [] },
      }),
    ).toEqual({
      ir: { and: [] },
      keysApplied: [],
    });
  });

  it('a name sent both nested and at the top level is refused', () => {
    const e = caught(() => parse({ filters: { countries: ['us'] }, countries: ['de'] }));
    expect(e.code).toBe('request.invalid');
    expect(e.field).toBe('countries');
    expect(e.message).toMatch(/both in filters and at the top level/);
  });

  it('null on one side is not a conflict', () => {
    expect(ir({ filters: { countries: null }, countries: ['de'] })).toEqual({
      field: 'country',
      op: 'in',
      value: ['de'],
    });
  });
});

describe('refusals', () => {
  // [body, code, field, message or hint fragment]
  const cases: Array<[string, Record<string, unknown>, string, string, RegExp]> = [
    ['unknown top-level name', { job_title: ['cto'] }, 'filter.unknown_key', 'job_title', /Did you mean job_titles\?/],
    [
      'unknown nested name',
      { filters: { contries: ['us'] } },
      'filter.unknown_key',
      'filters.contries',
      /Did you mean countries\?/,
    ],
    [
      'paging member inside filters',
      { filters: { limit: 5 } },
      'filter.unknown_key',
      'filters.limit',
      /top level of the body/,
    ],
    ['filters not an object', { filters: ['countries'] }, 'request.invalid', 'filters', /object/],
    ['list of the wrong type', { countries: 5 }, 'request.invalid', 'countries', /array of strings/],
    ['list element of the wrong type', { job_titles: ['cto', 7] }, 'request.invalid', 'job_titles[1]', /a string/],
    ['blank list element', { cities: ['Paris', ' '] }, 'request.invalid', 'cities[1]', /blank/],
    ['string given a list', { company_name: ['Acme'] }, 'request.invalid', 'company_name', /a string/],
    ['number given a string', { employees_min: '50' }, 'request.invalid', 'employees_min', /a number/],
    ['number given a string (hard cutoff)', { revenue_min: '1M' }, 'request.invalid', 'revenue_min', /a number/],
    ['boolean given a string', { require_phone: 'true' }, 'request.invalid', 'require_phone', /true or false/],
    ['bad date', { job_start_date_min: '2024-02-30' }, 'request.invalid', 'job_start_date_min', /YYYY-MM-DD/],
    ['date of the wrong type', { job_start_date_max: 2024 }, 'request.invalid', 'job_start_date_max', /YYYY-MM-DD/],
    ['not a domain', { domains: ['not a domain'] }, 'request.invalid', 'domains[0]', /not a domain/],
    ['not an email domain', { email_domain: 'acme.com, nope' }, 'request.invalid', 'email_domain', /not a domain/],
    ['not an email', { email_address: 'jane at acme' }, 'request.invalid', 'email_address', /not an email/],
    [
      'person profile as company URL',
      { company_network_urls: [`https://www.${HOST}/in/jane`] },
      'request.invalid',
      'company_network_urls[0]',
      /not a company profile URL/,
    ],
    [
      'URL of another site',
      { company_network_urls: ['https://other.example/company/acme'] },
      'request.invalid',
      'company_network_urls[0]',
      /not a profile URL/,
    ],
    [
      'unknown saved list',
      { domain_list_id: 'dl_nope' },
      'request.invalid',
      'domain_list_id',
      /not a saved domain list/,
    ],
    ['unknown country', { countries: ['Atlantis'] }, 'filter.unknown_value', 'countries[0]', /ISO-2/],
    [
      'unknown HQ country',
      { filters: { exclude_headquarters_countries: ['Narnia'] } },
      'filter.unknown_value',
      'filters.exclude_headquarters_countries[0]',
      /filter-values/,
    ],
    [
      'unknown office country',
      { office_countries: ['Mordor'] },
      'filter.unknown_value',
      'office_countries[0]',
      /ISO-2/,
    ],
    [
      'unknown job location country',
      { job_location_country: ['Oz'] },
      'filter.unknown_value',
      'job_location_country[0]',
      /ISO-2/,
    ],
    [
      'unknown seniority',
      { seniority: ['Boss'] },
      'filter.unknown_value',
      'seniority[0]',
      /C-Team, VP, Director, Manager, Staff, Other/,
    ],
    [
      'verified email status',
      { email_status: ['verified'] },
      'filter.unknown_value',
      'email_status[0]',
      /VALID, CATCH_ALL, INVALID/,
    ],
    [
      'UNKNOWN email status',
      { email_status: ['UNKNOWN'] },
      'filter.unknown_value',
      'email_status[0]',
      /VALID, CATCH_ALL, INVALID/,
    ],
    [
      'unknown department',
      { job_functions: ['Wizardry'] },
      'filter.unknown_value',
      'job_functions[0]',
      /Sales & Business Development/,
    ],
    ['unknown industry', { industries: ['Dragon Taming'] }, 'filter.unknown_value', 'industries[0]', /filter-values/],
    [
      'unknown excluded industry',
      { exclude_industries: ['Dragon Taming'] },
      'filter.unknown_value',
      'exclude_industries[0]',
      /filter-values/,
    ],
    ['unknown size band', { company_size: ['huge'] }, 'filter.unknown_value', 'company_size[0]', /11-50 employees/],
    ['unknown revenue', { revenue: ['lots'] }, 'filter.unknown_value', 'revenue[0]', /<\$1M/],
    [
      'unknown entity type',
      { entity_types: ['cooperative'] },
      'filter.unknown_value',
      'entity_types[0]',
      /Privately Held/,
    ],
    ['unknown region', { regions: ['MENA'] }, 'filter.unknown_value', 'regions[0]', /NORAM, EMEA, APAC, LATAM/],
    ['unknown continent', { continents: ['Atlantis'] }, 'filter.unknown_value', 'continents[0]', /North America/],
    [
      'too many domains',
      { domains: Array.from({ length: 1001 }, (_, i) => `d${i}.com`) },
      'filter.rejected',
      'domains',
      /at most 1000/,
    ],
    [
      'too many titles',
      { job_titles: Array.from({ length: 51 }, (_, i) => `t${i}`) },
      'filter.rejected',
      'job_titles',
      /at most 50/,
    ],
    [
      'too many keywords',
      { specialties: Array.from({ length: 51 }, (_, i) => `k${i}`).join(',') },
      'filter.rejected',
      'specialties',
      /at most 50/,
    ],
    ['wildcard in a title', { job_titles: ['manag*'] }, 'filter.rejected', 'job_titles[0]', /trailing wildcard/],
    ['only wildcards in a substring', { cities: ['%'] }, 'request.invalid', 'cities[0]', /no text besides wildcards/],
  ];

  it.each(cases)('%s', (_label, body, code, field, text) => {
    const e = caught(() => parse(body));
    expect(e.code).toBe(code);
    expect(e.field).toBe(field);
    expect(`${e.message} ${e.hint ?? ''}`).toMatch(text);
  });

  it('an unknown name lists the allowed names', () => {
    const e = caught(() => parse({ bogus_filter_name: 1 }));
    expect(e.details?.allowed).toEqual(FAMILY_B_PARAMS.map((p) => p.name));
    expect(e.hint).toContain('job_titles');
  });

  it('an unknown closed-list value carries the allowed values', () => {
    const e = caught(() => parse({ seniority: ['Boss'] }));
    expect(e.details?.allowed).toEqual(['C-Team', 'VP', 'Director', 'Manager', 'Staff', 'Other']);
  });

  it('without a saved-list lookup every domain_list_id is unknown', () => {
    const e = caught(() => parseFamilyBFilters({ domain_list_id: 'dl_1' }, { networkHost: HOST }));
    expect(e.code).toBe('request.invalid');
  });

  it('1,000 domains are accepted', () => {
    const node = ir({ domains: Array.from({ length: 1000 }, (_, i) => `d${i}.com`) });
    expect((node as { value: string[] }).value).toHaveLength(1000);
  });
});

describe('job_titles: whole-word tokens, no acronym expansion', () => {
  it('VP stays VP and Vice President stays Vice President', () => {
    expect(ir({ job_titles: ['VP'] })).toEqual({ field: 'title', op: 'words', value: 'VP' });
    expect(ir({ exclude_job_titles: 'Vice President' })).toEqual({
      not: { field: 'title', op: 'words', value: 'Vice President' },
    });
  });
});

describe('the IR of every parameter runs on the DuckDB engine', () => {
  let instance: DuckDBInstance;
  let conn: DuckDBConnection;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    conn = await instance.connect();
    await conn.run(createTableSql('contact', 'contacts'));
  });

  afterAll(() => {
    conn.closeSync();
    instance.closeSync();
  });

  it.each(cases)('%s', async (name, value) => {
    const params = new Params();
    const where = compileWhere('contact', ir({ [name]: value }), params);
    const rows = (
      await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM contacts WHERE ${where}`, params.values)
    ).getRowObjects();
    expect(rows).toEqual([{ n: 0 }]);
  });
});
