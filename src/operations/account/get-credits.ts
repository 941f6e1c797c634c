import * as v from 'valibot';
import { creditsView } from '../../domain/quota/index.js';
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
  description: 'Contact credits (caps, used, held, remaining per window, or the free pool) and premium credits (allowance, used, held, available).',
  cost: 'free',
  input: v.object({}),
  handler: async (ctx) => {
    const account = requireAccount(ctx);
    return { data: creditsView(ctx.services.state.snapshot(account.id, ctx.now), ctx.now) };
  },
});
