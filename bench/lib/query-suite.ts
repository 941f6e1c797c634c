import { DuckDBInstance } from '@duckdb/node-api';
import { servingRelease } from './release.js';

/**
 * The query benchmark's suite: realistic audience queries over the contacts of a seeded release. Family A queries
 * carry their `filter`; a family B query carries its body in `familyB` and, for the PostgreSQL peer, the family A
 * filter with the same meaning in `filter` (the peer compares counts and first pages, so a wrong twin fails it).
 */
export interface SuiteQuery {
  name: string;
  filter: Record<string, unknown>;
  familyB?: Record<string, unknown>;
}

const EU = ['de', 'fr', 'nl', 'es', 'it', 'se', 'ie', 'be', 'at', 'pl', 'dk', 'fi', 'pt'];

/** The first fourteen: the suite the first wave was measured with. */
const FIRST_WAVE: SuiteQuery[] = [
  {
    name: 'us-vp-sales-software-51-500',
    filter: {
      countries: ['us'],
      seniority: ['vp'],
      functions: ['sales_and_bizdev'],
      industries: ['software_development'],
      employee_count_min: 51,
      employee_count_max: 500,
    },
  },
  { name: 'head-of-growth-eu', filter: { title_query: 'head of growth', countries: EU } },
  { name: 'skills-and-recent-funding', filter: { skills: ['python', 'sql'], last_round_after: '2025-01' } },
  {
    name: 'signals-new-in-role-director',
    filter: { seniority: ['director', 'vp'], where: { field: 'signals', op: 'eq', value: 'new_in_role_90d' } },
  },
  {
    name: 'where-tree-founders-public',
    filter: {
      where: {
        or: [
          { field: 'signals', op: 'eq', value: 'founder' },
          {
            and: [
              { field: 'signals', op: 'eq', value: 'at_public_company' },
              { field: 'seniority', op: 'eq', value: 'c_level' },
            ],
          },
        ],
      },
    },
  },
  { name: 'all-us (low selectivity)', filter: { countries: ['us'] } },
  { name: 'everything (empty filter)', filter: {} },
  {
    name: 'gb-engineering-with-email',
    filter: { countries: ['gb'], functions: ['engineering'], has_work_email: true },
  },
  {
    name: 'marketing-managers-11-200',
    filter: { functions: ['marketing_and_advertising'], seniority: ['manager'], company_size: ['11-50', '51-200'] },
  },
  {
    name: 'cfo-title-1b-revenue',
    filter: { title_query: ['chief financial officer', 'cfo'], company_revenue: ['1B+', '100M-1B'] },
  },
  {
    name: 'exclusions',
    filter: {
      countries: ['us', 'ca'],
      exclude_functions: ['engineering', 'information_technology'],
      exclude_seniority: ['entry', 'unknown'],
    },
  },
  { name: 'funded-series-a-b-with-phone', filter: { last_round_types: ['series_a', 'series_b'], has_phone: true } },
  { name: 'name-contains (high selectivity)', filter: { where: { field: 'name', op: 'contains', value: 'zzq' } } },
  { name: 'hq-de-founded-2015+', filter: { company_hq_countries: ['de'], founded_year_min: 2015 } },
];

