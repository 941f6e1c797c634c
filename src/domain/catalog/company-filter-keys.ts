import { BIG_LIST_MAX, LIST_MAX } from './contact-filter-keys.js';
import { filterKeyBuilder } from './define.js';
import type { FilterKeyDef } from './types.js';

const k = filterKeyBuilder('company');

/** Family A company filter keys (POST /companies/count and /companies/search). */
export const COMPANY_FILTER_KEYS: readonly FilterKeyDef[] = [
  k('ids', 'list', 'id', 'any_of', 'Company ids (com_).', {
    normalize: 'company_id',
    maxValues: BIG_LIST_MAX,
    label: 'Company ID',
    group: 'company',
    help: 'Company ids (com_…), separated by commas.',
  }),
  k('domains', 'list', 'domain', 'any_of', 'Website domains; a full URL reduces to a bare domain.', {
    normalize: 'domain',
    maxValues: BIG_LIST_MAX,
    label: 'Website',
    group: 'company',
    help: 'Domains such as acme.com, separated by commas.',
  }),
  k('exclude_domains', 'list', 'domain', 'none_of', 'NOT domains.', {
    excludes: 'domains',
    normalize: 'domain',
    maxValues: BIG_LIST_MAX,
    label: 'Leave out websites',
    group: 'exclusions',
    help: 'Domains, separated by commas.',
  }),
  k('names', 'list', 'name_norm', 'any_of', 'Case-insensitive exact name after company-name normalization.', {
    normalize: 'company_name',
    maxValues: BIG_LIST_MAX,
    label: 'Company name',
    group: 'company',
    help: 'Exact names, separated by commas.',
  }),
  k('exclude_names', 'list', 'name_norm', 'none_of', 'NOT names.', {
    excludes: 'names',
    normalize: 'company_name',
    maxValues: BIG_LIST_MAX,
    label: 'Leave out company names',
    group: 'exclusions',
    help: 'Exact names, separated by commas.',
  }),
  k('hq_countries', 'list', 'hq_country', 'any_of', 'Headquarters countries: ISO-2 codes or English names.', {
    list: 'country',
    normalize: 'country',
    maxValues: LIST_MAX,
    label: 'Headquarters country',
    group: 'company',
    pair: 'exclude_hq_countries',
  }),
  k('exclude_hq_countries', 'list', 'hq_country', 'none_of', 'NOT hq_countries.', {
    excludes: 'hq_countries',
    list: 'country',
    normalize: 'country',
    maxValues: LIST_MAX,
    label: 'Not headquartered in',
    group: 'company',
  }),
  k('industries', 'list', 'industries', 'any_of', 'Industry slugs; a label is folded to its slug.', {
    list: 'industry',
    normalize: 'industry',
    maxValues: LIST_MAX,
    label: 'Industry',
    group: 'company',
    pair: 'exclude_industries',
  }),
  k('exclude_industries', 'list', 'industries', 'none_of', 'NOT industries.', {
    excludes: 'industries',
    list: 'industry',
    normalize: 'industry',
    maxValues: LIST_MAX,
    label: 'Not in industry',
    group: 'company',
  }),
  k('headcount_bands', 'list', 'headcount_band', 'any_of', 'Employee bands.', {
    list: 'company_size',
    maxValues: LIST_MAX,
    label: 'Company size',
    group: 'company',
    help: 'Employee bands.',
  }),
  k('revenue_ranges', 'list', 'revenue_range', 'any_of', 'Revenue ranges; only companies with a known range match.', {
    list: 'company_revenue',
    maxValues: LIST_MAX,
    label: 'Revenue',
    group: 'company',
    help: 'Only companies with a known revenue match.',
  }),
  k('employee_count_min', 'integer', 'employee_count', 'min', 'Inclusive lower bound on employee count.', {
    label: 'Employees',
    group: 'company',
    rangeEnd: 'employee_count_max',
  }),
  k('employee_count_max', 'integer', 'employee_count', 'max', 'Inclusive upper bound on employee count.', {
    label: 'Employees, at most',
    group: 'company',
  }),
  k('founded_year_min', 'integer', 'founded_year', 'min', 'Inclusive lower bound on founding year.', {
    label: 'Founded (year)',
    group: 'company',
    rangeEnd: 'founded_year_max',
  }),
  k('founded_year_max', 'integer', 'founded_year', 'max', 'Inclusive upper bound on founding year.', {
    label: 'Founded, at the latest',
    group: 'company',
  }),
  k('total_funding_min', 'integer', 'total_funding_usd', 'min', 'Inclusive lower bound on total funding, USD.', {
    label: 'Total funding (USD)',
    group: 'company',
    rangeEnd: 'total_funding_max',
  }),
  k('total_funding_max', 'integer', 'total_funding_usd', 'max', 'Inclusive upper bound on total funding, USD.', {
    label: 'Total funding, at most',
    group: 'company',
  }),
  k(
    'last_round_after',
    'month',
    'last_round_date',
    'after',
    'Exclusive lower bound (YYYY-MM) on the latest financing event.',
    {
      label: 'Latest funding round date',
      group: 'company',
      help: 'Months after the first and before the second (both excluded).',
      rangeEnd: 'last_round_before',
    },
  ),
  k(
    'last_round_before',
    'month',
    'last_round_date',
    'before',
    'Exclusive upper bound (YYYY-MM) on the latest financing event.',
    { label: 'Latest funding round before', group: 'company' },
  ),
  k('last_round_types', 'list', 'last_round_type', 'any_of', 'Types of the latest financing event.', {
    list: 'funding_round_type',
    maxValues: LIST_MAX,
    label: 'Latest funding round',
    group: 'company',
  }),
  k('technologies', 'list', 'technologies', 'any_of', 'Technologies used.', {
    list: 'technologies',
    maxValues: LIST_MAX,
    label: 'Technology',
    group: 'company',
  }),
  k('entity_types', 'list', 'entity_type', 'any_of', 'Legal entity types.', {
    list: 'entity_type',
    maxValues: LIST_MAX,
    label: 'Legal entity type',
    group: 'company',
  }),
];
