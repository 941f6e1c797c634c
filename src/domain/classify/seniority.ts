import type { PhraseHit } from './phrase-table.js';
import type { RankedLevel, SeniorityCue } from './seniority-rules.js';
import type { Seniority } from './types.js';

const RANK: Readonly<Record<RankedLevel, number>> = {
  entry: 1,
  senior_ic: 2,
  manager: 3,
  director: 4,
  vp: 5,
  c_level: 6,
};

export interface SeniorityResult {
  seniority: Seniority;
  founder: boolean;
}

/**
 * Folds the cues of one title into a level:
 * - a founder, owner or partner role wins over any other level (spec: "A C-level person whose
 *   title names a founder, owner or partner role is founder_or_partner");
 * - otherwise the highest ranked level ("Senior Vice President" -> vp, "Assistant Manager" -> manager);
 * - a plain role with no level word ("Accountant", "Software Engineer") is an entry role, unless
 *   the title only states a status ("Freelance Designer", "Retired");
 * - nothing recognisable is unknown.
 */
export function decideSeniority(hits: readonly PhraseHit<SeniorityCue>[], namesAFunction: boolean): SeniorityResult {
  let founder = false;
  let ownerOrPartner = false;
  let status = false;
  let role = namesAFunction;
  let best: RankedLevel | null = null;
  for (const { value } of hits) {
    if (value === 'founder') founder = true;
    else if (value === 'owner_or_partner') ownerOrPartner = true;
    else if (value === 'status') status = true;
    else if (value === 'role') role = true;
    else if (best === null || RANK[value] > RANK[best]) best = value;
  }
  if (founder || ownerOrPartner) return { seniority: 'founder_or_partner', founder };
  if (best !== null) return { seniority: best, founder: false };
  return { seniority: role && !status ? 'entry' : 'unknown', founder: false };
}
