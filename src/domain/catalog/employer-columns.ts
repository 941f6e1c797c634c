import { COMPANY_COLUMNS, CONTACT_COLUMNS } from './index.js';

/**
 * Which contact columns are copied from the employer's `companies` row (denormalization happens in one
 * SQL join), and from which company column. Contact `company_X` reads company `X` unless renamed below;
 * the rest of the contact columns are computed per person. Derived from the catalog, so a new
 * `company_*` column is copied without touching the loader, and a column with no source fails fast.
 */

/**
 * company_* contact columns the person row computes itself (display name, id and domain fall back to the role's raw
 * values).
 */
const PERSON_LEVEL = new Set(['company', 'company_id', 'company_domain', 'company_name_norm']);

const RENAMED: Readonly<Record<string, string>> = {
  company_size: 'headcount_band',
  company_industries: 'industries',
  company_revenue: 'revenue_range',
  company_network: 'network',
  company_network_slug: 'network_slug',
};

/** Columns filled in SQL after staging, not by the person row. */
const SQL_COLUMNS = new Set(['sort_key']);

const companyNames = new Set(COMPANY_COLUMNS.map((c) => c.name));

function employerSource(contactColumn: string): string | undefined {
  if (PERSON_LEVEL.has(contactColumn) || !contactColumn.startsWith('company')) return undefined;
  const source = RENAMED[contactColumn] ?? contactColumn.slice('company_'.length);
  if (!companyNames.has(source))
    throw new Error(`catalog: contact column ${contactColumn} has no company column ${source} to copy from`);
  return source;
}

/** contact column -> company column, for every employer-copied column. */
export const EMPLOYER_COLUMNS: ReadonlyMap<string, string> = new Map(
  CONTACT_COLUMNS.flatMap((c) => {
    const s = employerSource(c.name);
    return s ? [[c.name, s] as const] : [];
  }),
);

/** Contact columns the person row carries (staged before the join), in catalog order. */
export const PERSON_COLUMNS = CONTACT_COLUMNS.filter((c) => !EMPLOYER_COLUMNS.has(c.name) && !SQL_COLUMNS.has(c.name));

/** Company columns the company row carries (contact_count and sort_key are computed in SQL). */
export const COMPANY_ROW_COLUMNS = COMPANY_COLUMNS.filter(
  (c) => c.name !== 'contact_count' && !SQL_COLUMNS.has(c.name),
);
