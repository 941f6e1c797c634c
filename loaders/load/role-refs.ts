import type { SourcePerson } from '../dump-format.js';
import type { EmployerRef } from './company-row.js';

/**
 * Company ids a person's roles name that no company of the release has: the row keeps the role's raw name and
 * domain, and the id alone is lost from the columns. Staged beside the row (not a public column), the release keeps
 * them (`role_refs`), so a delta load that adds one of those companies can tell whose rows it would change
 * (src/engine/duckdb/release-writer/delta-base.ts).
 */
export function unresolvedCompanyIds(p: SourcePerson, companies: ReadonlyMap<string, EmployerRef>): string[] | null {
  let out: string[] | null = null;
  for (const r of p.roles ?? []) {
    const id = r.company_id;
    if (!id || companies.has(id) || out?.includes(id)) continue;
    if (out) out.push(id);
    else out = [id];
  }
  return out;
}