/** Added before the index work, so the suite being tuned is not the only one measured. */
const SECOND_WAVE: SuiteQuery[] = [
  {
    name: 'lists-with-ranges',
    filter: {
      countries: ['us', 'gb', 'de'],
      seniority: ['director', 'vp'],
      employee_count_min: 200,
      employee_count_max: 5000,
      founded_year_min: 2005,
    },
  },
  { name: 'two-title-phrases', filter: { title_query: ['account executive', 'sales manager'] } },
  { name: 'skills-devops-us', filter: { skills: ['kubernetes', 'terraform', 'aws'], countries: ['us'] } },
  {
    name: 'technologies-crm-managers',
    filter: {
      seniority: ['manager', 'director'],
      where: { field: 'company_technologies', op: 'in', value: ['Salesforce', 'HubSpot'] },
    },
  },
  {
    name: 'exclude-many',
    filter: {
      industries: ['software_development', 'hotels_and_motels'],
      exclude_countries: ['us', 'in'],
      exclude_seniority: ['entry', 'unknown'],
      exclude_functions: ['engineering'],
    },
  },
  {
    name: 'secondary-roles-cto',
    filter: { title_query: ['chief technology officer', 'cto'], include_secondary_roles: true },
  },
  {
    name: 'family-b-where-sql',
    familyB: {
      where_sql: "seniority IN ('director', 'vp') AND company_employee_count BETWEEN 50 AND 1000 AND has_work_email",
    },
    filter: { seniority: ['director', 'vp'], employee_count_min: 50, employee_count_max: 1000, has_work_email: true },
  },
];

/**
 * Added with issue 44: shapes the suite did not have (a phrase longer than the index's word triples, substrings of
 * four or more characters matching many people, a substring of other text columns, an `or` of `and`s mixing lists
 * and ranges, a month bound with a list `not_in`), each checked equal to PostgreSQL by bench/peer-postgres.
 */
const THIRD_WAVE: SuiteQuery[] = [
  { name: 'title-phrase-4-words', filter: { title_query: 'vice president of sales' } },
  { name: 'name-contains-4 (many matches)', filter: { where: { field: 'name', op: 'contains', value: 'mich' } } },
  { name: 'location-contains', filter: { where: { field: 'location', op: 'contains', value: 'york' } } },
  { name: 'company-contains', filter: { where: { field: 'company', op: 'contains', value: 'tech' } } },
  {
    name: 'or-of-ands-lists-ranges',
    filter: {
      where: {
        or: [
          {
            and: [
              { field: 'country', op: 'in', value: ['us', 'ca'] },
              { field: 'company_employee_count', op: 'gte', value: 1000 },
            ],
          },
          {
            and: [
              { field: 'seniority', op: 'in', value: ['director', 'vp'] },
              { field: 'company_founded_year', op: 'lt', value: 2000 },
              { field: 'skills', op: 'in', value: ['python', 'sql', 'excel'] },
            ],
          },
        ],
      },
    },
  },
  {
    name: 'month-bound-not-in',
    filter: {
      where: {
        and: [
          { field: 'last_updated', op: 'gte', value: '2025-06' },
          { field: 'country', op: 'not_in', value: ['us', 'gb', 'in', 'de'] },
        ],
      },
    },
  },
];

/** The fixed queries of the suite (the two big lists are picked from a release by `querySuite`). */
export const FIXED_QUERIES: readonly SuiteQuery[] = [...FIRST_WAVE, ...SECOND_WAVE, ...THIRD_WAVE];

/** The suite for a data dir: the fixed queries plus the two big lists, picked from its serving release. */
export async function querySuite(dataDir: string): Promise<SuiteQuery[]> {
  const db = await DuckDBInstance.create(servingRelease(dataDir).file, { access_mode: 'READ_ONLY' });
  const conn = await db.connect();
  const pick = async (sql: string): Promise<string[]> =>
    (await conn.runAndReadAll(sql)).getRowObjects().map((r) => String(r.v));
  // Every 97th / 53rd company in the stable order: spread over the release, the same on every run.
  const names = await pick('SELECT name AS v FROM companies WHERE sort_key % 97 = 0 ORDER BY sort_key LIMIT 500');
  const domains = await pick(
    'SELECT domain AS v FROM companies WHERE domain IS NOT NULL AND sort_key % 53 = 0 ORDER BY sort_key LIMIT 1000',
  );
  conn.closeSync();
  return [
    ...FIRST_WAVE,
    ...SECOND_WAVE,
    ...THIRD_WAVE,
    { name: 'company-names-500', filter: { company_names: names } },
    { name: 'domains-1000', filter: { domains } },
  ];
}
