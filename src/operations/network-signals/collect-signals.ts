import * as v from 'valibot';
import { maxFollowersMissingWarning, planCollect } from '../../network-signals/plan.js';
import { parseSignalTarget } from '../../network-signals/target.js';
import { requireAccount } from '../account/get-account.js';
import { addQuote, dryRunMember } from '../dry-run.js';
import * as out from '../outputs.js';
import { defineOperation, type Services, type Warning } from '../types.js';
import { type CollectJob, createCollectJob, estimateTarget, premiumAvailable } from './collect-job.js';
import { checkMaxFollowers, kindMember, maxFollowersMember, targetMember } from './inputs.js';
import { jobView } from './views.js';

export const collectSignals = defineOperation({
  name: 'signals.collect',
  family: 'A',
  method: 'POST',
  path: '/v1/signals/collect',
  auth: 'key',
  spends: true,
  summary: 'Collect signals',
  description:
    'Starts a background job collecting the people who react to or comment on the 10 latest posts of a profile, on ' +
    'one post, or who follow a company page. Premium credits are held first: twice the expected engagers for a ' +
    'profile or post; exactly max_followers for a company page (without max_followers, what the premium credits ' +
    'allow, at least 100, with a max_followers_missing warning). A page below 100 followers answers 400 ' +
    'signals.below_minimum; too few premium credits 402 premium_credits.exhausted. Answers 202 with data.job; poll ' +
    'GET /v1/signals/collect/{id} every 30 to 60 seconds, then read the rows with GET /v1/signals. wait: true keeps ' +
    'the request open up to about 45 seconds when the estimate is at most 500 engagers (never for a company page). ' +
    'dry_run: true only estimates (units, premium_credits, available, sufficient), free. At settlement one premium ' +
    'credit per unique lead is charged and the rest returned; each row matched to a stored contact costs one ' +
    'contact credit (with none left the row is kept without its contact). data.job.status: queued, running, ' +
    'completed, partial (stopped early: the hold ran out; leads delivered are charged), no_matches (nobody engaged; ' +
    'free), failed (nothing charged; rows written stay readable; error says what to do).',
  cost: 'one premium credit per lead',
  output: v.union([
    out.obj({ job: out.runOutput }),
    out.obj({ units: out.num, premium_credits: out.num, available: out.num, sufficient: out.bool }),
  ]),
  errors: ['signals.below_minimum', 'data.unavailable'],
  charges: 'premium',
  input: v.object({
    kind: kindMember,
    target: targetMember,
    max_followers: v.optional(maxFollowersMember),
    wait: v.optional(v.boolean('must be true or false'), false),
    dry_run: dryRunMember,
  }),
  mcp: {
    tool: 'collect_signals',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: true },
  },
  handler: async (ctx, input) => {
    const account = requireAccount(ctx);
    const { services } = ctx;
    const target = parseSignalTarget(input.kind, input.target, services.config.networkHost);
    checkMaxFollowers(input.kind, input.max_followers);
    const estimate = await estimateTarget(services, target);
    const available = await premiumAvailable(services, account.id, ctx.now);
    const plan = planCollect(input.kind, estimate, input.max_followers ?? null, available);
    const warnings: Warning[] = plan.maxFollowersMissing ? [maxFollowersMissingWarning(plan.requested, estimate)] : [];
    if (ctx.dryRun) {
      const sufficient = available >= plan.hold;
      addQuote(ctx, { units: plan.requested, kind: 'premium', credits: plan.hold, available, sufficient });
      return { data: {}, warnings };
    }
    const created = await createCollectJob(services, { account, target, plan, alertId: null, now: ctx.now });
    const job =
      input.wait && plan.waitAllowed
        ? await waitForEnd(services, created.job, services.config.collectWaitMs)
        : created.job;
    // Straight after the start the hold just taken is the hold's state; after a wait, the store's (it may be settled).
    const known = job === created.job ? created.hold : undefined;
    return { status: 202, data: { job: await jobView(services.state, job, known) }, warnings };
  },
});

/** Polls the job until it ends or `ms` pass (real time), and answers its state then. */
async function waitForEnd(services: Services, job: CollectJob, ms: number): Promise<CollectJob> {
  const deadline = Date.now() + ms;
  let current = job;
  while (current.status === 'queued' || current.status === 'running') {
    const left = deadline - Date.now();
    if (left <= 0) break;
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, left)));
    current = ((await services.state.getJob(job.id)) as CollectJob | undefined) ?? current;
  }
  return current;
}
