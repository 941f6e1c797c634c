import { BIG_LIST_MAX, LIST_MAX } from './contact-filter-keys.js';
import { COMPANY_REVENUE, COMPANY_SIZES, ENTITY_TYPES } from './lists/company.js';
import { CONTINENTS, REGIONS } from './lists/geo.js';
import { JOB_FUNCTIONS } from './lists/job-functions.js';

/**
 * Family B body parameters (spec "Family B routes", body-parameter table): the single source of
 * family B filter names for the flat-filter parser, the filter-values route and the MCP tool schema.
 * Every parameter reads one contact column (internal helper columns included) and compiles into the
 * same Query IR as family A (ARCHITECTURE rules 1, 2).
 */

/** JSON type as the spec's table writes it; a `string[]` parameter also takes a single string. */
export type FamilyBType = 'string' | 'string[]' | 'number' | 'boolean';

/** How a parameter compiles into the IR; FAMILY_B_MATCH_SEMANTICS says it in words. */
export type FamilyBMatch =
  | 'any_of'
  | 'none_of'
  | 'equals'
  | 'substring'
  | 'keywords'
  | 'title_words'
  | 'not_title_words'
  | 'prefix'
  | 'min'
  | 'max'
  | 'band_min'
  | 'band_max'
  | 'flag'
  | 'require'
  | 'saved_list';

/** How each value is read and normalized before matching. */
export type FamilyBValue =
  | 'text' // trimmed as sent
  | 'domain' // bare domain; a URL reduces to its domain
  | 'email_domain' // comma-separated bare domains; a leading @ is dropped
  | 'email' // one address, lowercased
  | 'country' // ISO-2 code or English name -> lowercase ISO-2 slug
  | 'region' // REGIONS -> the country slugs of the region
  | 'continent' // CONTINENTS -> the country slugs of the continent
  | 'seniority' // FAMILY_B_SENIORITY label or alias (or a family A slug) -> family A slugs
  | 'list' // closed list `list`: label, alias or slug -> slug
  | 'company_network_url' // company profile URL -> its slug
  | 'date' // YYYY-MM-DD
  | 'number'
  | 'boolean'
  | 'list_id'; // saved domain list id

export const FAMILY_B_MATCH_SEMANTICS: Readonly<Record<FamilyBMatch, string>> = {
  any_of: 'Exact match on the normalized value; several values are OR (a list column matches when it holds any).',
  none_of: 'Exclusion: rows matching any of the values are left out; rows without a value are kept.',
  equals: 'Exact match on the normalized value.',
  substring: 'Case-insensitive substring; several values are OR (a list column matches when any element contains it).',
  keywords: 'Comma-separated keywords, each a case-insensitive substring; keywords are OR.',
  title_words:
    'Whole-word match on title tokens, case-insensitive; acronyms and spelled-out forms do not cross-match; several ' +
    'titles are OR.',
  not_title_words:
    'Leaves out titles matching any of the phrases (whole-word token semantics); rows without a title are kept.',
  prefix: 'Code prefix; several prefixes are OR.',
  min: 'Inclusive lower bound (hard cutoff); unknown values never match.',
  max: 'Inclusive upper bound (hard cutoff); unknown values never match.',
  band_min: 'Band overlap: keeps every employee size band that overlaps [min, max].',
  band_max:
    'Band overlap: keeps every employee size band that overlaps [min, max] (a maximum of 9 keeps the whole 1-10 band).',
  flag: 'true keeps rows where it holds, false rows where it does not.',
  require: 'true keeps only rows where it holds; false adds no constraint.',
  saved_list: 'Matches the domains of a saved domain list.',
};

/**
 * Family B seniority labels onto the family A slugs. C-Team covers founders and partners at the top
 * (family A splits them out as founder_or_partner); Staff covers every individual contributor.
 * Family A slugs are accepted as well and mean themselves.
 */
