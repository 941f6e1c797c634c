import { BIG_LIST_MAX, LIST_MAX } from './contact-filter-keys.js';
import { filterKeyBuilder } from './define.js';
import type { FilterKeyDef } from './types.js';

const k = filterKeyBuilder('company');

/** Family A company filter keys (POST /companies/count and /companies/search). */
export const COMPANY_FILTER_KEYS: readonly FilterKeyDef[] = [
  k('ids', 'list', 'id', 'any_of', 'Company ids (com_).', { normalize: 'company_id', maxValues: BIG_LIST_MAX }),
  k('domains', 'list', 'domain', 'any_of', 'Website domains; a full URL reduces to a bare domain.', {
    normalize: 'domain',
    maxValues: BIG_LIST_MAX,
  }),
  k('exclude_domains', 'list', 'domain', 'none_of', 'NOT domains.', {
    excludes: 'domains',
    normalize: 'domain',
    maxValues: BIG_LIST_MAX,
  }),
  k('names', 'list', 'name_norm', 'any_of', 'Case-insensitive exact name after company-name normalization.', {
    normalize: 'company_name',
    maxValues: BIG_LIST_MAX,
  }),
  k('exclude_names', 'list', 'name_norm', 'none_of', 'NOT names.', {
    excludes: 'names',
    normalize: 'company_name',
    maxValues: BIG_LIST_MAX,
  }),
  k('hq_countries', 'list', 'hq_country', 'any_of', 'Headquarters countries: ISO-2 codes or English names.', {
    list: 'country',
    normalize: 'country',
    maxValues: LIST_MAX,
  }),
  k('exclude_hq_countries', 'list', 'hq_country', 'none_of', 'NOT hq_countries.', {
    excludes: 'hq_countries',
    list: 'country',
    normalize: 'country',
    maxValues: LIST_MAX,
  }),
  k('industries', 'list', 'industries', 'any_of', 'Industry slugs; a label is folded to its slug.', {
    list: 'industry',
    normalize: 'industry',
    maxValues: LIST_MAX,
  }),
  k('exclude_industries', 'list', 'industries', 'none_of', 'NOT industries.', {
    excludes: 'industries',
    list: 'industry',
    normalize: 'industry',
    maxValues: LIST_MAX,
  }),
  k('headcount_bands', 'list', 'headcount_band', 'any_of', 'Employee bands.', {
    list: 'company_size',
    maxValues: LIST_MAX,
  }),
  k('revenue_ranges', 'list', 'revenue_range', 'any_of', 'Revenue ranges; only companies with a known range match.', {
    list: 'company_revenue',
    maxValues: LIST_MAX,
  }),
  k('employee_count_min', 'integer', 'employee_count', 'min', 'Inclusive lower bound on employee count.'),
  k('employee_count_max', 'integer', 'employee_count', 'max', 'Inclusive upper bound on employee count.'),
  k('founded_year_min', 'integer', 'founded_year', 'min', 'Inclusive lower bound on founding year.'),
  k('founded_year_max', 'integer', 'founded_year', 'max', 'Inclusive upper bound on founding year.'),
  k('total_funding_min', 'integer', 'total_funding_usd', 'min', 'Inclusive lower bound on total funding, USD.'),
  k('total_funding_max', 'integer', 'total_funding_usd', 'max', 'Inclusive upper bound on total funding, USD.'),
  k(
    'last_round_after',
    'month',
    'last_round_date',
    'after',
    'Exclusive lower bound (YYYY-MM) on the latest financing event.',
  ),
  k(
    'last_round_before',
    'month',
    'last_round_date',
    'before',
    'Exclusive upper bound (YYYY-MM) on the latest financing event.',
  ),
  k('last_round_types', 'list', 'last_round_type', 'any_of', 'Types of the latest financing event.', {
    list: 'funding_round_type',
    maxValues: LIST_MAX,
  }),
  k('technologies', 'list', 'technologies', 'any_of', 'Technologies used.', {
    list: 'technologies',
    maxValues: LIST_MAX,
  }),
  k('entity_types', 'list', 'entity_type', 'any_of', 'Legal entity types.', {
    list: 'entity_type',
    maxValues: LIST_MAX,
  }),
];
