import { filterKeyBuilder } from './define.js';
import type { FilterKeyDef } from './types.js';

const k = filterKeyBuilder('contact');

/** Largest list for domains, company names, company ids (spec "Limits"); other lists take 50. */
export const BIG_LIST_MAX = 1000;
export const LIST_MAX = 50;

/** Family A contact filter keys (spec "Filter object"), in the spec's order. */
export const CONTACT_FILTER_KEYS: readonly FilterKeyDef[] = [
  k('countries', 'list', 'country', 'any_of', "Person's country: ISO-2 codes or English names.", {
    list: 'country',
    normalize: 'country',
    maxValues: LIST_MAX,
  }),
  k('exclude_countries', 'list', 'country', 'none_of', 'NOT countries.', {
    excludes: 'countries',
    list: 'country',
    normalize: 'country',
    maxValues: LIST_MAX,
  }),
  k(
    'has_network',
    'boolean',
    'network',
    'present',
    'true keeps contacts that carry a profile URL; false keeps those without.',
  ),
  k(
    'has_work_email',
    'boolean',
    'work_email',
    'present',
    'true keeps contacts with a work email; false keeps those without.',
  ),
  k(
    'has_phone',
    'boolean',
    null,
    'present',
    'true matches a mobile or direct phone; false matches contacts with neither.',
  ),
  k(
    'include_secondary_roles',
    'boolean',
    null,
    'option',
    "When true, title, function, seniority, domain, company name and company id keys also match the person's other " +
      'current roles. Default false.',
  ),
  k(
    'title_query',
    'string',
    'title',
    'phrase',
    'Case-insensitive whole-word phrase match on the current title, across punctuation; an array matches any phrase.',
    { maxValues: LIST_MAX },
  ),
  k('functions', 'list', 'function', 'any_of', 'Job functions.', { list: 'function', maxValues: LIST_MAX }),
  k('exclude_functions', 'list', 'function', 'none_of', 'NOT functions.', {
    excludes: 'functions',
    list: 'function',
    maxValues: LIST_MAX,
  }),
  k('seniority', 'list', 'seniority', 'any_of', 'Seniority levels.', { list: 'seniority', maxValues: LIST_MAX }),
  k('exclude_seniority', 'list', 'seniority', 'none_of', 'NOT seniority.', {
    excludes: 'seniority',
    list: 'seniority',
    maxValues: LIST_MAX,
  }),
  k('domains', 'list', 'company_domain', 'any_of', 'Current employer domains; a full URL reduces to a bare domain.', {
    normalize: 'domain',
    maxValues: BIG_LIST_MAX,
  }),
  k('exclude_domains', 'list', 'company_domain', 'none_of', 'NOT domains.', {
    excludes: 'domains',
    normalize: 'domain',
    maxValues: BIG_LIST_MAX,
  }),
  k(
    'company_names',
    'list',
    'company_name_norm',
    'any_of',
    'Case-insensitive exact employer name after normalization (legal suffix and leading "the" removed).',
    { normalize: 'company_name', maxValues: BIG_LIST_MAX },
  ),
  k('exclude_company_names', 'list', 'company_name_norm', 'none_of', 'NOT company_names.', {
    excludes: 'company_names',
    normalize: 'company_name',
    maxValues: BIG_LIST_MAX,
  }),
  k('company_size', 'list', 'company_size', 'any_of', 'Employee bands of the employer.', {
    list: 'company_size',
    maxValues: LIST_MAX,
  }),
  k(
    'company_revenue',
    'list',
    'company_revenue',
    'any_of',
    'Revenue ranges of the employer; only companies with a known range match.',
    { list: 'company_revenue', maxValues: LIST_MAX },
  ),
  k(
    'industries',
    'list',
    'company_industries',
    'any_of',
    'Industry slugs of the employer; a label is folded to its slug.',
    { list: 'industry', normalize: 'industry', maxValues: LIST_MAX },
  ),
  k('exclude_industries', 'list', 'company_industries', 'none_of', 'NOT industries.', {
    excludes: 'industries',
    list: 'industry',
    normalize: 'industry',
    maxValues: LIST_MAX,
  }),
  k('schools', 'list', 'schools', 'any_of', 'Any school on the record; exact on the stored value.', {
    maxValues: LIST_MAX,
  }),
  k('skills', 'list', 'skills', 'any_of', 'Any skill; input is lowercased.', {
    list: 'skills',
    normalize: 'lowercase',
    maxValues: LIST_MAX,
  }),
  k(
    'employee_count_min',
    'integer',
    'company_employee_count',
    'min',
    'Inclusive lower bound on the employer employee count.',
  ),
  k(
    'employee_count_max',
    'integer',
    'company_employee_count',
    'max',
    'Inclusive upper bound on the employer employee count.',
  ),
  k(
    'founded_year_min',
    'integer',
    'company_founded_year',
    'min',
    'Inclusive lower bound on the employer founding year.',
  ),
  k(
    'founded_year_max',
    'integer',
    'company_founded_year',
    'max',
    'Inclusive upper bound on the employer founding year.',
  ),
  k('company_hq_countries', 'list', 'company_hq_country', 'any_of', 'Headquarters countries of the employer.', {
    list: 'country',
    normalize: 'country',
    maxValues: LIST_MAX,
  }),
  k(
    'last_round_after',
    'month',
    'company_last_round_date',
    'after',
    'Exclusive lower bound (YYYY-MM) on the latest financing event.',
  ),
  k(
    'last_round_before',
    'month',
    'company_last_round_date',
    'before',
    'Exclusive upper bound (YYYY-MM) on the latest financing event.',
  ),
  k('last_round_types', 'list', 'company_last_round_type', 'any_of', 'Types of the latest financing event.', {
    list: 'funding_round_type',
    maxValues: LIST_MAX,
  }),
  k(
    'total_funding_min',
    'integer',
    'company_total_funding_usd',
    'min',
    'Inclusive lower bound on total funding, USD; unknown funding never matches.',
  ),
  k(
    'total_funding_max',
    'integer',
    'company_total_funding_usd',
    'max',
    'Inclusive upper bound on total funding, USD; unknown funding never matches.',
  ),
  k('company_ids', 'list', 'company_id', 'any_of', 'Current employer ids (com_).', {
    normalize: 'company_id',
    maxValues: BIG_LIST_MAX,
  }),
];