export const FAMILY_B_SENIORITY: ReadonlyArray<{
  label: string;
  slugs: readonly string[];
  aliases: readonly string[];
}> = [
  { label: 'C-Team', slugs: ['c_level', 'founder_or_partner'], aliases: ['C-Suite', 'C-Level', 'Executive'] },
  { label: 'VP', slugs: ['vp'], aliases: ['Vice President', 'SVP', 'EVP'] },
  { label: 'Director', slugs: ['director'], aliases: [] },
  { label: 'Manager', slugs: ['manager'], aliases: [] },
  { label: 'Staff', slugs: ['senior_ic', 'entry'], aliases: [] },
  { label: 'Other', slugs: ['unknown'], aliases: [] },
];

/** Email statuses family B filters on (labels of EMAIL_STATUS; `UNKNOWN` and `verified` are not among them). */
export const FAMILY_B_EMAIL_STATUSES: ReadonlyArray<{ label: string; slug: string }> = [
  { label: 'VALID', slug: 'valid' },
  { label: 'CATCH_ALL', slug: 'catch_all' },
  { label: 'INVALID', slug: 'invalid' },
];

export interface FamilyBParamDef {
  /** Body member name. */
  name: string;
  type: FamilyBType;
  /** From the spec's table, with the exact matching rule. */
  description: string;
  /** Contact column the parameter reads (internal helper columns included). */
  column: string;
  match: FamilyBMatch;
  value: FamilyBValue;
  /** Catalog closed list the values fold into (`value: 'list'`) or come from (countries, technologies, ...). */
  list?: string;
  /** The values clients send for a fixed closed list, as family B shows them (labels). */
  allowed?: readonly string[];
  /** Most values in one request (lists, comma-separated keywords). */
  maxValues?: number;
  /** The include parameter an `exclude_*` parameter negates. */
  excludes?: string;
  /** The other bound of a `_min` / `_max` pair. */
  pair?: string;
}

type Opts = Partial<Pick<FamilyBParamDef, 'list' | 'allowed' | 'maxValues' | 'excludes' | 'pair'>>;

const p = (
  name: string,
  type: FamilyBType,
  column: string,
  match: FamilyBMatch,
  value: FamilyBValue,
  description: string,
  opts: Opts = {},
): FamilyBParamDef => ({
  name,
  type,
  description,
  column,
  match,
  value,
  ...opts,
  ...(type === 'string[]' || match === 'keywords' || value === 'email_domain'
    ? { maxValues: opts.maxValues ?? LIST_MAX }
    : {}),
});

const labels = (values: ReadonlyArray<{ label: string }>): string[] => values.map((v) => v.label);

/** Inclusive hard-cutoff pair on a number column. */
const range = (base: string, column: string, what: string): FamilyBParamDef[] => [
  p(`${base}_min`, 'number', column, 'min', 'number', `${what}: inclusive lower bound.`, { pair: `${base}_max` }),
  p(`${base}_max`, 'number', column, 'max', 'number', `${what}: inclusive upper bound.`, { pair: `${base}_min` }),
];

const SENIORITY_LABELS = labels(FAMILY_B_SENIORITY);
const EMAIL_STATUS_LABELS = labels(FAMILY_B_EMAIL_STATUSES);

