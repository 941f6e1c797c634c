import type { CompanyRef, Employers } from './context.js';
import { Weighted } from './weighted.js';

/** Big companies hold more contacts, sub-linearly, as in a real database (weight = headcount^0.6). */
export function buildEmployers(refs: CompanyRef[]): Employers {
  return {
    refs,
    byHeadcount:
      refs.length > 0 ? new Weighted(refs.map((r) => [r, Math.min(r.employees, 50_000) ** 0.6] as const)) : null,
    publicOnes: refs.filter((r) => r.isPublic),
    small: refs.filter((r) => r.employees <= 50),
    withPhones: refs.filter((r) => r.switchboard !== null),
  };
}
