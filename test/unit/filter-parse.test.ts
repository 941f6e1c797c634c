import {
  COMPANY_FILTER_KEYS,
  CONTACT_FILTER_KEYS,
  type FilterKeyDef,
  listValues,
} from '../../src/domain/catalog/index.js';
import { type IRNode, parseCompanyFilter, parseContactFilter } from '../../src/domain/query/index.js';
import { caught } from '../helpers/caught.js';

const ir = (filter: unknown, exclude_ids?: unknown): IRNode => parseContactFilter({ filter, exclude_ids }).ir;

describe('flat contact keys compile to the Query IR', () => {
  // [key, raw value, expected IR]; aliases and labels fold exactly as the loader stores them.
  const cases: Array<[string, unknown, IRNode]> = [
    ['countries', ['USA'], { field: 'country', op: 'in', value: ['us'] }],
    ['countries', ['United States', 'us', 'US', 'Germany'], { field: 'country', op: 'in', value: ['us', 'de'] }],
    ['exclude_countries', ['uk'], { not: { field: 'country', op: 'in', value: ['gb'] } }],
    ['has_network', true, { field: 'network', op: 'exists', value: true }],
    ['has_network', false, { field: 'network', op: 'exists', value: false }],
    ['has_work_email', true, { field: 'work_email', op: 'exists', value: true }],
    ['has_phone', true, { field: 'has_phone', op: 'eq', value: true }],
    ['has_phone', false, { field: 'has_phone', op: 'eq', value: false }],
    ['include_secondary_roles', true, { and: [] }],
    ['title_query', '  Account   Executive ', { field: 'title', op: 'words', value: 'Account Executive' }],
    [
      'title_query',
      ['sales manager', 'CTO'],
      {
        or: [
          { field: 'title', op: 'words', value: 'sales manager' },
          { field: 'title', op: 'words', value: 'CTO' },
        ],
      },
    ],
    [
      'functions',
      ['Sales', 'engineering', 'Human Resources'],
      { field: 'function', op: 'in', value: ['sales_and_bizdev', 'engineering', 'human_resources'] },
    ],
    ['exclude_functions', ['IT'], { not: { field: 'function', op: 'in', value: ['information_technology'] } }],
    ['seniority', ['SVP', 'Vice President', 'C-Suite'], { field: 'seniority', op: 'in', value: ['vp', 'c_level'] }],
    ['exclude_seniority', ['entry level'], { not: { field: 'seniority', op: 'in', value: ['entry'] } }],
    [
      'domains',
      ['https://acme.com/about', 'Example.ORG'],
      { field: 'company_domain', op: 'in', value: ['acme.com', 'example.org'] },
    ],
    ['exclude_domains', ['acme.com'], { not: { field: 'company_domain', op: 'in', value: ['acme.com'] } }],
    ['company_names', ['The Acme Company, Inc.'], { field: 'company_name_norm', op: 'in', value: ['acme company'] }],
    ['exclude_company_names', ['Globex  GmbH'], { not: { field: 'company_name_norm', op: 'in', value: ['globex'] } }],
    [
      'company_size',
      ['501-1000', '10,001+ employees', '1-10'],
      { field: 'company_size', op: 'in', value: ['501-1K', '10K+', '1-10'] },
    ],
    ['company_revenue', ['$1B+', '0-1M'], { field: 'company_revenue', op: 'in', value: ['1B+', '0-1M'] }],
    [
      'industries',
      ['Software Development'],
      { field: 'company_industries', op: 'in', value: ['software_development'] },
    ],
    [
      'exclude_industries',
      ['financial_services'],
      { not: { field: 'company_industries', op: 'in', value: ['financial_services'] } },
    ],
    ['schools', ['  MIT '], { field: 'schools', op: 'in', value: ['MIT'] }],
    ['skills', ['Python', 'SQL '], { field: 'skills', op: 'in', value: ['python', 'sql'] }],
    ['employee_count_min', 10, { field: 'company_employee_count', op: 'gte', value: 10 }],
    ['employee_count_max', 500, { field: 'company_employee_count', op: 'lte', value: 500 }],
    ['founded_year_min', 1990, { field: 'company_founded_year', op: 'gte', value: 1990 }],
    ['founded_year_max', 2020, { field: 'company_founded_year', op: 'lte', value: 2020 }],
    ['company_hq_countries', ['Great Britain'], { field: 'company_hq_country', op: 'in', value: ['gb'] }],
    ['last_round_after', '2023-01', { field: 'company_last_round_date', op: 'gt', value: '2023-01' }],
    ['last_round_before', '2024-12', { field: 'company_last_round_date', op: 'lt', value: '2024-12' }],
    [
      'last_round_types',
      ['Series D', 'pre-seed'],
      { field: 'company_last_round_type', op: 'in', value: ['series_c_plus', 'pre_seed'] },
    ],
    ['total_funding_min', 1_000_000, { field: 'company_total_funding_usd', op: 'gte', value: 1_000_000 }],
    ['total_funding_max', 0, { field: 'company_total_funding_usd', op: 'lte', value: 0 }],
    ['company_ids', ['com_abc', ' com_def '], { field: 'company_id', op: 'in', value: ['com_abc', 'com_def'] }],
  ];

  it.each(cases)('%s: %j', (key, value, expected) => {
    expect(ir({ [key]: value })).toEqual(expected);
  });

  it('covers every contact filter key of the catalog', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(CONTACT_FILTER_KEYS.map((k) => k.key)));
  });
});

