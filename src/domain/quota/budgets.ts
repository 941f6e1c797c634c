import type { Plan } from '../account.js';
import type { CreditKind, UsageCategory } from '../credits.js';
import { billingMonthWindow, dayWindow, FAR_FUTURE } from './windows.js';

export const USAGE_CATEGORIES: readonly UsageCategory[] = ['search', 'export', 'enrich'];

export type WindowKind = 'pool' | 'day' | 'month';
/** A counter covers one fair-use category, or every category ('*', the plan-wide counter). */
export type BudgetScope = UsageCategory | '*';

/** One capped counter a reservation must fit in. */
export interface Budget {
  window: WindowKind;
  /** Window start (RFC 3339 UTC); '' for the pool, which has no window. */
  start: string;
  resetsAt: string;
  /** The counter that carries the cap. */
  scope: BudgetScope;
  cap: number;
}

/**
 * The budgets a reservation of `kind` must fit in now: premium -> the billing month; contact -> the pool
 * (free), day + month plan-wide (paid), or day + month of the category's fair-use budget (unlimited).
 */
export function budgetsFor(
  plan: Plan,
  billingDay: number | null,
  kind: CreditKind,
  category: UsageCategory | null,
  now: Date,
): Budget[] {
  const day = dayWindow(now);
  const month = billingMonthWindow(now, billingDay);
  const dayOf = (scope: BudgetScope, cap: number): Budget => ({
    window: 'day',
    start: day.start.toISOString(),
    resetsAt: day.resetsAt.toISOString(),
    scope,
    cap,
  });
  const monthOf = (scope: BudgetScope, cap: number): Budget => ({
    window: 'month',
    start: month.start.toISOString(),
    resetsAt: month.resetsAt.toISOString(),
    scope,
    cap,
  });

  if (kind === 'premium') return [monthOf('*', plan.premiumMonthly)];
  const c = plan.contact;
  switch (c.kind) {
    case 'pool':
      return [{ window: 'pool', start: '', resetsAt: FAR_FUTURE, scope: '*', cap: c.pool }];
    case 'windows':
      return [dayOf('*', c.daily), monthOf('*', c.monthly)];
    case 'unlimited': {
      // A programming error, not bad input: every contact-spending operation names its category.
      if (category === null)
        throw new TypeError(`plan ${plan.slug} meters contact credits per category; the reservation has none`);
      const fu = c.fairUse[category];
      return [dayOf(category, fu.daily), monthOf(category, fu.monthly)];
    }
  }
}
