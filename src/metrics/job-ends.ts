import type { Hold } from '../domain/credits.js';
import type { Job, JobEnd } from '../jobs/port.js';
import type { Metrics } from './metrics.js';

/**
 * The job runner's `onJobEnd` for the metrics: the job's outcome and run time, and the credits its end charged.
 * The charge is read back from the settled hold, because only the hold knows its kind and category, and its
 * `charged` is what the store committed (the end's charge capped at the hold).
 */
export function observeJobEnds(
  metrics: Metrics,
  holds: { getHold(id: string): Promise<Hold | undefined> },
  onError: (err: unknown) => void = () => {},
): (job: Job, end: JobEnd, seconds: number) => void {
  return (job, end, seconds) => {
    metrics.jobEnded(job.kind, end.status, seconds);
    if (end.charge <= 0 || !job.holdId) return;
    holds.getHold(job.holdId).then((hold) => {
      if (hold?.status === 'committed') metrics.creditsCharged(hold);
    }, onError);
  };
}