describe('include_secondary_roles', () => {
  const on = (filter: Record<string, unknown>) => ir({ include_secondary_roles: true, ...filter });

  it.each<[string, unknown, string, string, unknown]>([
    ['functions', ['Sales'], 'function', 'secondary_functions', ['sales_and_bizdev']],
    ['seniority', ['vp'], 'seniority', 'secondary_seniorities', ['vp']],
    ['domains', ['acme.com'], 'company_domain', 'secondary_domains', ['acme.com']],
    ['company_names', ['Acme Inc'], 'company_name_norm', 'secondary_company_names', ['acme']],
    ['company_ids', ['com_1'], 'company_id', 'secondary_company_ids', ['com_1']],
  ])('%s also matches the secondary roles', (key, value, main, secondary, values) => {
    expect(on({ [key]: value })).toEqual({
      or: [
        { field: main, op: 'in', value: values },
        { field: secondary, op: 'in', value: values },
      ],
    });
  });

  it('title_query ORs each phrase on the main and the secondary titles', () => {
    expect(on({ title_query: ['cto', 'head of data'] })).toEqual({
      or: [
        { field: 'title', op: 'words', value: 'cto' },
        { field: 'secondary_titles', op: 'words', value: 'cto' },
        { field: 'title', op: 'words', value: 'head of data' },
        { field: 'secondary_titles', op: 'words', value: 'head of data' },
      ],
    });
  });

  it('applies whatever its position among the keys', () => {
    expect(ir({ seniority: ['vp'], include_secondary_roles: true })).toEqual(on({ seniority: ['vp'] }));
  });

  it.each(['exclude_functions', 'exclude_seniority'])('leaves %s on the main role', (key) => {
    const raw = key === 'exclude_functions' ? ['legal'] : ['vp'];
    expect(on({ [key]: raw })).toEqual({
      not: { field: key === 'exclude_functions' ? 'function' : 'seniority', op: 'in', value: raw },
    });
  });

  it('does not touch keys without a secondary column', () => {
    expect(on({ countries: ['us'] })).toEqual({ field: 'country', op: 'in', value: ['us'] });
  });

  it('false changes nothing and is not an applied key', () => {
    const parsed = parseContactFilter({ filter: { include_secondary_roles: false, functions: ['legal'] } });
    expect(parsed).toEqual({ ir: { field: 'function', op: 'in', value: ['legal'] }, keysApplied: ['functions'] });
  });
});

