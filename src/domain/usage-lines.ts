import type { CreditKind, UsageCategory } from './credits.js';

/**
 * The lines of the console's usage chart: what credits were spent on. Finer than the fair-use categories (a phone or
 * colleague lookup holds under `search` or `enrich` but is its own line) and covering premium credits (`signals`).
 */
export type UsageLine = 'search' | 'export' | 'enrich' | 'lookups' | 'signals';
export const USAGE_LINES: readonly UsageLine[] = ['search', 'export', 'enrich', 'lookups', 'signals'];

/** Credits of one kind charged on one UTC day for one line (the store adds to it as holds settle). */
export interface DailyUsage {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  kind: CreditKind;
  line: UsageLine;
  credits: number;
}

/** The line of a hold that names none: premium credits are signals; contact credits follow their category. */
export function lineOf(kind: CreditKind, category: UsageCategory | null, line?: UsageLine | null): UsageLine {
  if (line) return line;
  if (kind === 'premium') return 'signals';
  return category ?? 'search';
}

/** The UTC day (YYYY-MM-DD) of an instant. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
