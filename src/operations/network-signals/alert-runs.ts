import type { Hold } from '../../domain/credits.js';
import { AppError, isAppError } from '../../domain/errors/index.js';
import type { PeriodicTask } from '../../jobs/runner.js';
import { planCollect } from '../../network-signals/plan.js';
import type { AlertRecord } from '../../network-signals/port.js';
import { nextSlot } from '../../network-signals/schedule.js';
import { parseSignalTarget } from '../../network-signals/target.js';
import { addQuote, QuoteReady } from '../dry-run.js';
import type { OpContext, Services } from '../types.js';
import { type CollectJob, createCollectJob, estimateTarget, premiumAvailable } from './collect-job.js';

/**
 * Starts one run of an alert now: sizes the target, holds premium credits (exact; 402 when short) and
 * queues an `alert_run` job (409 alert.busy while another run of the alert is queued or running).
 */
export async function startAlertRun(
  services: Services,
  alert: AlertRecord,
  now: Date,
  dryRun?: OpContext,
): Promise<{ job: CollectJob; hold: Hold | null }> {
  const account = await services.state.getAccount(alert.accountId);
  if (!account) throw new AppError('alert.not_found', `No alert has the id ${JSON.stringify(alert.id)}.`);
  const target = parseSignalTarget(alert.kind, alert.target, services.config.networkHost);
  // Refuse a busy alert before asking the source anything.
  const last = alert.lastRunId ? await services.state.getJob(alert.lastRunId) : undefined;
  if (last && (last.status === 'queued' || last.status === 'running')) throw busy();
  const estimate = await estimateTarget(services, target);
  const available = await premiumAvailable(services, account.id, now);
  const plan = planCollect(alert.kind, estimate, alert.maxFollowers, available);
  if (dryRun) {
    // A poll's quote: what this run would hold (exact), and nothing queued.
    const sufficient = available >= plan.hold;
    addQuote(dryRun, { units: plan.requested, kind: 'premium', credits: plan.hold, available, sufficient });
    throw new QuoteReady();
  }
  const started = await createCollectJob(services, { account, target, plan, alertId: alert.id, now });
  const job = started.job;
  await services.state.updateAlert(alert.id, { lastRunId: job.id, lastRunAt: now.toISOString(), lastError: null }, now);
  return started;
}

export function busy(): AppError {
  return new AppError('alert.busy', 'The alert already has a queued or running run.', {
    hint: 'Wait for it to finish (GET /v1/signals/alerts/{id} shows last_run), then poll again.',
  });
}

/**
 * The alert scheduler: starts the runs of every active alert that is due at `now` and moves each to its
 * next slot. A run that cannot start (premium credits spent, the alert busy, the account suspended, the
 * source down) is skipped: the reason is kept in `last_error` and the alert waits for its next slot.
 * Called by a timer beside the job runner, and by tests with the clock they set.
 */
export async function tickAlerts(
  services: Services,
  now: Date = services.clock.now(),
): Promise<{ started: string[]; skipped: { alert: string; error: string }[] }> {
  const started: string[] = [];
  const skipped: { alert: string; error: string }[] = [];
  for (const alert of await services.state.dueAlerts(now, 100)) {
    const due = alert.nextRunAt!;
    // Take the slot first: another scheduler on the same data dir may be at the same alert.
    if (!(await services.state.claimAlertSlot(alert.id, due, nextSlot(due, alert.intervalMinutes, now), now))) continue;
    try {
      const account = await services.state.getAccount(alert.accountId);
      if (account?.status === 'suspended')
        throw new AppError('account.suspended', 'The account is suspended; scheduled runs wait until it is resumed.');
      started.push((await startAlertRun(services, alert, now)).job.id);
    } catch (e) {
      const error = isAppError(e)
        ? `${e.message}${e.hint ? ` ${e.hint}` : ''}`
        : 'The run could not start on an unexpected error; it is tried again at the next slot.';
      if (!isAppError(e)) services.logger.error({ err: e, alert: alert.id }, 'alert run could not start');
      // The alert may have been deleted meanwhile; then there is nothing to note.
      if ((await services.state.getAlert(alert.id))?.deletedAt === null)
        await services.state.updateAlert(alert.id, { lastError: error }, now);
      skipped.push({ alert: alert.id, error });
    }
  }
  return { started, skipped };
}

/** How often the alert scheduler looks for due alerts (real time; due times read the injected clock). */
export const ALERT_TICK_MS = 30_000;

/** The alert scheduler as the job runner's periodic task: it ticks while the runner runs. */
export function alertScheduler(services: Services, everyMs = ALERT_TICK_MS): PeriodicTask {
  return { name: 'alert scheduler', everyMs, run: () => tickAlerts(services) };
}

/** Ends a queued or running run of a deleted alert: `cancelled`, hold released, rows kept. */
export async function cancelAlertRuns(services: Services, alert: AlertRecord, now: Date): Promise<void> {
  const { state } = services;
  for (const job of await state.listJobs(alert.accountId, 'alert_run', 1000)) {
    if (job.payload.alertId !== alert.id || (job.status !== 'queued' && job.status !== 'running')) continue;
    await state.finishJob(
      job.id,
      {
        status: 'cancelled',
        error:
          `The alert ${alert.id} was deleted during this run; nothing was charged. Rows written stay readable with ` +
          `GET /v1/signals?source_type=alert&source_id=${alert.id}.`,
        charge: 0,
      },
      now,
    );
  }
}