describe('combination, keysApplied, empty and null', () => {
  it('ANDs flat keys, the where tree and exclude_ids, in request order', () => {
    const parsed = parseContactFilter({
      filter: { seniority: ['vp'], where: { field: 'signals', op: 'eq', value: 'founder' }, countries: ['us'] },
      exclude_ids: ['per_1', 'per_2', 'per_1'],
    });
    expect(parsed.ir).toEqual({
      and: [
        { field: 'seniority', op: 'in', value: ['vp'] },
        { field: 'signals', op: 'eq', value: 'founder' },
        { field: 'country', op: 'in', value: ['us'] },
        { field: 'id', op: 'not_in', value: ['per_1', 'per_2'] },
      ],
    });
    expect(parsed.keysApplied).toEqual(['seniority', 'where', 'countries', 'exclude_ids']);
  });

  it('a negative zero is zero in the IR (JSON has no -0, and the IR must survive its own serialization)', () => {
    const { ir } = parseContactFilter({
      filter: { total_funding_max: -0, where: { field: 'company_employee_count', op: 'gte', value: -0 } },
    });
    const values = (ir as { and: { value: unknown }[] }).and.map((l) => l.value);
    expect(values).toHaveLength(2);
    for (const v of values) expect(Object.is(v, 0)).toBe(true);
    expect(JSON.parse(JSON.stringify(ir))).toEqual(ir);
  });

  it('an empty filter matches everything', () => {
    expect(parseContactFilter({ filter: {} })).toEqual({ ir: { and: [] }, keysApplied: [] });
  });

  it('null values and empty lists are keys not sent', () => {
    const parsed = parseContactFilter({
      filter: { countries: null, domains: [], title_query: [], where: null, has_phone: null, skills: ['go'] },
      exclude_ids: [],
    });
    expect(parsed).toEqual({ ir: { field: 'skills', op: 'in', value: ['go'] }, keysApplied: ['skills'] });
    expect(parseContactFilter({ filter: {}, exclude_ids: null }).keysApplied).toEqual([]);
  });

  it('include_secondary_roles true is named among the applied keys', () => {
    expect(parseContactFilter({ filter: { include_secondary_roles: true } }).keysApplied).toEqual([
      'include_secondary_roles',
    ]);
  });
});

