/**
 * Field kinds of the source dump records (loaders/dump-format.ts), used to type CSV cells and to
 * validate every row. Fields not listed are ignored by the loader.
 */
export type FieldKind = 'string' | 'number' | 'boolean' | 'strings' | 'object' | 'objects';

export const PERSON_FIELDS: Readonly<Record<string, FieldKind>> = {
  person_id: 'string',
  full_name: 'string',
  first_name: 'string',
  last_name: 'string',
  headline: 'string',
  summary: 'string',
  email: 'string',
  email_status: 'string',
  email_verified_at: 'string',
  mobile_phone: 'string',
  direct_phone: 'string',
  country: 'string',
  state: 'string',
  city: 'string',
  job_location: 'object',
  profile_url: 'string',
  skills: 'strings',
  languages: 'strings',
  personas: 'strings',
  certifications: 'objects',
  education: 'objects',
  roles: 'objects',
  social: 'object',
  updated_at: 'string',
  refreshed_at: 'string',
};

export const ROLE_FIELDS: Readonly<Record<string, FieldKind>> = {
  title: 'string',
  company_id: 'string',
  company_name: 'string',
  company_domain: 'string',
  start_date: 'string',
  is_primary: 'boolean',
  description: 'string',
};

export const COMPANY_FIELDS: Readonly<Record<string, FieldKind>> = {
  company_id: 'string',
  name: 'string',
  website: 'string',
  profile_url: 'string',
  employee_count: 'number',
  founded_year: 'number',
  revenue_usd: 'number',
  industries: 'strings',
  locations: 'objects',
  funding_rounds: 'objects',
  investors: 'strings',
  technologies: 'strings',
  entity_type: 'string',
  has_mobile_app: 'boolean',
  has_web_app: 'boolean',
  naics: 'objects',
  sic: 'objects',
  uk_sic: 'objects',
  startup_categories: 'strings',
  followers: 'number',
  monthly_traffic: 'number',
  employee_growth_pct: 'number',
  monthly_search_adspend: 'number',
  employee_profiles: 'number',
  valid_email_count: 'number',
  specialties: 'strings',
  headline: 'string',
  description: 'string',
  stock_ticker: 'string',
};

/** Fields of the objects inside object and object-list fields. */
export const NESTED_FIELDS: Readonly<Record<string, Readonly<Record<string, FieldKind>>>> = {
  roles: ROLE_FIELDS,
  job_location: { country: 'string', state: 'string', city: 'string' },
  certifications: { name: 'string', authority: 'string', year: 'number' },
  education: { school: 'string', degree: 'string', field: 'string', end_year: 'number' },
  locations: {
    street: 'string',
    postcode: 'string',
    city: 'string',
    state: 'string',
    country: 'string',
    is_hq: 'boolean',
  },
  funding_rounds: { type: 'string', date: 'string', amount_usd: 'number' },
  naics: { code: 'string', description: 'string' },
  sic: { code: 'string', description: 'string' },
  uk_sic: { code: 'string', description: 'string' },
};
