import type { CreditSnapshot } from '../account.js';
import type { UsageCategory, WindowUsage } from '../credits.js';
import { type Binding, bindingWindow } from './binding.js';
import { pacedOf, remainingOf } from './window-usage.js';

/** One window as `GET /v1/credits` shows it; `remaining` is this window's own (cap - used - held, >= 0). */
export interface WindowView {
  cap: number;
  used: number;
  held: number;
  remaining: number;
  /** null for the free pool, which has no window. */
  starts_at: string | null;
  resets_at: string;
}

export interface CreditsView {
  plan: string;
  contact:
    | { kind: 'pool'; pool: WindowView }
    | { kind: 'windows'; day: WindowView; month: WindowView; binding: Binding }
    /** No contact cap: the limits are in `fair_use`. */
    | { kind: 'unlimited' };
  premium: { allowance: number; used: number; held: number; available: number; resets_at: string };
  /** Unlimited plans only: daily and monthly fair-use budget per category. */
  fair_use: Record<UsageCategory, { day: WindowView; month: WindowView }> | null;
}

/** The JSON payload of `GET /v1/credits`. */
export function creditsView(snapshot: CreditSnapshot, now: Date): CreditsView {
  const c = snapshot.contact;
  const p = snapshot.premium.month;
  const premium = { allowance: p.cap, used: p.used, held: p.held, available: remainingOf(p), resets_at: p.resetsAt };
  const base = { plan: snapshot.plan.slug };
  switch (c.kind) {
    case 'pool':
      return { ...base, contact: { kind: 'pool', pool: view(c.pool) }, premium, fair_use: null };
    case 'windows':
      return {
        ...base,
        contact: {
          kind: 'windows',
          day: view(c.day),
          month: view(c.month),
          binding: bindingWindow(pacedOf(c.day), pacedOf(c.month), now),
        },
        premium,
        fair_use: null,
      };
    case 'unlimited': {
      const fairUse = {} as Record<UsageCategory, { day: WindowView; month: WindowView }>;
      for (const [cat, w] of Object.entries(c.categories) as [
        UsageCategory,
        { day: WindowUsage; month: WindowUsage },
      ][]) {
        fairUse[cat] = { day: view(w.day), month: view(w.month) };
      }
      return { ...base, contact: { kind: 'unlimited' }, premium, fair_use: fairUse };
    }
  }
}

function view(w: WindowUsage): WindowView {
  return {
    cap: w.cap,
    used: w.used,
    held: w.held,
    remaining: remainingOf(w),
    starts_at: w.start,
    resets_at: w.resetsAt,
  };
}
