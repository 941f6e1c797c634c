import * as v from 'valibot';
import { creditsView } from '../../domain/quota/index.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';
import { requireAccount } from './get-account.js';

export const getCredits = defineOperation({
  name: 'credits.get',
  family: 'A',
  method: 'GET',
  path: '/v1/credits',
  auth: 'key',
  spends: false,
  summary: 'Credit balances',
  description:
    'Contact credits (caps, used, held, remaining per window, or the free pool) and premium credits (allowance, ' +
    'used, held, available).',
  cost: 'free',
  output: out.obj({
    plan: out.str,
    contact: out.obj({ kind: out.str }),
    premium: out.obj({ allowance: out.num, used: out.num, held: out.num, available: out.num, resets_at: out.str }),
    fair_use: out.nullable(out.fairUse),
  }),
  errors: [],
  input: v.object({}),
  handler: async (ctx) => {
    const account = requireAccount(ctx);
    return { data: creditsView(await ctx.services.state.snapshot(account.id, ctx.now), ctx.now) };
  },
});
