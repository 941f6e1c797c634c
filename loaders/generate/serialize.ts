import type { SourceCompany, SourcePerson } from '../dump-format.js';

/** CSV column order; the header row names exactly these fields. */
export const PERSON_FIELDS: ReadonlyArray<keyof SourcePerson> = [
  'person_id',
  'full_name',
  'first_name',
  'last_name',
  'headline',
  'summary',
  'email',
  'email_status',
  'email_verified_at',
  'mobile_phone',
  'direct_phone',
  'country',
  'state',
  'city',
  'job_location',
  'profile_url',
  'skills',
  'languages',
  'personas',
  'certifications',
  'education',
  'roles',
  'social',
  'updated_at',
  'refreshed_at',
];

export const COMPANY_FIELDS: ReadonlyArray<keyof SourceCompany> = [
  'company_id',
  'name',
  'website',
  'profile_url',
  'employee_count',
  'founded_year',
  'revenue_usd',
  'industries',
  'locations',
  'funding_rounds',
  'investors',
  'technologies',
  'entity_type',
  'has_mobile_app',
  'has_web_app',
  'naics',
  'sic',
  'uk_sic',
  'startup_categories',
  'followers',
  'monthly_traffic',
  'employee_growth_pct',
  'monthly_search_adspend',
  'employee_profiles',
  'valid_email_count',
  'specialties',
  'headline',
  'description',
  'stock_ticker',
];

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180 cell: quoted when it holds a comma, quote or line break; quotes doubled. */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvHeader(fields: readonly string[]): string {
  return fields.join(',');
}

/** One CSV row; lists and nested records are JSON text in their cell, missing values empty. */
export function csvRow(record: object, fields: readonly string[]): string {
  const r = record as Record<string, unknown>;
  // join() yields one flat string; `+=` would keep a rope of every cell alive until the chunk is written.
  return fields.map((f) => csvCell(r[f])).join(',');
}
