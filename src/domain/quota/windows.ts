/**
 * Credit windows (spec "Quota"): the UTC day, the billing month, and the free plan's pool, which has no
 * window at all. Pure: every function takes `now` from the caller's injected clock (ARCHITECTURE rule 8).
 */

/** The spec's reset time of a window that never resets (the free plan's lifetime pool). */
export const FAR_FUTURE = '9999-12-31T23:59:59.000Z';

export interface CreditWindow {
  /** Inclusive start. */
  start: Date;
  /** Exclusive end, which is also when the window resets. */
  resetsAt: Date;
}

const DAY_MS = 86_400_000;

/** The UTC day holding `now`: [00:00, next 00:00). */
export function dayWindow(now: Date): CreditWindow {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { start: new Date(start), resetsAt: new Date(start + DAY_MS) };
}

/**
 * The billing month holding `now`: it starts at 00:00 UTC on `billingDay` and runs to the same day of the
 * next month. A null billingDay (no subscription) is the UTC calendar month. Accounts only take days 1-28,
 * so every month has the day; the clamp to a short month's last day keeps the function total anyway.
 */
export function billingMonthWindow(now: Date, billingDay: number | null): CreditWindow {
  const day = billingDay ?? 1;
  if (!Number.isInteger(day) || day < 1 || day > 31) throw new RangeError(`billingDay must be 1-31, got ${billingDay}`);
  const year = now.getUTCFullYear();
  let month = now.getUTCMonth();
  if (now.getTime() < monthStart(year, month, day)) month -= 1;
  return { start: new Date(monthStart(year, month, day)), resetsAt: new Date(monthStart(year, month + 1, day)) };
}

/** 00:00 UTC on `day` of month `month0` (may overflow into the next or previous year), clamped to the month. */
function monthStart(year: number, month0: number, day: number): number {
  const first = new Date(Date.UTC(year, month0, 1));
  const y = first.getUTCFullYear();
  const m = first.getUTCMonth();
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(day, lastDay));
}
