import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LoadReport, loadRelease } from '../../loaders/load/index.js';
import { classifyTitle } from '../../src/domain/classify/index.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { listReleases, readCurrent, releasesDir } from '../../src/engine/duckdb/release-store.js';

const AS_OF = new Date('2026-11-01T12:00:00Z');
const jsonl = (rows: unknown[]): string =>
  `${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`;

const COMPANIES = jsonl([
  {
    company_id: 'com_globex',
    name: 'Globex (old row)',
    website: 'globex.de',
  },
  {
    company_id: 'com_acme',
    name: 'Acme, Inc.',
    website: 'https://www.acme.com/about',
    profile_url: 'https://network.com/company/acme-inc/',
    employee_count: 250,
    founded_year: 1999,
    revenue_usd: 25_000_000,
    industries: ['Software Development', 'Underwater Basket Weaving'],
    locations: [
      { street: '1 Main St', postcode: '78701', city: 'Austin', state: 'TX', country: 'USA', is_hq: true },
      { city: 'London', country: 'United Kingdom' },
    ],
    funding_rounds: [
      { type: 'Series A', date: '2019-05-01', amount_usd: 5_000_000 },
      { type: 'Series D', date: '2022-03-15', amount_usd: 20_000_000 },
    ],
    investors: ['Sequoia', 'Sequoia', 'a16z'],
    entity_type: 'Public Company',
    stock_ticker: 'ACME',
  },
  { company_id: 'acme-2', name: 'Wrong prefix' },
  '{"company_id": "com_broken", ',
  {
    company_id: 'com_globex',
    name: 'The Globex Corporation',
    website: 'http://globex.de/',
    employee_count: 12000,
    entity_type: 'Privately Held',
    industries: ['financial_services'],
  },
]);

const ADA = {
  person_id: 'per_001',
  full_name: 'Ada  Lovelace',
  email: 'Ada@Acme.COM',
  email_status: 'VALID',
  email_verified_at: '2026-10-02',
  mobile_phone: '(512) 555-0100',
  country: 'USA',
  state: 'TX',
  city: 'Austin',
  profile_url: 'http://network.com/in/ada-l?trk=x',
  skills: [' Python', 'python', 'SQL '],
  education: [{ school: 'MIT', degree: 'BS' }],
  roles: [
    { title: 'Founder', company_name: 'Ada Labs LLC', company_domain: 'http://adalabs.io/x', start_date: '2020-01-15' },
    {
      title: 'Chief Technology Officer',
      company_id: 'com_acme',
      start_date: '2026-09',
      is_primary: true,
      description: 'Runs engineering.',
    },
  ],
  updated_at: '2026-10-05',
};

const PEOPLE = jsonl([
  ADA,
  {
    person_id: 'per_002',
    first_name: 'Bob',
    last_name: 'Smith',
    country: 'united kingdom',
    city: 'London',
    roles: [
      {
        title: 'Senior Software Engineer',
        company_id: 'com_missing',
        company_name: 'Initech Ltd.',
        company_domain: 'https://initech.co.uk/',
        start_date: '2024-01-10',
      },
    ],
    updated_at: '2026-03-01',
  },
  { full_name: 'No Id', updated_at: '2026-01-01' },
  { person_id: 'p_9', full_name: 'Bad Prefix', updated_at: '2026-01-01' },
  { person_id: 'per_004', full_name: 'Bad Skills', skills: 'python', updated_at: '2026-01-01' },
  { person_id: 'per_005', full_name: 'No Update' },
  { ...ADA, full_name: 'Ada (stale copy)', updated_at: '2026-01-01' },
  {
    person_id: 'per_003',
    full_name: 'Carol Old',
    roles: [{ title: 'Intern', company_id: 'com_globex' }],
    updated_at: '2026-01-01',
  },
  {
    person_id: 'per_003',
    full_name: 'Carol Jones',
    country: 'DE',
    roles: [{ title: 'VP of Sales', company_id: 'com_globex', start_date: '2026-06-01' }],
    updated_at: '2026-02-01',
  },
]);

