import type { Account, CreditSnapshot, Plan } from '../account.js';
import type { CreditKind, UsageCategory, WindowUsage } from '../credits.js';
import { type Budget, budgetsFor, USAGE_CATEGORIES, type WindowKind } from './budgets.js';

/** What a store has counted on one budget's counter. */
export interface CounterUsage {
  used: number;
  held: number;
}

/**
 * The budgets an account's snapshot reads: premium's, and contact's (each fair-use category's on an unlimited plan).
 * A store reads their counters (the Redis adapter in one batch), then hands them to `creditSnapshot`.
 */
export function snapshotBudgets(plan: Plan, account: Account, now: Date): Array<{ kind: CreditKind; budget: Budget }> {
  const of = (kind: CreditKind, category: UsageCategory | null) =>
    budgetsFor(plan, account.billingDay, kind, category, now).map((budget) => ({ kind, budget }));
  return [
    ...of('premium', null),
    ...(plan.contact.kind === 'unlimited' ? USAGE_CATEGORIES.flatMap((c) => of('contact', c)) : of('contact', null)),
  ];
}

/** An account's credit snapshot from the usage of each budget's counter: the one shape both state adapters answer. */
export function creditSnapshot(
  plan: Plan,
  account: Account,
  now: Date,
  usage: (kind: CreditKind, budget: Budget) => CounterUsage,
): CreditSnapshot {
  const budgets = (kind: CreditKind, category: UsageCategory | null) =>
    budgetsFor(plan, account.billingDay, kind, category, now);
  const usageOf = (kind: CreditKind, b: Budget): WindowUsage => {
    const u = usage(kind, b);
    return {
      start: b.window === 'pool' ? null : b.start,
      resetsAt: b.resetsAt,
      cap: b.cap,
      used: u.used,
      held: u.held,
    };
  };
  const dayMonth = (bs: Budget[]) => ({
    day: usageOf('contact', byWindow(bs, 'day')),
    month: usageOf('contact', byWindow(bs, 'month')),
  });
  const premium = { month: usageOf('premium', byWindow(budgets('premium', null), 'month')) };
  switch (plan.contact.kind) {
    case 'pool':
      return {
        plan,
        account,
        contact: { kind: 'pool', pool: usageOf('contact', byWindow(budgets('contact', null), 'pool')) },
        premium,
      };
    case 'windows':
      return { plan, account, contact: { kind: 'windows', ...dayMonth(budgets('contact', null)) }, premium };
    case 'unlimited': {
      const categories = Object.fromEntries(
        USAGE_CATEGORIES.map((c) => [c, dayMonth(budgets('contact', c))]),
      ) as Record<UsageCategory, { day: WindowUsage; month: WindowUsage }>;
      return { plan, account, contact: { kind: 'unlimited', categories }, premium };
    }
  }
}

function byWindow(budgets: Budget[], window: WindowKind): Budget {
  const b = budgets.find((x) => x.window === window);
  if (!b) throw new Error(`no ${window} budget`);
  return b;
}
