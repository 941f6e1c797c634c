import { COMPANY_COLUMNS, CONTACT_COLUMNS } from '../../src/domain/catalog/index.js';

/**
 * Share of rows carrying each value, read from the catalog's `fill` so the synthetic data and the
 * schema's fill_share agree. Conditional shares divide by the share of the field a value depends on.
 */
function fillOf(columns: ReadonlyArray<{ name: string; fill: number }>, name: string): number {
  const col = columns.find((c) => c.name === name);
  if (!col) throw new Error(`catalog has no column ${name}`);
  return col.fill;
}

export const contactFill = (name: string): number => fillOf(CONTACT_COLUMNS, name);
export const companyFill = (name: string): number => fillOf(COMPANY_COLUMNS, name);

/** P(value | parent present), bounded to [0, 1]. */
export function given(share: number, parentShare: number): number {
  return Math.min(1, parentShare > 0 ? share / parentShare : 0);
}

/**
 * Which catalog column each source field feeds; tests check the generated share of every pair
 * against `fill`. Nested role fields are written `roles[0].field`.
 */
export const PERSON_FILL_COLUMNS: Readonly<Record<string, string>> = {
  first_name: 'first_name',
  last_name: 'last_name',
  roles: 'experience',
  'roles[0].title': 'title',
  'roles[0].company_name': 'company',
  'roles[0].company_id': 'company_id',
  'roles[0].company_domain': 'company_domain',
  'roles[0].start_date': 'role_since',
  'roles[0].description': 'job_description',
  email: 'work_email',
  email_status: 'email_status',
  email_verified_at: 'email_verified_month',
  mobile_phone: 'mobile_phone',
  direct_phone: 'direct_phone',
  country: 'country',
  state: 'state',
  city: 'city',
  'job_location.country': 'job_location_country',
  'job_location.state': 'job_location_state',
  'job_location.city': 'job_location_city',
  profile_url: 'network',
  skills: 'skills',
  languages: 'languages',
  personas: 'personas',
  education: 'education',
  certifications: 'certifications',
  social: 'social',
  headline: 'headline',
  summary: 'person_description',
  refreshed_at: 'last_refreshed',
};

export const COMPANY_FILL_COLUMNS: Readonly<Record<string, string>> = {
  website: 'domain',
  profile_url: 'network',
  employee_count: 'employee_count',
  founded_year: 'founded_year',
  revenue_usd: 'revenue_usd',
  funding_rounds: 'last_round_type',
  investors: 'investors',
  industries: 'industries',
  locations: 'locations',
  employee_growth_pct: 'employee_growth_pct',
  specialties: 'specialties',
  technologies: 'technologies',
  entity_type: 'entity_type',
  has_mobile_app: 'has_mobile_app',
  has_web_app: 'has_web_app',
  naics: 'naics_codes',
  sic: 'sic_codes',
  uk_sic: 'uk_industry_codes',
  startup_categories: 'startup_categories',
  followers: 'followers',
  monthly_traffic: 'monthly_traffic',
  monthly_search_adspend: 'monthly_search_adspend',
  employee_profiles: 'employee_profiles',
  valid_email_count: 'valid_email_count',
  headline: 'headline',
  description: 'description',
};
