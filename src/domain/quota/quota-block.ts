import type { CreditSnapshot } from '../account.js';
import type { UsageCategory, WindowUsage } from '../credits.js';
import { type Binding, bindingWindow } from './binding.js';
import { pacedOf, remainingOf, tightest } from './window-usage.js';
import { FAR_FUTURE } from './windows.js';

/** The spec's Quota block; field names and order are frozen. */
export interface Quota {
  plan: string;
  contact_credits_used: number;
  month_remaining: number;
  today_remaining: number;
  binding: Binding;
  resets_at: string;
}

/**
 * The Quota block of a response that spent `spent` contact credits.
 * - Free plan: both remainings are the pool's, binding month, resets_at far-future (spec).
 * - Paid plans: today_remaining is what can still be spent today, so it never exceeds month_remaining;
 *   binding follows `bindingWindow` and resets_at is that window's reset.
 * - Unlimited plans: there is no contact cap, so the block reports the fair-use budgets: for each window
 *   the smallest remaining among search, export and enrich, and binding over those two tightest windows.
 */
export function quotaBlock(snapshot: CreditSnapshot, now: Date, spent: number): Quota {
  const c = snapshot.contact;
  if (c.kind === 'pool') {
    const left = remainingOf(c.pool);
    return quota(snapshot, spent, left, left, 'month', FAR_FUTURE);
  }
  const { day, month } = c.kind === 'windows' ? c : tightestFairUse(c.categories);
  const binding = bindingWindow(pacedOf(day), pacedOf(month), now);
  const monthLeft = remainingOf(month);
  return quota(
    snapshot,
    spent,
    monthLeft,
    Math.min(remainingOf(day), monthLeft),
    binding,
    (binding === 'day' ? day : month).resetsAt,
  );
}

function quota(
  s: CreditSnapshot,
  spent: number,
  month: number,
  today: number,
  binding: Binding,
  resetsAt: string,
): Quota {
  return {
    plan: s.plan.slug,
    contact_credits_used: spent,
    month_remaining: month,
    today_remaining: today,
    binding,
    resets_at: resetsAt,
  };
}

function tightestFairUse(categories: Record<UsageCategory, { day: WindowUsage; month: WindowUsage }>): {
  day: WindowUsage;
  month: WindowUsage;
} {
  const all = Object.values(categories);
  return { day: tightest(all.map((c) => c.day)), month: tightest(all.map((c) => c.month)) };
}
