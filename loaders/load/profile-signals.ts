/**
 * Profile signals: the values of the contact column `signals` (career events read off the profile; not the
 * network-signals feature, src/network-signals, which collects engagement), relative to `asOf` (the load's reference
 * time, default now; a fixed asOf makes a
 * load reproducible). Start dates are whole UTC days; a start after asOf is no job change yet.
 * - one_year_at_company: main role started at least 365 days before asOf;
 * - new_in_role_90d:     main role started within the 90 days up to asOf;
 * - recent_job_change:   main role started within the 180 days up to asOf;
 * - founder:             the title of any current role names a founder (classifier);
 * - at_public_company:   the main employer is public (entity type public or a stock ticker).
 */
const DAY_MS = 86_400_000;

export interface ProfileSignalInput {
  /** YYYY-MM-DD start of the main role, or null. */
  mainStart: string | null;
  founder: boolean;
  atPublicCompany: boolean;
}

/** Whole UTC days since 1970 of a valid `YYYY-MM-DD` (days_from_civil; no Date parsing per row). */
export function epochDay(day: string): number {
  let y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7));
  const d = Number(day.slice(8, 10));
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function computeProfileSignals(s: ProfileSignalInput, asOf: Date): string[] {
  const out: string[] = [];
  const now = Math.floor(asOf.getTime() / DAY_MS);
  if (s.mainStart) {
    const start = epochDay(s.mainStart);
    if (start <= now - 365) out.push('one_year_at_company');
    if (start <= now && start >= now - 90) out.push('new_in_role_90d');
    if (start <= now && start >= now - 180) out.push('recent_job_change');
  }
  if (s.founder) out.push('founder');
  if (s.atPublicCompany) out.push('at_public_company');
  return out;
}
