import * as v from 'valibot';
import type { Account } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import type { StateStore } from '../../state/port.js';
import { planView } from '../account/get-account.js';
import * as out from '../outputs.js';
import { intParam, text } from '../schemas.js';
import { defineOperation, type OpContext } from '../types.js';

/**
 * Operator routes (the console's sign-in): create, show, suspend and resume accounts. They take the operator
 * token (CDS_ADMIN_TOKEN) and answer 403 auth.oauth_required to an API key.
 */
/** An account as the API shows it (GET /v1/account, the operator routes, `cds accounts`): with its plan's caps. */
export function accountView(state: Pick<StateStore, 'getPlan'>, a: Account) {
  const plan = state.getPlan(a.plan);
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    billing_day: a.billingDay,
    created_at: a.createdAt,
    plan: plan ? planView(plan) : { slug: a.plan },
  };
}

async function mustGet(ctx: OpContext, id: string): Promise<Account> {
  const a = await ctx.services.state.getAccount(id);
  if (!a) throw new AppError('account.not_found', `No account ${id}.`, { field: 'id' });
  return a;
}

export const adminCreateAccount = defineOperation({
  name: 'admin.accounts.create',
  family: 'system',
  method: 'POST',
  path: '/v1/admin/accounts',
  auth: 'operator',
  spends: false,
  summary: 'Create account (operator)',
  description: 'Creates an account on a plan with its first API key, returned once.',
  cost: 'free',
  output: out.obj({ ...out.accountOutput.entries, api_key: out.str }),
  errors: [],
  input: v.object({
    plan: text('Plan slug.', 50),
    name: v.optional(text('Account name.', 200)),
    billing_day: v.optional(v.nullable(intParam(1, 28, 'Day of month the billing month starts.'))),
  }),
  handler: async (ctx, input) => {
    if (!ctx.services.state.getPlan(input.plan)) {
      throw new AppError('request.invalid', `Unknown plan ${input.plan}.`, {
        field: 'plan',
        hint: `Plans: ${ctx.services.state
          .listPlans()
          .map((p) => p.slug)
          .join(', ')}.`,
      });
    }
    const account = await ctx.services.state.createAccount({
      name: input.name ?? 'account',
      plan: input.plan,
      billingDay: input.billing_day ?? null,
      now: ctx.now,
    });
    const { secret } = await ctx.services.state.createKey(account.id, { name: 'default', now: ctx.now });
    return { status: 201, data: { ...accountView(ctx.services.state, account), api_key: secret } };
  },
});

export const adminGetAccount = defineOperation({
  name: 'admin.accounts.get',
  family: 'system',
  method: 'GET',
  path: '/v1/admin/accounts/:id',
  auth: 'operator',
  spends: false,
  summary: 'Show account (operator)',
  description: 'One account with its plan.',
  cost: 'free',
  output: out.accountOutput,
  errors: ['account.not_found'],
  input: v.object({ id: text('Account id.', 100) }),
  handler: async (ctx, input) => ({ data: accountView(ctx.services.state, await mustGet(ctx, input.id)) }),
});

function statusOperation(action: 'suspend' | 'resume') {
  return defineOperation({
    name: `admin.accounts.${action}`,
    family: 'system',
    method: 'POST',
    path: `/v1/admin/accounts/:id/${action}`,
    auth: 'operator',
    spends: false,
    summary: `${action === 'suspend' ? 'Suspend' : 'Resume'} account (operator)`,
    description:
      action === 'suspend'
        ? 'Suspends at once: spending calls answer 403 account.suspended; free reads keep working.'
        : 'Restores access after a suspension.',
    cost: 'free',
    output: out.accountOutput,
    errors: ['account.not_found'],
    input: v.object({ id: text('Account id.', 100) }),
    handler: async (ctx, input) => {
      await mustGet(ctx, input.id);
      return {
        data: accountView(
          ctx.services.state,
          await ctx.services.state.setAccountStatus(input.id, action === 'suspend' ? 'suspended' : 'active'),
        ),
      };
    },
  });
}

export const adminSuspendAccount = statusOperation('suspend');
export const adminResumeAccount = statusOperation('resume');