/** Every family B filter parameter, in the order of the spec's table. */
export const FAMILY_B_PARAMS: readonly FamilyBParamDef[] = [
  p(
    'domains',
    'string[]',
    'company_domain',
    'any_of',
    'domain',
    'Company website domains; a URL reduces to its bare domain.',
    { maxValues: BIG_LIST_MAX },
  ),
  p('company_name', 'string', 'company', 'substring', 'text', 'Substring match on company name.'),
  p(
    'email_domain',
    'string',
    'email_domain',
    'any_of',
    'email_domain',
    'Email domain, exact; comma-separated values are OR.',
    { maxValues: BIG_LIST_MAX },
  ),
  p(
    'domain_list_id',
    'string',
    'company_domain',
    'saved_list',
    'list_id',
    'Saved domain list id: matches the domains of the list.',
  ),
  p(
    'company_network_urls',
    'string[]',
    'company_network_slug',
    'any_of',
    'company_network_url',
    'Company profile URLs; exact /company/{slug} match, several are OR; a URL that is not a company profile answers ' +
      '400.',
    { maxValues: BIG_LIST_MAX },
  ),
  p(
    'job_titles',
    'string[]',
    'title',
    'title_words',
    'text',
    'Whole-word match on title tokens; acronyms and spelled-out forms do not cross-match ("VP" does not match "Vice ' +
      'President").',
  ),
  p(
    'seniority',
    'string[]',
    'seniority',
    'any_of',
    'seniority',
    'C-Team, VP, Director, Manager, Staff, Other (aliases C-Suite, C-Level, Executive -> C-Team; Vice President, ' +
      'SVP, EVP -> VP).',
    { allowed: SENIORITY_LABELS },
  ),
  p(
    'job_functions',
    'string[]',
    'function',
    'any_of',
    'list',
    'Department names, such as Sales & Business Development, Engineering, Information Technology.',
    { list: 'function', allowed: labels(JOB_FUNCTIONS.values) },
  ),
  p('personas', 'string[]', 'personas', 'any_of', 'list', 'Buyer personas, exact.', { list: 'personas' }),
  p(
    'job_start_date_min',
    'string',
    'role_since',
    'min',
    'date',
    'Current-role start date (YYYY-MM-DD): inclusive lower bound.',
    { pair: 'job_start_date_max' },
  ),
  p(
    'job_start_date_max',
    'string',
    'role_since',
    'max',
    'date',
    'Current-role start date (YYYY-MM-DD): inclusive upper bound.',
    { pair: 'job_start_date_min' },
  ),
  p('industries', 'string[]', 'company_industries', 'any_of', 'list', 'Industries of the company, by label or slug.', {
    list: 'industry',
  }),
  p('company_size', 'string[]', 'company_size', 'any_of', 'list', 'Size-band labels (8 bands), or their slugs.', {
    list: 'company_size',
    allowed: labels(COMPANY_SIZES.values),
  }),
  p(
    'company_size_min',
    'number',
    'company_size',
    'band_min',
    'number',
    'Employee bounds mapped to size bands: keeps every band overlapping [min, max].',
    { pair: 'company_size_max' },
  ),
  p(
    'company_size_max',
    'number',
    'company_size',
    'band_max',
    'number',
    'Employee bounds mapped to size bands: keeps every band overlapping [min, max].',
    { pair: 'company_size_min' },
  ),
  p(
    'revenue',
    'string[]',
    'company_revenue',
    'any_of',
    'list',
    'Revenue ranges: <$1M, $1M to <$10M, $10M to <$50M, $50M to <$100M, $100M to <$1B, $1B+.',
    { list: 'company_revenue', allowed: labels(COMPANY_REVENUE.values) },
  ),
  p(
    'headquarters_countries',
    'string[]',
    'company_hq_country',
    'any_of',
    'country',
    'Company HQ country: ISO-2 codes or English names.',
    { list: 'country' },
  ),
  p('company_description', 'string', 'company_description', 'substring', 'text', 'Substring on company about text.'),
  p(
    'entity_types',
    'string[]',
    'company_entity_type',
    'any_of',
    'list',
    'Legal entity type (e.g. public, privately held, non profit).',
    { list: 'entity_type', allowed: labels(ENTITY_TYPES.values) },
  ),
  p('technologies', 'string[]', 'company_technologies', 'any_of', 'list', 'Technologies used by the company, exact.', {
    list: 'technologies',
  }),
  p(
    'has_mobile_app',
    'boolean',
    'company_has_mobile_app',
    'flag',
    'boolean',
    'Company has (true) or lacks (false) a mobile app.',
  ),
  p(
    'has_web_app',
    'boolean',
    'company_has_web_app',
    'flag',
    'boolean',
    'Company has (true) or lacks (false) a web app.',
  ),
  p('naics_codes', 'string[]', 'company_naics_codes', 'prefix', 'text', 'NAICS code prefix match.'),
  p(
    'naics_descriptions',
    'string[]',
    'company_naics_descriptions',
    'substring',
    'text',
    'Substring match on NAICS descriptions.',
  ),
  p(
    'sic_descriptions',
    'string[]',
    'company_sic_descriptions',
    'substring',
    'text',
    'Substring match on SIC descriptions.',
  ),
  p(
    'uk_industry_descriptions',
    'string[]',
    'company_uk_industry_descriptions',
    'substring',
    'text',
    'Substring match on UK SIC 2007 descriptions.',
  ),
  p(
    'startup_db_categories',
    'string[]',
    'company_startup_categories',
    'substring',
    'text',
    'Substring match on startup database categories.',
  ),
  p('sic_codes', 'string[]', 'company_sic_codes', 'any_of', 'text', 'SIC codes, exact.'),
  p('uk_industry_codes', 'string[]', 'company_uk_industry_codes', 'any_of', 'text', 'UK SIC 2007 codes, exact.'),
  p(
    'employees_min',
    'number',
    'company_size',
    'band_min',
    'number',
    'Employee count, band overlap: keeps every size band overlapping [min, max].',
    { pair: 'employees_max' },
  ),
  p(
    'employees_max',
    'number',
    'company_size',
    'band_max',
    'number',
    'Employee count, band overlap: a maximum of 9 returns the whole 1-10 band.',
    { pair: 'employees_min' },
  ),
  ...range('revenue', 'company_revenue_usd', 'Annual revenue, USD'),
  ...range('followers', 'company_followers', 'Profile followers of the company'),
  ...range('founded_year', 'company_founded_year', 'Founding year'),
  ...range('total_funding', 'company_total_funding_usd', 'Total funding, USD'),
  ...range('monthly_traffic', 'company_monthly_traffic', 'Monthly web traffic'),
  ...range('employee_growth_rate', 'company_employee_growth_pct', 'Employee growth, percent'),
  ...range(
    'monthly_search_adspend',
    'company_monthly_search_adspend',
    'Estimated monthly search-advertising spend, USD',
  ),
  ...range(
    'employee_profiles_on_network',
    'company_employee_profiles',
    'Exact headcount of employee profiles on the network',
  ),
  ...range('valid_email_count', 'company_valid_email_count', 'Verified emails held at the company'),
  p(
    'specialties',
    'string',
    'company_specialties',
    'keywords',
    'text',
    'Keyword search on company specialties; comma-separated keywords are OR.',
  ),
  p(
    'company_headline',
    'string',
    'company_headline',
    'keywords',
    'text',
    'Keyword search on the company headline; comma-separated keywords are OR.',
  ),
  p('countries', 'string[]', 'country', 'any_of', 'country', "Person's country: ISO-2 codes or English names.", {
    list: 'country',
  }),
  p('exclude_countries', 'string[]', 'country', 'none_of', 'country', "Leaves out these person's countries.", {
    list: 'country',
    excludes: 'countries',
  }),
  p(
    'regions',
    'string[]',
    'country',
    'any_of',
    'region',
    "NORAM, EMEA, APAC, LATAM, derived from the person's country.",
    { allowed: REGIONS },
  ),
  p(
    'continents',
    'string[]',
    'country',
    'any_of',
    'continent',
    "North America, Europe, Asia, South America, Africa, Oceania, Antarctica, derived from the person's country.",
    { allowed: CONTINENTS },
  ),
  p('cities', 'string[]', 'city', 'substring', 'text', "Person's city; substring."),
  p('states', 'string[]', 'state', 'substring', 'text', "Person's state; substring."),
  p(
    'job_location_country',
    'string[]',
    'job_location_country',
    'any_of',
    'country',
    'Country of the office where the person works.',
    { list: 'country' },
  ),
  p(
    'job_location_state',
    'string[]',
    'job_location_state',
    'substring',
    'text',
    'State of the office where the person works; substring.',
  ),
  p(
    'job_location_city',
    'string[]',
    'job_location_city',
    'substring',
    'text',
    'City of the office where the person works; substring.',
  ),
  p(
    'office_countries',
    'string[]',
    'company_office_countries',
    'any_of',
    'country',
    'Countries of the company offices.',
    { list: 'country' },
  ),
  p(
    'office_states',
    'string[]',
    'company_office_states',
    'substring',
    'text',
    'States of the company offices; substring.',
  ),
  p(
    'office_cities',
    'string[]',
    'company_office_cities',
    'substring',
    'text',
    'Cities of the company offices; substring.',
  ),
  p('first_name', 'string', 'first_name', 'substring', 'text', 'First name; substring.'),
  p('last_name', 'string', 'last_name', 'substring', 'text', 'Last name; substring.'),
  p('email_address', 'string', 'work_email', 'equals', 'email', 'Work email address, exact (case-insensitive).'),
  p('network_url', 'string', 'network', 'substring', 'text', 'Profile URL substring.'),
  p('person_description', 'string', 'person_description', 'substring', 'text', "Substring of the person's about text."),
  p('skills', 'string', 'skills', 'substring', 'text', 'Keyword: matches contacts with a skill containing the text.'),
  p(
    'education',
    'string',
    'education',
    'substring',
    'text',
    'Substring of the education record (schools, degrees, fields).',
  ),
  p(
    'languages',
    'string',
    'languages',
    'substring',
    'text',
    'Keyword: matches contacts with a language containing the text.',
  ),
  p('certifications', 'string', 'certifications', 'substring', 'text', 'Substring of the certifications record.'),
  p(
    'network_headline',
    'string',
    'headline',
    'keywords',
    'text',
    'Keyword search on the profile headline; comma-separated keywords are OR.',
  ),
  p(
    'job_description',
    'string',
    'job_description',
    'keywords',
    'text',
    'Keyword search on the current role description; comma-separated keywords are OR.',
  ),
  p('email_status', 'string[]', 'email_status', 'any_of', 'list', 'VALID, CATCH_ALL, INVALID (never verified).', {
    list: 'email_status',
    allowed: EMAIL_STATUS_LABELS,
  }),
  p(
    'require_email',
    'boolean',
    'has_work_email',
    'require',
    'boolean',
    'true: only contacts with a non-empty email; false adds no constraint.',
  ),
  p(
    'require_phone',
    'boolean',
    'has_phone',
    'require',
    'boolean',
    'true: only contacts with a phone number; false (the default) adds no constraint.',
  ),
  p('exclude_domains', 'string[]', 'company_domain', 'none_of', 'domain', 'Leaves out these company domains.', {
    maxValues: BIG_LIST_MAX,
    excludes: 'domains',
  }),
  p(
    'exclude_headquarters_countries',
    'string[]',
    'company_hq_country',
    'none_of',
    'country',
    'Leaves out these company HQ countries.',
    { list: 'country', excludes: 'headquarters_countries' },
  ),
  p('exclude_industries', 'string[]', 'company_industries', 'none_of', 'list', 'Leaves out these industries.', {
    list: 'industry',
    excludes: 'industries',
  }),
  p(
    'exclude_job_titles',
    'string[]',
    'title',
    'not_title_words',
    'text',
    'Leaves out titles matching any of these, with whole-word token semantics.',
    { excludes: 'job_titles' },
  ),
];

/** Body members of the family B search, count and export routes that are not filters. */
export const FAMILY_B_NON_FILTER_MEMBERS: readonly string[] = [
  'filters',
  'limit',
  'offset',
  'max_per_company',
  'columns',
  'where_sql',
  'format',
  'max_rows',
  'dry_run',
];

const byName = new Map(FAMILY_B_PARAMS.map((d) => [d.name, d]));

export function findFamilyBParam(name: string): FamilyBParamDef | undefined {
  return byName.get(name);
}
