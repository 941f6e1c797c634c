import { asSettled, quotaBlock } from '../../domain/quota/index.js';
import type { OpContext } from '../types.js';

/** Family B `creditsRemaining`: contact credits spendable now (the tighter window); null on unlimited plans. */
export async function creditsRemaining(ctx: OpContext): Promise<number | null> {
  const account = ctx.account;
  if (!account) return null;
  const snap = asSettled(
    await ctx.services.state.snapshot(account.id, ctx.services.clock.now()),
    ctx.settlement.charges(),
  );
  if (snap.plan.contact.kind === 'unlimited') return null;
  return quotaBlock(snap, ctx.services.clock.now(), 0).today_remaining;
}