describe('errors name the field and give a hint', () => {
  // [case, body, code, field, text the hint must hold]
  const cases: Array<[string, Record<string, unknown>, string, string, RegExp]> = [
    ['filter missing', {}, 'request.invalid', 'filter', /\{\}/],
    ['filter null', { filter: null }, 'request.invalid', 'filter', /filter/],
    ['filter an array', { filter: [] }, 'request.invalid', 'filter', /filter/],
    ['filter a string', { filter: 'countries=us' }, 'request.invalid', 'filter', /filter/],
    ['list key given a string', { filter: { countries: 'us' } }, 'request.invalid', 'filter.countries', /list/],
    [
      'list element a number',
      { filter: { countries: ['us', 'de', 3] } },
      'request.invalid',
      'filter.countries[2]',
      /string/,
    ],
    ['blank list element', { filter: { skills: ['go', ' '] } }, 'request.invalid', 'filter.skills[1]', /empty/],
    [
      'unknown country',
      { filter: { countries: ['us', 'Narnia'] } },
      'filter.unknown_value',
      'filter.countries[1]',
      /\/v1\/contacts\/schema\/country\/values/,
    ],
    [
      'unknown hq country',
      { filter: { company_hq_countries: ['Atlantis'] } },
      'filter.unknown_value',
      'filter.company_hq_countries[0]',
      /\/v1\/contacts\/schema\/country\/values/,
    ],
    [
      'unknown industry',
      { filter: { industries: ['Basket Weaving'] } },
      'filter.unknown_value',
      'filter.industries[0]',
      /\/v1\/contacts\/schema\/industries\/values/,
    ],
    [
      'unknown seniority',
      { filter: { seniority: ['boss'] } },
      'filter.unknown_value',
      'filter.seniority[0]',
      /c_level, vp, director, manager, senior_ic, entry, founder_or_partner, unknown/,
    ],
    [
      'unknown function',
      { filter: { exclude_functions: ['astronaut'] } },
      'filter.unknown_value',
      'filter.exclude_functions[0]',
      /operations, general_management, .*research_and_science, other/,
    ],
    [
      'unknown company size',
      { filter: { company_size: ['huge'] } },
      'filter.unknown_value',
      'filter.company_size[0]',
      /1-10, 11-50, 51-200, 201-500, 501-1K, 1K-5K, 5K-10K, 10K\+/,
    ],
    [
      'unknown revenue',
      { filter: { company_revenue: ['lots'] } },
      'filter.unknown_value',
      'filter.company_revenue[0]',
      /0-1M, 1M-10M, 10M-50M, 50M-100M, 100M-1B, 1B\+/,
    ],
    [
      'unknown round type',
      { filter: { last_round_types: ['series z'] } },
      'filter.unknown_value',
      'filter.last_round_types[0]',
      /pre_seed, seed, series_a/,
    ],
    [
      'invalid domain',
      { filter: { domains: ['acme.com', 'not a domain!'] } },
      'request.invalid',
      'filter.domains[1]',
      /acme\.com/,
    ],
    [
      'name empty after normalization',
      { filter: { company_names: ['Acme', ', Inc.'] } },
      'request.invalid',
      'filter.company_names[1]',
      /name/,
    ],
    [
      'company id without com_',
      { filter: { company_ids: ['acme'] } },
      'request.invalid',
      'filter.company_ids[0]',
      /com_/,
    ],
    [
      'integer given a string',
      { filter: { employee_count_min: '10' } },
      'request.invalid',
      'filter.employee_count_min',
      /number/,
    ],
    [
      'integer given a fraction',
      { filter: { founded_year_max: 1999.5 } },
      'request.invalid',
      'filter.founded_year_max',
      /number/,
    ],
    [
      'month out of range',
      { filter: { last_round_after: '2023-13' } },
      'request.invalid',
      'filter.last_round_after',
      /2024-06/,
    ],
    [
      'month a number',
      { filter: { last_round_before: 202301 } },
      'request.invalid',
      'filter.last_round_before',
      /2024-06/,
    ],
    ['boolean given a string', { filter: { has_phone: 'yes' } }, 'request.invalid', 'filter.has_phone', /boolean/],
    ['boolean given a number', { filter: { has_network: 1 } }, 'request.invalid', 'filter.has_network', /boolean/],
    [
      'option given a string',
      { filter: { include_secondary_roles: 'true' } },
      'request.invalid',
      'filter.include_secondary_roles',
      /boolean/,
    ],
    ['blank title_query', { filter: { title_query: '   ' } }, 'request.invalid', 'filter.title_query', /phrase/],
    [
      'blank title_query phrase',
      { filter: { title_query: ['cto', ''] } },
      'request.invalid',
      'filter.title_query[1]',
      /phrase/,
    ],
    ['title_query a number', { filter: { title_query: 42 } }, 'request.invalid', 'filter.title_query', /phrase/],
    [
      'title_query element a number',
      { filter: { title_query: ['cto', 7] } },
      'request.invalid',
      'filter.title_query[1]',
      /string/,
    ],
    [
      'leading * in title_query',
      { filter: { title_query: '*manager' } },
      'filter.rejected',
      'filter.title_query',
      /contains/,
    ],
    [
      'trailing % in title_query',
      { filter: { title_query: ['cto', 'manag%'] } },
      'filter.rejected',
      'filter.title_query[1]',
      /contains/,
    ],
    [
      'unknown key',
      { filter: { colour: ['red'] } },
      'filter.unknown_key',
      'filter.colour',
      /Valid keys: countries, .*company_ids, where/,
    ],
    [
      'near-miss key',
      { filter: { seniorities: ['vp'] } },
      'filter.unknown_key',
      'filter.seniorities',
      /Did you mean seniority\?/,
    ],
    [
      'column name as key',
      { filter: { email_status: ['valid'] } },
      'filter.unknown_key',
      'filter.email_status',
      /where/,
    ],
    [
      'exclude_ids inside filter',
      { filter: { exclude_ids: ['per_1'] } },
      'filter.unknown_key',
      'filter.exclude_ids',
      /beside filter/,
    ],
    [
      'a company key on contacts',
      { filter: { hq_countries: ['us'] } },
      'filter.unknown_key',
      'filter.hq_countries',
      /Valid keys/,
    ],
    ['exclude_ids a string', { filter: {}, exclude_ids: 'per_1' }, 'request.invalid', 'exclude_ids', /per_/],
    [
      'exclude_ids element a number',
      { filter: {}, exclude_ids: ['per_1', 2] },
      'request.invalid',
      'exclude_ids[1]',
      /per_/,
    ],
    [
      'exclude_ids element not a person',
      { filter: {}, exclude_ids: ['com_1'] },
      'request.invalid',
      'exclude_ids[0]',
      /per_/,
    ],
  ];

  it.each(cases)('%s', (_name, body, code, field, hint) => {
    const err = caught(() => parseContactFilter(body));
    expect({ code: err.code, field: err.field }).toEqual({ code, field });
    expect(err.hint).toMatch(hint);
    expect(err.status).toBe(code === 'filter.rejected' ? 422 : 400);
  });

  it('a closed-list error carries the allowed slugs in details', () => {
    const err = caught(() => ir({ seniority: ['boss'] }));
    expect(err.details).toEqual({ allowed: listValues('seniority').map((v) => v.slug) });
  });

  it('keys named like Object.prototype members are unknown keys, not crashes', () => {
    for (const key of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const err = caught(() => parseContactFilter({ filter: JSON.parse(`{"${key}": 1}`) }));
      expect([err.code, err.field]).toEqual(['filter.unknown_key', `filter.${key}`]);
    }
  });

  it('a huge value is cut short in the message', () => {
    const err = caught(() => ir({ seniority: ['x'.repeat(100_000)] }));
    expect(err.message.length).toBeLessThan(200);
  });
});