describe('loadRelease', () => {
  let dir: string;
  let dataDir: string;
  let engine: DuckDBEngine | null = null;
  const rowsOf = async (sql: string): Promise<Record<string, any>[]> => {
    engine ??= await openDuckDBEngine({ dataDir, poolSize: 1, threads: 1 });
    await engine.refresh();
    return engine.run(sql);
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cds-load-'));
    dataDir = join(dir, 'data');
    writeFileSync(join(dir, 'companies.jsonl'), COMPANIES);
    writeFileSync(join(dir, 'people.jsonl'), PEOPLE);
  });
  afterEach(async () => {
    await engine?.close();
    engine = null;
    rmSync(dir, { recursive: true, force: true });
  });

  const load = (over: Partial<Parameters<typeof loadRelease>[0]> = {}): Promise<LoadReport> =>
    loadRelease({
      dataDir,
      peopleFile: join(dir, 'people.jsonl'),
      companiesFile: join(dir, 'companies.jsonl'),
      asOf: AS_OF,
      ...over,
    });

  it('reports counts, skipped rows with file, line and reason, and publishes CURRENT', async () => {
    const r = await load();
    const people = join(dir, 'people.jsonl');
    const companies = join(dir, 'companies.jsonl');
    expect(r).toMatchObject({
      contacts: 3,
      companies: 2,
      skipped: { people: 6, companies: 3 },
      dropped: { industries: 1 },
    });
    expect(r.rejects).toEqual([
      { file: companies, line: 3, reason: 'company_id: expected an id starting with com_' },
      { file: companies, line: 4, reason: expect.stringMatching(/^invalid JSON/) },
      { file: companies, line: 1, reason: 'duplicate company_id com_globex: replaced by line 5' },
      { file: people, line: 3, reason: 'person_id: missing' },
      { file: people, line: 4, reason: 'person_id: expected an id starting with per_' },
      { file: people, line: 5, reason: 'skills: expected a list of strings' },
      { file: people, line: 6, reason: 'updated_at: missing' },
      { file: people, line: 7, reason: 'duplicate person_id per_001: line 1 has the later updated_at' },
      { file: people, line: 8, reason: 'duplicate person_id per_003: line 9 has the later updated_at' },
    ]);
    expect(
      readFileSync(r.rejectsFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual(r.rejects);
    expect(await readCurrent(dataDir)).toMatchObject({
      id: r.releaseId,
      file: `${r.releaseId}.duckdb`,
      contacts: 3,
      companies: 2,
    });
    // Nothing temporary is left behind.
    expect(readdirSync(releasesDir(dataDir)).sort()).toEqual([
      'CURRENT',
      `${r.releaseId}.duckdb`,
      `${r.releaseId}.index`,
      `${r.releaseId}.points.sqlite`,
      `${r.releaseId}.rejects.jsonl`,
    ]);
  });

  it('normalizes companies: domain from URL, name_norm, slugs, bands, funding, HQ, offices, contact counts', async () => {
    await load();
    const [acme, globex] = await rowsOf('SELECT * FROM companies ORDER BY sort_key');
    expect(acme).toMatchObject({
      id: 'com_acme',
      name: 'Acme, Inc.',
      name_norm: 'acme',
      domain: 'acme.com',
      network: 'https://www.network.com/company/acme-inc',
      network_slug: 'acme-inc',
      headcount_band: '201-500',
      revenue_range: '10M-50M',
      industries: ['software_development'],
      hq_country: 'us',
      hq_city: 'Austin',
      office_countries: ['us', 'gb'],
      total_funding_usd: 25_000_000,
      last_round_date: '2022-03',
      last_round_type: 'series_c_plus',
      investors: ['Sequoia', 'a16z'],
      investor_count: 2,
      entity_type: 'public',
      is_public: true,
      contact_count: 1,
      sort_key: 1,
    });
    expect(JSON.parse(acme!.locations)[0]).toEqual({
      street: '1 Main St',
      postcode: '78701',
      city: 'Austin',
      state: 'TX',
      country: 'us',
      is_hq: true,
    });
    expect(globex).toMatchObject({
      id: 'com_globex',
      name: 'The Globex Corporation',
      name_norm: 'globex',
      headcount_band: '10K+',
      entity_type: 'private',
      is_public: false,
      contact_count: 1,
      sort_key: 2,
    });
  });

  it('normalizes people, classifies titles, computes signals and denormalizes the main employer', async () => {
    await load();
    const [ada, bob, carol] = await rowsOf('SELECT * FROM contacts ORDER BY sort_key');
    expect(ada).toMatchObject({
      id: 'per_001',
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      title: 'Chief Technology Officer',
      seniority: 'c_level',
      function: classifyTitle('Chief Technology Officer').function,
      company: 'Acme, Inc.',
      company_id: 'com_acme',
      company_domain: 'acme.com',
      company_name_norm: 'acme',
      work_email: 'ada@acme.com',
      email_domain: 'acme.com',
      email_status: 'valid',
      email_verified_month: '2026-10',
      has_work_email: true,
      mobile_phone: '+15125550100',
      direct_phone: null,
      has_phone: true,
      country: 'us',
      location: 'Austin, TX, United States',
      network: 'https://www.network.com/in/ada-l',
      network_slug: 'ada-l',
      skills: ['python', 'sql'],
      schools: ['MIT'],
      last_updated: '2026-10',
      role_since: '2026-09-01',
      job_description: 'Runs engineering.',
      signals: ['new_in_role_90d', 'recent_job_change', 'founder', 'at_public_company'],
      secondary_titles: ['Founder'],
      secondary_domains: ['adalabs.io'],
      secondary_company_names: ['ada labs'],
      secondary_company_ids: null,
      // Employer fields copied from the companies row.
      company_size: '201-500',
      company_industries: ['software_development'],
      company_revenue: '10M-50M',
      company_employee_count: 250,
      company_network: 'https://www.network.com/company/acme-inc',
      company_hq_country: 'us',
      company_last_round_type: 'series_c_plus',
      company_total_funding_usd: 25_000_000,
      company_is_public: true,
      company_office_countries: ['us', 'gb'],
      sort_key: 1,
    });
    expect(JSON.parse(ada!.experience)).toEqual([
      {
        title: 'Chief Technology Officer',
        company: 'Acme, Inc.',
        company_id: 'com_acme',
        domain: 'acme.com',
        start_date: '2026-09-01',
        is_main: true,
      },
      {
        title: 'Founder',
        company: 'Ada Labs LLC',
        company_id: null,
        domain: 'adalabs.io',
        start_date: '2020-01-15',
        is_main: false,
      },
    ]);
    expect(JSON.parse(ada!.education)).toEqual([{ school: 'MIT', degree: 'BS', field: null, end_year: null }]);

    // An unknown company reference is not an error: the role keeps its raw name and domain.
    expect(bob).toMatchObject({
      id: 'per_002',
      name: 'Bob Smith',
      company: 'Initech Ltd.',
      company_id: null,
      company_domain: 'initech.co.uk',
      company_name_norm: 'initech',
      company_size: null,
      country: 'gb',
      seniority: 'senior_ic',
      signals: ['one_year_at_company'],
      has_phone: false,
      has_work_email: false,
      email_status: null,
      sort_key: 2,
    });
    // The later updated_at of a duplicate id wins.
    expect(carol).toMatchObject({
      id: 'per_003',
      name: 'Carol Jones',
      title: 'VP of Sales',
      seniority: 'vp',
      function: 'sales_and_bizdev',
      company: 'The Globex Corporation',
      country: 'de',
      location: 'Germany',
      signals: ['recent_job_change'],
      sort_key: 3,
    });
    expect(await rowsOf(`SELECT key FROM meta ORDER BY key`)).toEqual(
      ['as_of', 'companies', 'contacts', 'created_at', 'network_host', 'release_id', 'source'].map((key) => ({ key })),
    );
  });

  it('reads CSV dumps with quoted multi-line cells and a;b lists', async () => {
    const csv = [
      'person_id,full_name,summary,skills,roles,country,updated_at',
      `per_010,Dana Scully,"Line one, with comma\nline two",Forensics; PYTHON,"[{""title"":""Director of ` +
        `Engineering"",""company_id"":""com_acme"",""start_date"":""2025-10-01""}]",us,2026-05-05`,
      'per_011,,,,,,2026-05-05',
      `per_012,Fox Mulder,,"[""Profiling""]",not json,us,2026-05-05`,
    ].join('\r\n');
    writeFileSync(join(dir, 'people.csv'), csv);
    const r = await load({ peopleFile: join(dir, 'people.csv') });
    expect(r.contacts).toBe(1);
    expect(r.rejects.filter((x) => x.file.endsWith('people.csv'))).toEqual([
      { file: join(dir, 'people.csv'), line: 4, reason: 'full_name: missing (and no first_name or last_name)' },
      { file: join(dir, 'people.csv'), line: 5, reason: 'roles: invalid JSON' },
    ]);
    const [dana] = await rowsOf('SELECT * FROM contacts');
    expect(dana).toMatchObject({
      id: 'per_010',
      person_description: 'Line one, with comma\nline two',
      skills: ['forensics', 'python'],
      title: 'Director of Engineering',
      seniority: 'director',
      company: 'Acme, Inc.',
      signals: ['one_year_at_company', 'at_public_company'],
    });
  });

  it('strict mode throws on the first bad row and leaves the previous release serving', async () => {
    const first = await load();
    await expect(load({ strict: true })).rejects.toThrow(
      `${join(dir, 'companies.jsonl')}:3: company_id: expected an id starting with com_`,
    );
    expect((await readCurrent(dataDir))?.id).toBe(first.releaseId);
    expect(await listReleases(dataDir)).toEqual([first.releaseId]);
    expect(readdirSync(releasesDir(dataDir)).sort()).toEqual([
      'CURRENT',
      `${first.releaseId}.duckdb`,
      `${first.releaseId}.index`,
      `${first.releaseId}.points.sqlite`,
      `${first.releaseId}.rejects.jsonl`,
    ]);
    expect(await rowsOf('SELECT count(*) AS n FROM contacts')).toEqual([{ n: 3 }]);
  });

  it('a clean dump loads in strict mode and the new release replaces the old one', async () => {
    writeFileSync(join(dir, 'clean-companies.jsonl'), jsonl([{ company_id: 'com_x', name: 'X Corp' }]));
    writeFileSync(
      join(dir, 'clean-people.jsonl'),
      jsonl([
        {
          person_id: 'per_x',
          full_name: 'X Person',
          roles: [{ title: 'Engineer', company_id: 'com_x' }],
          updated_at: '2026-01-01',
        },
      ]),
    );
    const first = await load();
    const second = await load({
      strict: true,
      peopleFile: join(dir, 'clean-people.jsonl'),
      companiesFile: join(dir, 'clean-companies.jsonl'),
    });
    expect(second).toMatchObject({ contacts: 1, companies: 1, skipped: { people: 0, companies: 0 }, rejects: [] });
    expect(second.releaseId > first.releaseId).toBe(true);
    expect((await readCurrent(dataDir))?.id).toBe(second.releaseId);
    expect(
      await rowsOf(
        'SELECT id, company, company_name_norm, contact_count FROM contacts JOIN (SELECT id AS cid, contact_count ' +
          'FROM companies) ON cid = company_id',
      ),
    ).toEqual([{ id: 'per_x', company: 'X Corp', company_name_norm: 'x', contact_count: 1 }]);
  });

  it('fails without touching releases when a dump file is missing', async () => {
    await expect(load({ peopleFile: join(dir, 'nope.jsonl') })).rejects.toThrow(/no such dump file/);
    expect(existsSync(join(dataDir, 'releases', 'CURRENT'))).toBe(false);
  });
});
