import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { maxFollowersMissingWarning, planCollect } from '../../network-signals/plan.js';
import type { AlertPatch, AlertRecord } from '../../network-signals/port.js';
import { nextSlot } from '../../network-signals/schedule.js';
import { parseSignalTarget } from '../../network-signals/target.js';
import { requireAccount } from '../account/get-account.js';
import { addQuote, QuoteReady } from '../dry-run.js';
import * as out from '../outputs.js';
import { defineOperation, type OpContext, type Warning } from '../types.js';
import { cancelAlertRuns, startAlertRun } from './alert-runs.js';
import { estimateTarget, premiumAvailable } from './collect-job.js';
import { checkMaxFollowers, idMember, kindMember, maxFollowersMember, scheduleMember, targetMember } from './inputs.js';
import { alertView, jobView } from './views.js';

/**
 * Alerts re-collect a target on a schedule. The record: id (alr_…), kind, target (canonical URL),
 * schedule {interval_minutes}, max_followers (company pages; null = what the credits allow, at least 100),
 * active, next_run_at (null when inactive), last_run_at, last_error (why the last scheduled run could not
 * start), last_run (the latest run as a collect job, with alert_id), created_at, updated_at, read (the
 * GET /v1/signals query of its rows). Each run holds premium credits first and charges only the people
 * no earlier run of the alert has seen.
 */
async function ownAlert(ctx: OpContext, id: string): Promise<AlertRecord> {
  const account = requireAccount(ctx);
  const alert = await ctx.services.state.getAlert(id);
  if (!alert || alert.accountId !== account.id || alert.deletedAt !== null) {
    throw new AppError('alert.not_found', `No alert has the id ${JSON.stringify(id)}.`, {
      field: 'id',
      hint: 'List the alerts of the account with GET /v1/signals/alerts.',
    });
  }
  return alert;
}

function maxActiveOf(ctx: OpContext): number {
  return ctx.services.state.getPlan(requireAccount(ctx).plan)?.maxActiveAlerts ?? 0;
}

export const createAlert = defineOperation({
  name: 'signals.alerts.create',
  family: 'A',
  method: 'POST',
  path: '/v1/signals/alerts',
  auth: 'key',
  spends: true,
  summary: 'Create alert',
  description:
    'Creates an alert that re-collects a profile, post or company page every schedule.interval_minutes (60 to 43,' +
    '200; default 1,440). The first run starts at the next scheduler tick; each run holds premium credits (as POST ' +
    '/v1/signals/collect does) and charges one per new lead, i.e. a person no earlier run of the alert has seen. ' +
    'Needs a paid plan (403 plan.required); at most 100 active alerts (403 alerts.limit_reached). Answers 201 with ' +
    'the alert.',
  cost: 'one premium credit per new lead, held before each run',
  output: out.alertOutput,
  errors: ['alerts.limit_reached', 'plan.required', 'signals.below_minimum', 'data.unavailable'],
  // Creating charges nothing: each run holds and charges premium credits as a collect does.
  input: v.object({
    kind: kindMember,
    target: targetMember,
    schedule: v.optional(scheduleMember, {}),
    max_followers: v.optional(maxFollowersMember),
  }),
  handler: async (ctx, input) => {
    const account = requireAccount(ctx);
    const { services } = ctx;
    const plan = services.state.getPlan(account.plan);
    if (!plan?.alerts) {
      throw new AppError(
        'plan.required',
        `Creating alerts needs a paid plan; the account is on ${plan?.name ?? account.plan}.`,
        { hint: 'Move to a paid plan, or run one-off collects with POST /v1/signals/collect.' },
      );
    }
    const target = parseSignalTarget(input.kind, input.target, services.config.networkHost);
    checkMaxFollowers(input.kind, input.max_followers);
    // Size the target now: an unknown target or a page below 100 followers is refused at creation.
    const estimate = await estimateTarget(services, target);
    const sized = planCollect(
      input.kind,
      estimate,
      input.max_followers ?? null,
      await premiumAvailable(services, account.id, ctx.now),
    );
    const warnings: Warning[] = sized.maxFollowersMissing
      ? [maxFollowersMissingWarning(sized.requested, estimate)]
      : [];
    if (ctx.dryRun) {
      // Creating charges nothing; each run will hold this much (the quote of one run).
      const available = await premiumAvailable(services, account.id, ctx.now);
      const sufficient = available >= sized.hold;
      addQuote(ctx, { units: sized.requested, kind: 'premium', credits: sized.hold, available, sufficient });
      throw new QuoteReady();
    }
    const alert = await services.state.createAlert(
      {
        accountId: account.id,
        kind: input.kind,
        target: target.url,
        intervalMinutes: input.schedule.interval_minutes ?? 1440,
        maxFollowers: input.max_followers ?? null,
        now: ctx.now,
      },
      plan.maxActiveAlerts,
    );
    return { status: 201, data: await alertView(services.state, alert), warnings };
  },
});

export const listAlerts = defineOperation({
  name: 'signals.alerts.list',
  family: 'A',
  method: 'GET',
  path: '/v1/signals/alerts',
  auth: 'key',
  spends: false,
  summary: 'List alerts',
  description: 'The alerts of the account, active and inactive, newest first (deleted alerts are gone). Free.',
  cost: 'free',
  output: out.list(out.alertOutput),
  errors: [],
  input: v.object({}),
  handler: async (ctx) => ({
    data: await Promise.all(
      (await ctx.services.state.listAlerts(requireAccount(ctx).id)).map((a) => alertView(ctx.services.state, a)),
    ),
  }),
});