/** A valid raw value number `i` of a list key, so a limit test fails only on the count. */
function sample(def: FilterKeyDef, i: number): string {
  switch (def.normalize) {
    case 'country':
      return 'us';
    case 'industry':
      return 'software_development';
    case 'domain':
      return `d${i}.com`;
    case 'company_name':
      return `Company ${i}`;
    case 'company_id':
      return `com_${i}`;
    default:
      return def.list && listValues(def.list).length > 0 ? listValues(def.list)[0]!.slug : `value ${i}`;
  }
}

describe('list limits: at the boundary and one past it', () => {
  const limited = (keys: readonly FilterKeyDef[]) =>
    keys.filter((d) => d.maxValues !== undefined).map((d) => [d.key, d.maxValues!, d] as const);
  const spec: Record<string, number> = {
    domains: 1000,
    exclude_domains: 1000,
    company_names: 1000,
    exclude_company_names: 1000,
    company_ids: 1000,
  };

  it.each(limited(CONTACT_FILTER_KEYS))('contact %s takes %d values', (key, max, def) => {
    expect(max).toBe(spec[key] ?? 50);
    const values = (n: number) => Array.from({ length: n }, (_, i) => sample(def, i));
    expect(() => ir({ [key]: values(max) })).not.toThrow();
    const err = caught(() => ir({ [key]: values(max + 1) }));
    expect([err.code, err.field]).toEqual(['filter.rejected', `filter.${key}`]);
    expect(err.hint).toMatch(String(max));
  });

  it.each(limited(COMPANY_FILTER_KEYS))('company %s takes %d values', (key, max, def) => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => sample(def, i));
    expect(() => parseCompanyFilter({ filter: { [key]: values(max) } })).not.toThrow();
    expect(caught(() => parseCompanyFilter({ filter: { [key]: values(max + 1) } })).code).toBe('filter.rejected');
  });

  it('exclude_ids takes 1,000 ids', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `per_${i}`);
    expect(() => ir({}, ids(1000))).not.toThrow();
    const err = caught(() => ir({}, ids(1001)));
    expect([err.code, err.field]).toEqual(['filter.rejected', 'exclude_ids']);
  });
});

