/**
 * Credits: the two kinds, the fair-use categories, the usage of a window and the holds every credit movement goes
 * through (reserve -> commit | release, atomically in the state store). An account's snapshot is in account.ts.
 */

export type CreditKind = 'contact' | 'premium';
/** Fair-use categories of unlimited plans. */
export type UsageCategory = 'search' | 'export' | 'enrich';

/** Usage of one credit kind (and category, for fair use) in the windows that apply now. */
export interface WindowUsage {
  /** Window start and reset, RFC 3339 UTC; the free pool has start null and reset far-future. */
  start: string | null;
  resetsAt: string;
  cap: number;
  used: number;
  held: number;
}

export interface Hold {
  id: string;
  accountId: string;
  kind: CreditKind;
  category: UsageCategory | null;
  amount: number;
  status: 'held' | 'committed' | 'released';
  charged: number;
  createdAt: string;
  /** When the hold was committed or released; null while held. */
  settledAt: string | null;
}
