import * as v from 'valibot';
import { creditsView } from '../../domain/quota/index.js';
import { requireAccount } from '../account/get-account.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';

export const contactsHealthB = defineOperation({
  name: 'b.contacts.health',
  family: 'B',
  method: 'GET',
  path: '/api/v1/contacts/health',
  auth: 'key',
  spends: false,
  summary: 'Contacts health (family B)',
  description: 'Connectivity of the contact store and its approximate record count; no credits.',
  cost: 'free',
  output: out.obj({
    status: out.str,
    approximate_records: out.num,
    companies: out.num,
    data_release: out.nullable(out.str),
  }),
  errors: [],
  input: v.object({}),
  mcp: {
    tool: 'service_contacts_health',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx) => {
    const h = await ctx.services.engine.health();
    return {
      body: {
        status: h.ok ? 'ok' : 'unavailable',
        approximate_records: h.release?.contacts ?? 0,
        companies: h.release?.companies ?? 0,
        data_release: h.release?.id ?? null,
        ...(h.error ? { error: h.error } : {}),
      },
    };
  },
});

/** Next 00:00 UTC after `now`. */
function nextUtcMidnight(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
}

export const fairUseB = defineOperation({
  name: 'b.usage.fair_use',
  family: 'B',
  method: 'GET',
  path: '/api/v1/usage/fair-use',
  auth: 'key',
  spends: false,
  summary: 'Fair-use budget (family B)',
  description:
    'Remaining daily and monthly fair-use budget for search, export and enrich rows on unlimited plans: used, ' +
    'remaining, caps and UTC resets_at (daily reset at the next 00:00 UTC). Other plans answer unlimited: false and ' +
    'their contact credit windows. Free.',
  cost: 'free',
  output: out.obj({
    plan: out.str,
    unlimited: out.bool,
    fair_use: out.nullable(out.fairUse),
    contact_credits: out.nullable(out.obj({ kind: out.str })),
    resets_at: out.str,
  }),
  errors: [],
  input: v.object({}),
  mcp: {
    tool: 'get_fair_use',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx) => {
    const account = requireAccount(ctx);
    const view = creditsView(await ctx.services.state.snapshot(account.id, ctx.now), ctx.now);
    return {
      body: {
        plan: view.plan,
        unlimited: view.fair_use !== null,
        fair_use: view.fair_use,
        contact_credits: view.fair_use === null ? view.contact : null,
        resets_at: nextUtcMidnight(ctx.now),
      },
    };
  },
});
