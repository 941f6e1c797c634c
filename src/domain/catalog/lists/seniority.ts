import type { ClosedList } from '../types.js';

/** Seniority (frozen). Family B labels map several slugs to one label (see familyBSeniority). */
export const SENIORITY: ClosedList = {
  name: 'seniority',
  description: 'Seniority of the current main role, derived from the title.',
  values: [
    { slug: 'c_level', label: 'C-level', aliases: ['c-level', 'c level', 'chief', 'c-suite', 'executive'] },
    { slug: 'vp', label: 'VP', aliases: ['vice president', 'svp', 'evp'] },
    { slug: 'director', label: 'Director' },
    { slug: 'manager', label: 'Manager' },
    { slug: 'senior_ic', label: 'Senior individual contributor', aliases: ['senior'] },
    { slug: 'entry', label: 'Entry level', aliases: ['junior', 'entry level'] },
    { slug: 'founder_or_partner', label: 'Founder or partner', aliases: ['founder', 'owner', 'partner'] },
    { slug: 'unknown', label: 'Unknown' },
  ],
};
