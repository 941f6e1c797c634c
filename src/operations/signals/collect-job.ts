import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import type { Job } from '../../jobs/port.js';
import { planCollect, type CollectPlan } from '../../signals/plan.js';
import { SourceError, type SignalKind, type SignalTarget, type SourceType } from '../../signals/port.js';
import { networkSourceFor } from '../../signals/source.js';
import { remainingOf } from '../../domain/quota/index.js';
import type { Account } from '../../state/port.js';
import type { Services } from '../types.js';

/** What a collect job or alert run is asked to do (the job payload). */
export interface CollectPayload {
  kind: SignalKind;
  /** Canonical target URL. */
  target: string;
  slug: string;
  /** The leads asked for (status `requested`); for a company also the most followers read. */
  requested: number;
  alertId: string | null;
  sourceType: SourceType;
  /** Where the rows are filed: the job id (collect) or the alert id (alert run). */
  sourceId: string;
}

/** Why a run stopped (`scrape_outcome.reason`). */
export type ScrapeReason = 'source_exhausted' | 'limit_reached' | 'hold_exhausted' | 'no_engagers' | 'source_error' | 'cancelled';

/** Progress and outcome of a run (the job result). */
export interface CollectResult {
  cursor?: string | null;
  /** Engagers read from the source so far (their positions are 0 .. position-1). */
  position?: number;
  /** The source was read to its end (or to the limit); only settling is left. */
  done?: boolean;
  signals?: number;
  leads?: number;
  contacts_matched?: number;
  /** Matched rows kept without their contact because contact credits ran out. */
  contacts_skipped?: number;
  /** Detailed end state of a completed job. */
  outcome?: 'completed' | 'partial' | 'no_matches';
  charged?: number;
  scrape_outcome?: { source: string; reason: ScrapeReason; engagers_read: number; contact_credits_exhausted: boolean; contacts_skipped: number };
}

export type CollectJob = Job<CollectPayload, CollectResult>;

export const COLLECT_KINDS = { collect: 'collect', alert: 'alert_run' } as const;

/** The source's estimate for a target; a source failure answers 400 (unknown target) or 503. */
export async function estimateTarget(services: Services, target: SignalTarget): Promise<number> {
  const source = networkSourceFor(services);
  try {
    return await source.estimate(target);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    if (e.reason === 'not_found') throw new AppError('request.invalid', e.message, { field: 'target', hint: 'Check that the URL opens on the network, then send it again.' });
    throw new AppError('data.unavailable', 'The signals source could not size the target just now.', { hint: `${e.message}` });
  }
}

export function premiumAvailable(services: Services, accountId: string, now: Date): number {
  return remainingOf(services.state.snapshot(accountId, now).premium.month);
}

/**
 * Creates a collect job or an alert run with its premium hold in one transaction (the store's exact
 * reserve answers 402 premium_credits.exhausted with the spec's details). An alert run is refused with
 * 409 alert.busy while another run of the alert is queued or running.
 */
export function createCollectJob(services: Services, input: { account: Account; target: SignalTarget; plan: CollectPlan; alertId: string | null; now: Date }): CollectJob {
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
  const { job } = services.state.createJob<CollectPayload>({
    id,
    accountId: input.account.id,
    kind: alert ? COLLECT_KINDS.alert : COLLECT_KINDS.collect,
    payload,
    hold: { kind: 'premium', category: null, amount: input.plan.hold, mode: 'exact' },
    ...(alert
      ? { exclusive: { kinds: [COLLECT_KINDS.alert], sameAlertId: alert, error: () => new AppError('alert.busy', 'The alert already has a queued or running run.', { hint: 'Wait for it to finish (GET /v1/signals/alerts/{id} shows last_run), then poll again.' }) } }
      : {}),
    now: input.now,
  });
  return job as unknown as CollectJob;
}

export { planCollect };