describe('company filter', () => {
  const cir = (filter: unknown) => parseCompanyFilter({ filter }).ir;

  it.each<[string, unknown, IRNode]>([
    ['ids', ['com_1'], { field: 'id', op: 'in', value: ['com_1'] }],
    ['domains', ['https://acme.com'], { field: 'domain', op: 'in', value: ['acme.com'] }],
    ['exclude_domains', ['acme.com'], { not: { field: 'domain', op: 'in', value: ['acme.com'] } }],
    ['names', ['The Acme Company, Inc.'], { field: 'name_norm', op: 'in', value: ['acme company'] }],
    ['exclude_names', ['Initech LLC'], { not: { field: 'name_norm', op: 'in', value: ['initech'] } }],
    ['hq_countries', ['USA'], { field: 'hq_country', op: 'in', value: ['us'] }],
    ['exclude_hq_countries', ['Germany'], { not: { field: 'hq_country', op: 'in', value: ['de'] } }],
    ['industries', ['Financial Services'], { field: 'industries', op: 'in', value: ['financial_services'] }],
    [
      'exclude_industries',
      ['software_development'],
      { not: { field: 'industries', op: 'in', value: ['software_development'] } },
    ],
    ['headcount_bands', ['5001-10000'], { field: 'headcount_band', op: 'in', value: ['5K-10K'] }],
    ['revenue_ranges', ['$10M to <$50M'], { field: 'revenue_range', op: 'in', value: ['10M-50M'] }],
    ['employee_count_min', 5, { field: 'employee_count', op: 'gte', value: 5 }],
    ['employee_count_max', 50, { field: 'employee_count', op: 'lte', value: 50 }],
    ['founded_year_min', 2000, { field: 'founded_year', op: 'gte', value: 2000 }],
    ['founded_year_max', 2010, { field: 'founded_year', op: 'lte', value: 2010 }],
    ['total_funding_min', 1, { field: 'total_funding_usd', op: 'gte', value: 1 }],
    ['total_funding_max', 2, { field: 'total_funding_usd', op: 'lte', value: 2 }],
    ['last_round_after', '2020-01', { field: 'last_round_date', op: 'gt', value: '2020-01' }],
    ['last_round_before', '2021-01', { field: 'last_round_date', op: 'lt', value: '2021-01' }],
    ['last_round_types', ['Seed'], { field: 'last_round_type', op: 'in', value: ['seed'] }],
    ['technologies', [' Salesforce '], { field: 'technologies', op: 'in', value: ['Salesforce'] }],
    ['entity_types', ['Privately Held'], { field: 'entity_type', op: 'in', value: ['private'] }],
  ])('%s: %j', (key, value, expected) => {
    expect(cir({ [key]: value })).toEqual(expected);
  });

  it('covers every company filter key of the catalog', () => {
    const tested = [
      'ids',
      'domains',
      'exclude_domains',
      'names',
      'exclude_names',
      'hq_countries',
      'exclude_hq_countries',
      'industries',
      'exclude_industries',
      'headcount_bands',
      'revenue_ranges',
      'employee_count_min',
      'employee_count_max',
      'founded_year_min',
      'founded_year_max',
      'total_funding_min',
      'total_funding_max',
      'last_round_after',
      'last_round_before',
      'last_round_types',
      'technologies',
      'entity_types',
    ];
    expect(new Set(tested)).toEqual(new Set(COMPANY_FILTER_KEYS.map((k) => k.key)));
  });

  it.each<[string, unknown, string, string]>([
    ['countries', ['us'], 'filter.unknown_key', 'filter.countries'],
    ['include_secondary_roles', true, 'filter.unknown_key', 'filter.include_secondary_roles'],
    ['ids', ['per_1'], 'request.invalid', 'filter.ids[0]'],
    ['headcount_bands', ['enormous'], 'filter.unknown_value', 'filter.headcount_bands[0]'],
  ])('%s %j answers %s', (key, value, code, field) => {
    const err = caught(() => cir({ [key]: value }));
    expect([err.code, err.field]).toEqual([code, field]);
    expect(err.hint).toBeTruthy();
  });

  it('a near-miss key suggests the company key', () => {
    expect(caught(() => cir({ countries: ['us'] })).hint).toMatch(/Did you mean hq_countries\?/);
  });

  it('requires the filter object and ignores exclude_ids', () => {
    expect(caught(() => parseCompanyFilter({})).field).toBe('filter');
    expect(parseCompanyFilter({ filter: {}, exclude_ids: ['per_1'] } as { filter: unknown })).toEqual({
      ir: { and: [] },
      keysApplied: [],
    });
  });
});
