import type { CreditSnapshot } from '../domain/account.js';
import type { UsageCategory, WindowUsage } from '../domain/credits.js';
import { type Budget, contactExhausted, FAR_FUTURE, remainingOf } from '../domain/quota/index.js';

/**
 * When the contact credit cap that cut a hold of `granted` of `wanted` credits resets (`snapshot` taken with the hold
 * in place): the window chosen as the quota module chooses the binding window of a 402 (the one that resets last
 * among those short); the free pool never resets (far-future). Exports and search pages (page_truncated) use it.
 */
export function creditsCutResetsAt(
  snapshot: CreditSnapshot,
  granted: number,
  wanted: number,
  category: UsageCategory,
): string {
  const windows = windowsOf(snapshot, category);
  const shortfalls = windows
    .map((w) => ({ budget: w.budget, remaining: remainingOf(w.usage) + granted }))
    .filter((s) => s.remaining < wanted);
  const binding = contactExhausted(
    shortfalls.length > 0 ? shortfalls : windows.map((w) => ({ budget: w.budget, remaining: granted })),
    wanted,
  );
  return String(binding.details?.resets_at ?? FAR_FUTURE);
}

/**
 * The contact windows a hold of `category` draws from, as quota budgets (that category's fair-use budget on unlimited
 * plans).
 */
function windowsOf(s: CreditSnapshot, category: UsageCategory): Array<{ budget: Budget; usage: WindowUsage }> {
  const of = (window: Budget['window'], scope: Budget['scope'], w: WindowUsage) => ({
    budget: { window, start: w.start ?? '', resetsAt: w.resetsAt, scope, cap: w.cap },
    usage: w,
  });
  const c = s.contact;
  switch (c.kind) {
    case 'pool':
      return [of('pool', '*', c.pool)];
    case 'windows':
      return [of('day', '*', c.day), of('month', '*', c.month)];
    case 'unlimited':
      return [of('day', category, c.categories[category].day), of('month', category, c.categories[category].month)];
  }
}
