import * as v from 'valibot';
import type { Account, Plan } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import * as out from '../outputs.js';
import { defineOperation, type OpContext } from '../types.js';

export function requireAccount(ctx: OpContext): Account {
  if (!ctx.account) throw new AppError('auth.invalid_key');
  return ctx.account;
}

/** Plan caps as the account route shows them (the quota block names only the slug). */
export function planView(plan: Plan) {
  const c = plan.contact;
  return {
    slug: plan.slug,
    name: plan.name,
    contact_credits:
      c.kind === 'pool'
        ? { kind: 'lifetime_pool', pool: c.pool }
        : c.kind === 'windows'
          ? { kind: 'windows', daily_cap: c.daily, monthly_cap: c.monthly }
          : { kind: 'unlimited', fair_use: c.fairUse },
    premium_credits_monthly: plan.premiumMonthly,
    alerts: plan.alerts,
    max_active_alerts: plan.maxActiveAlerts,
  };
}

export const getAccount = defineOperation({
  name: 'account.get',
  family: 'A',
  method: 'GET',
  path: '/v1/account',
  auth: 'key',
  spends: false,
  summary: 'Get account',
  description: 'The account behind the API key: plan and its caps, billing day, status.',
  cost: 'free',
  output: out.accountOutput,
  errors: [],
  input: v.object({}),
  handler: async (ctx) => {
    const account = requireAccount(ctx);
    const plan = ctx.services.state.getPlan(account.plan);
    return {
      data: {
        id: account.id,
        name: account.name,
        status: account.status,
        billing_day: account.billingDay,
        created_at: account.createdAt,
        plan: plan ? planView(plan) : { slug: account.plan },
      },
    };
  },
});
