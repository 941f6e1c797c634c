import type { EnrichInput } from '../normalize/index.js';

/** A stored contact as the matcher needs it (plus whatever columns the caller asked for). */
export interface Candidate {
  id: string;
  work_email: string | null;
  network_slug: string | null;
  mobile_phone: string | null;
  direct_phone: string | null;
  last_updated: string;
  company_domain: string | null;
  [column: string]: unknown;
}

export type MatchOutcome =
  | { kind: 'invalid' }
  | { kind: 'miss' }
  | { kind: 'ambiguous' }
  | { kind: 'off_domain'; contact: Candidate }
  | { kind: 'match'; contact: Candidate; duplicate?: 'work_email' | 'network' };

/** Later last_updated wins; the id breaks ties so the choice is stable. */
function newest(rows: Candidate[]): Candidate {
  return rows.reduce((a, b) =>
    b.last_updated > a.last_updated || (b.last_updated === a.last_updated && b.id < a.id) ? b : a,
  );
}

/**
 * Exact matching of one classified input (spec "POST /enrichments"): email on work_email, profile slug on
 * network_slug (a shared one: later last_updated wins, flagged as a duplicate), phone on mobile or direct
 * phone (several contacts sharing it: ambiguous, decided before company_domain); then the optional domain.
 */
export function matchInput(input: EnrichInput, rows: readonly Candidate[], companyDomain: string | null): MatchOutcome {
  if (input.kind === 'invalid') return { kind: 'invalid' };
  let found: Candidate[];
  let duplicate: 'work_email' | 'network' | undefined;
  if (input.kind === 'phone') {
    found = rows.filter((r) => r.mobile_phone === input.value || r.direct_phone === input.value);
    if (found.length > 1) return { kind: 'ambiguous' };
  } else if (input.kind === 'email') {
    found = rows.filter((r) => r.work_email === input.value);
    if (found.length > 1) duplicate = 'work_email';
  } else {
    found = rows.filter((r) => r.network_slug === input.value);
    if (found.length > 1) duplicate = 'network';
  }
  if (found.length === 0) return { kind: 'miss' };
  const contact = newest(found);
  if (companyDomain !== null && contact.company_domain !== companyDomain) return { kind: 'off_domain', contact };
  return duplicate ? { kind: 'match', contact, duplicate } : { kind: 'match', contact };
}
