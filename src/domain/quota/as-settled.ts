import type { CreditSnapshot } from '../account.js';
import type { UsageCategory, WindowUsage } from '../credits.js';

/** A contact-credit hold of this request whose charge waits for the answer to be written out. */
export interface PendingCharge {
  category: UsageCategory;
  /** Credits held. */
  held: number;
  /** Credits the answer will charge when it is delivered (the rest goes back). */
  charge: number;
}

/**
 * The snapshot as it will be once the answer's pending charges settle as delivered, so the answer's quota block
 * and `creditsRemaining` read as if charged (the store still shows them held until the response is written).
 */
export function asSettled(s: CreditSnapshot, pending: readonly PendingCharge[]): CreditSnapshot {
  if (pending.length === 0) return s;
  const settle = (w: WindowUsage, p: PendingCharge): WindowUsage => ({
    ...w,
    held: Math.max(0, w.held - p.held),
    used: w.used + p.charge,
  });
  let contact = s.contact;
  for (const p of pending) {
    if (contact.kind === 'pool') contact = { kind: 'pool', pool: settle(contact.pool, p) };
    else if (contact.kind === 'windows')
      contact = { kind: 'windows', day: settle(contact.day, p), month: settle(contact.month, p) };
    else {
      const c = contact.categories[p.category];
      contact = {
        kind: 'unlimited',
        categories: { ...contact.categories, [p.category]: { day: settle(c.day, p), month: settle(c.month, p) } },
      };
    }
  }
  return { ...s, contact };
}
