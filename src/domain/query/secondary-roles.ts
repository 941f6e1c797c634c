/**
 * `include_secondary_roles: true` widens the include keys on these main-role columns to the
 * person's other current roles: main column leaf OR the same values on the secondary list column.
 * Exclusions (`exclude_*`) stay on the main role only: the row shows the main role, and a person
 * whose shown role passes an exclusion should not vanish because of a side role.
 */
const SECONDARY_COLUMN: Readonly<Record<string, string>> = {
  title: 'secondary_titles',
  function: 'secondary_functions',
  seniority: 'secondary_seniorities',
  company_domain: 'secondary_domains',
  company_name_norm: 'secondary_company_names',
  company_id: 'secondary_company_ids',
};

/** The secondary-role list column of a contact main-role column, if it has one. */
export function secondaryColumn(mainColumn: string): string | undefined {
  return Object.hasOwn(SECONDARY_COLUMN, mainColumn) ? SECONDARY_COLUMN[mainColumn] : undefined;
}
