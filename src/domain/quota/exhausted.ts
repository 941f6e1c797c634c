import { AppError } from '../errors/index.js';
import type { Budget } from './budgets.js';

/** A budget a reservation did not fit in. */
export interface Shortfall {
  budget: Budget;
  remaining: number;
}

const WINDOW_WORD = { day: 'daily', month: 'monthly', pool: 'lifetime' } as const;

/**
 * 402 contact_credits.exhausted. When several windows are short the one that resets last binds: a day
 * reset does not help while the month (or the never-resetting pool) is spent.
 */
export function contactExhausted(shortfalls: readonly Shortfall[], required: number): AppError {
  const { budget, remaining } = shortfalls.reduce((a, b) => (b.budget.resetsAt > a.budget.resetsAt ? b : a));
  const left = `${remaining} left, ${required} needed`;
  const what =
    budget.window === 'pool'
      ? `The free plan's lifetime pool of ${budget.cap} contact credits is spent (${left}).`
      : budget.scope === '*'
        ? `The ${WINDOW_WORD[budget.window]} contact credit cap of ${budget.cap} is spent (${left}).`
        : `The ${WINDOW_WORD[budget.window]} fair-use budget of ${budget.cap} ${budget.scope} rows is spent (${left}).`;
  const hint =
    budget.window === 'pool'
      ? 'The free pool never resets; move to a paid plan for more contact credits.'
      : `It resets at ${budget.resetsAt}; ask for fewer rows to use what is left.`;
  return new AppError('contact_credits.exhausted', what, {
    hint,
    details: { binding: budget.window === 'day' ? 'day' : 'month', resets_at: budget.resetsAt },
  });
}

/** 402 premium_credits.exhausted with the spec's details. */
export function premiumExhausted(budget: Budget, available: number, required: number, upgradeUrl: string): AppError {
  return new AppError(
    'premium_credits.exhausted',
    `Not enough premium credits: ${required} needed, ${available} left this month.`,
    {
      hint: `The allowance resets at ${budget.resetsAt}; ask for less, or upgrade at ${upgradeUrl}.`,
      details: { required, available, allowance: budget.cap, resets_at: budget.resetsAt, upgrade_url: upgradeUrl },
    },
  );
}
