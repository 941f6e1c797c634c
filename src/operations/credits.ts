import type { Hold, UsageCategory } from '../domain/credits.js';
import { AppError } from '../domain/errors/index.js';
import type { UsageLine } from '../domain/usage-lines.js';
import { addQuote, contactAvailable, contactQuote, QuoteReady } from './dry-run.js';
import type { OpContext } from './types.js';

/**
 * The one place operations move contact credits (ARCHITECTURE rules 3 and 5): hold what may be delivered,
 * deliver, then charge exactly what was delivered and return the rest. Any failure in between releases the
 * hold, so a failed request is never charged; the charge itself waits for the answer to reach the client.
 */
export async function withContactCredits<T>(
  ctx: OpContext,
  category: UsageCategory,
  wanted: number,
  /**
   * Delivers up to `granted` (the hold's id beside it, null for a quote). A deliverer that commits the hold in its
   * own atomic step (a signal batch written with its charge) answers the settled hold as `settled`: nothing is left
   * to settle with the answer.
   */
  deliver: (granted: number, holdId: string | null) => Promise<{ result: T; delivered: number; settled?: Hold }>,
  mode: 'up_to' | 'exact' = 'up_to',
  /** The usage chart's line when it is not the category (lookups, signals). */
  line?: UsageLine,
): Promise<T> {
  const account = ctx.account;
  if (!account) throw new AppError('auth.invalid_key');
  const state = ctx.services.state;
  if (ctx.dryRun) {
    // A quote: deliver what the credits left would allow, to learn the units, and move nothing.
    const credits = await contactAvailable(ctx, category);
    const granted = mode === 'exact' ? wanted : Math.min(wanted, credits.available);
    if ((mode === 'exact' && wanted > credits.available) || granted === 0) {
      addQuote(ctx, contactQuote(credits, wanted, 0, mode));
      throw new QuoteReady();
    }
    const { result, delivered } = await deliver(granted, null);
    addQuote(ctx, contactQuote(credits, wanted, Math.min(delivered, granted), mode));
    return result;
  }
  const leases = ctx.services.holdLeases;
  // exact: all or nothing (the store raises 402 itself); up_to: the store grants what is left. The hold carries
  // this process's lease until it settles, so no other process takes it for an orphan.
  const hold = await state.reserve({
    accountId: account.id,
    kind: 'contact',
    category,
    amount: wanted,
    mode,
    now: ctx.now,
    leaseUntil: leases.leaseUntil(),
    ...(line ? { line } : {}),
  });
  leases.track(hold.id);
  const settle = (charge: number | null) => leases.settle(hold.id, charge, ctx.now);
  if (hold.amount === 0 && wanted > 0) {
    await settle(null);
    throw await exhaustedError(ctx, category);
  }
  let settled = false;
  try {
    const { result, delivered, settled: committed } = await deliver(hold.amount, hold.id);
    if (committed) {
      // Charged in the deliverer's own step: the lease ends, the metrics count it.
      leases.untrack(hold.id);
      leases.onCharged(committed);
      settled = true;
      ctx.spent += committed.charged;
      return result;
    }
    const charge = Math.min(delivered, hold.amount);
    // Charged once the answer is written out; released if the client is gone before (the face settles).
    ctx.settlement.add({
      charge: { category, held: hold.amount, charge },
      delivered: () => settle(charge),
      undelivered: () => settle(null),
    });
    settled = true;
    ctx.spent += charge;
    return result;
  } finally {
    if (!settled) await settle(null);
  }
}

/** The store's own 402 with binding and resets_at: asking it for one credit in exact mode raises it. */
async function exhaustedError(ctx: OpContext, category: UsageCategory): Promise<AppError> {
  let probe: Hold | undefined;
  try {
    probe = await ctx.services.state.reserve({
      accountId: ctx.account!.id,
      kind: 'contact',
      category,
      amount: 1,
      mode: 'exact',
      now: ctx.now,
    });
  } catch (e) {
    return e as AppError;
  }
  await ctx.services.state.releaseHold(probe.id, ctx.now);
  return new AppError('contact_credits.exhausted', 'No contact credits are left.');
}