export const getAlert = defineOperation({
  name: 'signals.alerts.get',
  family: 'A',
  method: 'GET',
  path: '/v1/signals/alerts/:id',
  auth: 'key',
  spends: false,
  summary: 'Get alert',
  description:
    "One alert with its schedule, next run and latest run. Unknown ids and other accounts' alerts answer 404 " +
    'alert.not_found. Free.',
  cost: 'free',
  output: out.alertOutput,
  errors: ['alert.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => ({ data: await alertView(ctx.services.state, await ownAlert(ctx, input.id)) }),
});

export const updateAlert = defineOperation({
  name: 'signals.alerts.update',
  family: 'A',
  method: 'PATCH',
  path: '/v1/signals/alerts/:id',
  auth: 'key',
  spends: false,
  summary: 'Update alert',
  description:
    'Changes schedule.interval_minutes (the next run moves to the new rhythm, counted from the last run), active ' +
    '(false pauses the schedule; true resumes it with a run at the next tick, 403 alerts.limit_reached past 100 ' +
    'active alerts; 403 account.suspended while the account is suspended, since runs spend) or max_followers ' +
    '(company pages; null = what the credits allow). Free.',
  cost: 'free',
  output: out.alertOutput,
  errors: ['alert.not_found', 'alerts.limit_reached', 'plan.required', 'account.suspended'],
  input: v.object({
    id: idMember,
    schedule: v.optional(scheduleMember),
    active: v.optional(v.boolean('must be true or false')),
    max_followers: v.optional(v.nullable(maxFollowersMember)),
  }),
  handler: async (ctx, input) => {
    const alert = await ownAlert(ctx, input.id);
    const { state } = ctx.services;
    if (input.schedule === undefined && input.active === undefined && input.max_followers === undefined) {
      throw new AppError('request.invalid', 'Nothing to change.', {
        hint: 'Send at least one of schedule, active, max_followers.',
      });
    }
    checkMaxFollowers(alert.kind, input.max_followers);
    // Switching runs back on is a spending decision: a suspended account may pause or edit, not resume.
    if (input.active === true && !alert.active && ctx.account?.status === 'suspended') {
      throw new AppError('account.suspended', 'The account is suspended; an alert cannot be switched back on.', {
        hint: 'Resume the account (a payment), then switch the alert on.',
      });
    }
    const patch: AlertPatch = {};
    const interval = input.schedule?.interval_minutes ?? alert.intervalMinutes;
    if (input.schedule) patch.intervalMinutes = interval;
    if (input.max_followers !== undefined) patch.maxFollowers = input.max_followers;
    const active = input.active ?? alert.active;
    if (input.active !== undefined) patch.active = input.active;
    if (!active) patch.nextRunAt = null;
    else if (input.active === true && !alert.active) patch.nextRunAt = ctx.now.toISOString();
    else if (input.schedule && alert.lastRunAt) patch.nextRunAt = nextSlot(alert.lastRunAt, interval, ctx.now);
    const updated = await state.updateAlert(alert.id, patch, ctx.now, maxActiveOf(ctx));
    return { data: await alertView(state, updated) };
  },
});

export const deleteAlert = defineOperation({
  name: 'signals.alerts.delete',
  family: 'A',
  method: 'DELETE',
  path: '/v1/signals/alerts/:id',
  auth: 'key',
  spends: false,
  summary: 'Stop alert',
  description:
    'Stops and deletes an alert: no more runs; a run still queued or running is cancelled with its hold released ' +
    '(nothing charged). Rows already written stay readable with GET /v1/signals?source_type=alert&source_id={id}. ' +
    'Free.',
  cost: 'free',
  output: out.obj({ id: out.str, deleted: out.bool, read: out.readHint }),
  errors: ['alert.not_found'],
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    const alert = await ownAlert(ctx, input.id);
    const { state } = ctx.services;
    const deleted = await state.deleteAlert(alert.id, ctx.now);
    await cancelAlertRuns(ctx.services, deleted, ctx.now);
    return {
      data: {
        id: alert.id,
        deleted: true,
        read: { tool: 'list_signals', arguments: { source_type: 'alert', source_id: alert.id } },
      },
    };
  },
});

export const pollAlert = defineOperation({
  name: 'signals.alerts.poll',
  family: 'A',
  method: 'POST',
  path: '/v1/signals/alerts/:id/poll',
  auth: 'key',
  spends: true,
  summary: 'Poll alert',
  description:
    'Runs the alert now, outside its schedule (which keeps its rhythm): holds premium credits (402 ' +
    'premium_credits.exhausted when short) and answers 202 with data.job, the run (id run_…, alert_id set). A ' +
    'queued or running run answers 409 alert.busy. One premium credit per new lead.',
  cost: 'one premium credit per new lead',
  output: out.obj({ job: out.runOutput }),
  errors: ['alert.not_found', 'alert.busy', 'signals.below_minimum', 'data.unavailable'],
  charges: 'premium',
  input: v.object({ id: idMember }),
  handler: async (ctx, input) => {
    const alert = await ownAlert(ctx, input.id);
    const { job, hold } = await startAlertRun(ctx.services, alert, ctx.now, ctx.dryRun ? ctx : undefined);
    return { status: 202, data: { job: await jobView(ctx.services.state, job, hold) } };
  },
});
