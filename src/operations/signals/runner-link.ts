import type { JobRunner } from '../../jobs/runner.js';
import type { Services } from '../types.js';
import { tickAlerts } from './alert-runs.js';
import { collectJobKinds } from './collect-run.js';

/** How often the alert scheduler looks for due alerts (real time; due times read the injected clock). */
export const ALERT_TICK_MS = 30_000;

const attached = new WeakMap<JobRunner, () => void>();

/**
 * Hooks signals onto the job runner (the composition root calls it once, after openServices builds the
 * runner): registers the `collect` and `alert_run` workers and ticks the alert scheduler every
 * ALERT_TICK_MS while the runner runs. Calling it again for the same runner is a no-op. The returned
 * function stops the scheduler timer.
 */
export function attachSignals(services: Services, runner: JobRunner = services.jobs, opts: { tickMs?: number } = {}): () => void {
  const existing = attached.get(runner);
  if (existing) return existing;
  for (const def of collectJobKinds(services)) runner.register(def);
  let ticking = false;
  const timer = setInterval(() => {
    if (ticking || !runner.isRunning) return;
    ticking = true;
    tickAlerts(services)
      .catch((e: unknown) => services.logger.error({ err: e }, 'alert scheduler tick failed'))
      .finally(() => (ticking = false));
  }, opts.tickMs ?? ALERT_TICK_MS);
  timer.unref();
  const detach = () => {
    clearInterval(timer);
    attached.delete(runner);
  };
  attached.set(runner, detach);
  return detach;
}

/** Wakes the runner after a job was queued (it claims at its next poll otherwise). */
export function nudgeRunner(services: Services): void {
  services.jobs.nudge();
}
