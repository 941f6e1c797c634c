import * as v from 'valibot';
import type { UsageCategory } from '../domain/credits.js';
import { quotaBlock, remainingOf } from '../domain/quota/index.js';
import * as out from './outputs.js';
import type { Quote } from './quote.js';
import type { OpContext, Operation } from './types.js';

/**
 * Quotes before paying: every spending operation takes `dry_run: true` and answers what the call would cost now —
 * it holds nothing, charges nothing and starts nothing. The handler runs as usual; where it would move credits
 * (withContactCredits, an export or a collect) it records the quote instead, and invokeOperation answers it.
 */
export const dryRunMember = v.optional(
  v.pipe(
    // A query string (GET routes) carries it as text.
    v.union(
      [
        v.boolean(),
        v.pipe(
          v.picklist(['true', 'false']),
          v.transform((s) => s === 'true'),
        ),
      ],
      'must be true or false',
    ),
    v.description('true: answer what the call would cost now (quote); hold, charge and start nothing.'),
  ),
  false,
);

export const DRY_RUN_NOTE =
  ' dry_run: true answers the cost now (units, credits, available, sufficient) and holds, charges and starts nothing.';

/** A handler found its quote before doing anything it should not do in a dry run (starting a job): stop here. */
export class QuoteReady extends Error {
  constructor() {
    super('dry run answered');
  }
}

/**
 * Contact credits the account can spend now for `category` (on unlimited plans, that category's fair-use
 * budget), and the window that would cut a larger call.
 */
export async function contactAvailable(
  ctx: Pick<OpContext, 'services' | 'account'>,
  category: UsageCategory,
): Promise<{ available: number; binding: string; resets_at: string }> {
  const now = ctx.services.clock.now();
  const snap = await ctx.services.state.snapshot(ctx.account!.id, now);
  const q = quotaBlock(snap, now, 0);
  if (snap.contact.kind !== 'unlimited')
    return { available: q.today_remaining, binding: q.binding, resets_at: q.resets_at };
  const { day, month } = snap.contact.categories[category];
  const [d, m] = [remainingOf(day), remainingOf(month)];
  return d <= m
    ? { available: d, binding: 'day', resets_at: day.resetsAt }
    : { available: m, binding: 'month', resets_at: month.resetsAt };
}

/** Adds to the request's quote (an operation may move credits more than once). */
export function addQuote(ctx: OpContext, q: Quote): void {
  const prev = ctx.quote;
  ctx.quote = prev
    ? {
        ...q,
        units: prev.units + q.units,
        credits: prev.credits + q.credits,
        sufficient: prev.sufficient && q.sufficient,
        ...(prev.cut || q.cut ? { cut: (prev.cut ?? q.cut)! } : {}),
      }
    : q;
}

/** A contact-credit quote of `wanted` units of which `delivered` would be delivered given what is available. */
export function contactQuote(
  credits: Awaited<ReturnType<typeof contactAvailable>>,
  wanted: number,
  delivered: number,
  mode: 'up_to' | 'exact',
): Quote {
  const { available, binding, resets_at } = credits;
  const short = mode === 'exact' ? wanted > available : delivered >= available && wanted > available;
  const charge = mode === 'exact' && short ? 0 : delivered;
  return {
    units: mode === 'exact' && short ? 0 : delivered,
    kind: 'contact',
    credits: charge,
    available,
    sufficient: !short,
    ...(short ? { cut: { binding, resets_at } } : {}),
  };
}

/** The answer's body: family A's `data` and family B's top level. */
export function quoteBody(q: Quote): Record<string, unknown> {
  return {
    dry_run: true,
    units: q.units,
    [q.kind === 'contact' ? 'contact_credits' : 'premium_credits']: q.credits,
    available: q.available,
    sufficient: q.sufficient,
    ...(q.cut ? { binding: q.cut.binding, resets_at: q.cut.resets_at } : {}),
  };
}

/** The output schema of a dry run's answer (checked like every declared output in the test suite). */
export const quoteOutput = out.obj({
  dry_run: out.bool,
  units: out.num,
  contact_credits: v.optional(out.num),
  premium_credits: v.optional(out.num),
  available: out.num,
  sufficient: out.bool,
  binding: v.optional(out.str),
  resets_at: v.optional(out.str),
});

/** A spending operation with `dry_run` in its input schema and its description. */
export function withDryRun<S extends v.GenericSchema>(op: Operation<S>): Operation<S> {
  if (!op.spends) return op;
  const schema = op.input as unknown as { type: string; entries?: v.ObjectEntries };
  if (!schema.entries || 'dry_run' in schema.entries) return op;
  const entries = { ...schema.entries, dry_run: dryRunMember };
  const input =
    schema.type === 'loose_object'
      ? v.looseObject(entries)
      : schema.type === 'strict_object'
        ? v.strictObject(entries)
        : v.object(entries);
  return { ...op, input: input as unknown as S, description: `${op.description}${DRY_RUN_NOTE}` };
}
