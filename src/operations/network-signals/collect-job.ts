import type { Account } from '../../domain/account.js';
import type { Hold } from '../../domain/credits.js';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import { remainingOf } from '../../domain/quota/index.js';
import type { Job } from '../../jobs/port.js';
import type { CollectPayload, CollectResult } from '../../network-signals/collect-payload.js';
import { type CollectPlan, planCollect } from '../../network-signals/plan.js';
import { type SignalTarget, SourceError } from '../../network-signals/port.js';
import type { Services } from '../types.js';

export type CollectJob = Job<CollectPayload, CollectResult>;

export const COLLECT_KINDS = { collect: 'collect', alert: 'alert_run' } as const;

/** The source's estimate for a target; a source failure answers 400 (unknown target) or 503. */
export async function estimateTarget(services: Services, target: SignalTarget): Promise<number> {
  const source = services.networkSource;
  try {
    return await source.estimate(target);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    if (e.reason === 'not_found')
      throw new AppError('request.invalid', e.message, {
        field: 'target',
        hint: 'Check that the URL opens on the network, then send it again.',
      });
    throw new AppError('data.unavailable', 'The signals source could not size the target just now.', {
      hint: `${e.message}`,
    });
  }
}

export async function premiumAvailable(services: Services, accountId: string, now: Date): Promise<number> {
  return remainingOf((await services.state.snapshot(accountId, now)).premium.month);
}

/**
 * Creates a collect job or an alert run with its premium hold in one transaction (the store's exact
 * reserve answers 402 premium_credits.exhausted with the spec's details). An alert run is refused with
 * 409 alert.busy while another run of the alert is queued or running.
 */
export async function createCollectJob(
  services: Services,
  input: { account: Account; target: SignalTarget; plan: CollectPlan; alertId: string | null; now: Date },
): Promise<{ job: CollectJob; hold: Hold | null }> {
  const alert = input.alertId;
  const id = alert ? newId('run') : newId('collect');
  const payload: CollectPayload = {
    kind: input.target.kind,
    target: input.target.url,
    slug: input.target.slug,
    requested: input.plan.requested,
    alertId: alert,
    sourceType: alert ? 'alert' : 'collect',
    sourceId: alert ?? id,
  };
  const { job, hold } = await services.jobs.enqueue({
    id,
    accountId: input.account.id,
    kind: alert ? COLLECT_KINDS.alert : COLLECT_KINDS.collect,
    payload,
    hold: { kind: 'premium', category: null, amount: input.plan.hold, mode: 'exact' },
    ...(alert
      ? {
          exclusive: {
            kinds: [COLLECT_KINDS.alert],
            sameAlertId: alert,
            error: () =>
              new AppError('alert.busy', 'The alert already has a queued or running run.', {
                hint: 'Wait for it to finish (GET /v1/signals/alerts/{id} shows last_run), then poll again.',
              }),
          },
        }
      : {}),
    now: input.now,
  });
  return { job: job as CollectJob, hold };
}

export { planCollect };
