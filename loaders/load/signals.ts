/**
 * Computed signals, relative to `asOf` (the load's reference time, default now; a fixed asOf makes a
 * load reproducible). Start dates are whole UTC days; a start after asOf is no job change yet.
 * - one_year_at_company: main role started at least 365 days before asOf;
 * - new_in_role_90d:     main role started within the 90 days up to asOf;
 * - recent_job_change:   main role started within the 180 days up to asOf;
 * - founder:             the title of any current role names a founder (classifier);
 * - at_public_company:   the main employer is public (entity type public or a stock ticker).
 */
const DAY_MS = 86_400_000;

export interface SignalInput {
  /** YYYY-MM-DD start of the main role, or null. */
  mainStart: string | null;
  founder: boolean;
  atPublicCompany: boolean;
}

export function computeSignals(s: SignalInput, asOf: Date): string[] {
  const out: string[] = [];
  const now = Date.UTC(asOf.getUTCFullYear(), asOf.getUTCMonth(), asOf.getUTCDate());
  if (s.mainStart) {
    const start = Date.parse(`${s.mainStart}T00:00:00Z`);
    if (start <= now - 365 * DAY_MS) out.push('one_year_at_company');
    if (start <= now && start >= now - 90 * DAY_MS) out.push('new_in_role_90d');
    if (start <= now && start >= now - 180 * DAY_MS) out.push('recent_job_change');
  }
  if (s.founder) out.push('founder');
  if (s.atPublicCompany) out.push('at_public_company');
  return out;
}
