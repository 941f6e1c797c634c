import type { Hold } from '../../domain/credits.js';
import type { AlertRecord, StoredSignal } from '../../network-signals/port.js';
import type { StateStore } from '../../state/port.js';
import type { CollectJob } from './collect-job.js';

/**
 * Job states. The store keeps queued | running | completed | failed | cancelled; a completed job also
 * records its outcome. The start answer (`data.job`, alert `last_run`) shows the detailed state:
 *   completed   the source was read to its end (profile, post) or to the followers requested (company)
 *   partial     stopped before the end because the hold ran out (more unique engagers than twice the
 *               estimate) or a profile or post passed 100,000 engagements; the leads delivered are charged
 *   no_matches  the source had no engager or follower; nothing is charged
 *   failed      the source or the service failed; nothing is charged, rows written stay readable,
 *               `error` says what to do
 *   cancelled   an alert run whose alert was deleted while it was queued or running; nothing is charged,
 *               rows written stay readable under the alert id
 * The status answer (`GET /v1/signals/collect/{id}`) has the spec's four states: partial and no_matches
 * read `completed`, cancelled reads `failed` (with its error).
 */
export type DetailedStatus = 'queued' | 'running' | 'completed' | 'partial' | 'no_matches' | 'failed' | 'cancelled';

export function detailedStatus(job: CollectJob): DetailedStatus {
  return job.status === 'completed' ? (job.result.outcome ?? 'completed') : job.status;
}

async function holdOf(state: StateStore, job: CollectJob): Promise<Hold | undefined> {
  return job.holdId ? await state.getHold(job.holdId) : undefined;
}

/**
 * `data.job` of the start answer (and `last_run` of an alert). A start passes the hold it has just taken, so the
 * answer of a job already queued and paid for needs no further read of the store.
 */
export async function jobView(state: StateStore, job: CollectJob, knownHold?: Hold | null) {
  const hold = knownHold && knownHold.id === job.holdId ? knownHold : await holdOf(state, job);
  return {
    kind: job.payload.kind,
    target: job.payload.target,
    id: job.id,
    alert_id: job.payload.alertId,
    status: detailedStatus(job),
    hold: hold?.amount ?? 0,
    signals: job.result.signals ?? 0,
    leads: job.result.leads ?? 0,
    settled_at: hold?.settledAt ?? null,
    error: job.error,
    scrape_outcome: job.result.scrape_outcome ?? null,
    created_at: job.createdAt,
    started_at: job.startedAt,
    completed_at: job.finishedAt,
  };
}

/** The status answer of `GET /v1/signals/collect/{id}`, exactly the spec's fields. */
export async function statusView(state: StateStore, job: CollectJob) {
  const hold = await holdOf(state, job);
  const status = job.status === 'cancelled' ? 'failed' : job.status;
  return {
    id: job.id,
    kind: job.payload.kind,
    target: job.payload.target,
    status,
    requested: job.payload.requested,
    signals: job.result.signals ?? 0,
    leads: job.result.leads ?? 0,
    contacts_matched: job.result.contacts_matched ?? 0,
    premium_credits: {
      held: hold?.status === 'held' ? hold.amount : 0,
      charged: hold?.status === 'committed' ? hold.charged : 0,
    },
    error: status === 'failed' ? (job.error ?? 'The job was stopped; start a new collect.') : null,
    created_at: job.createdAt,
    finished_at: job.finishedAt,
    read: { tool: 'list_signals', arguments: { source_type: 'collect', source_id: job.id } },
  };
}

/** A signal row of `GET /v1/signals`. */
export function signalView(s: StoredSignal) {
  return {
    id: s.id,
    source_type: s.sourceType,
    source_id: s.sourceId,
    run_id: s.runId,
    name: s.name,
    headline: s.headline,
    profile_url: s.profileUrl,
    engagement: s.engagement,
    post_url: s.postUrl,
    at: s.at,
    lead: s.lead,
    contact: s.contact,
    created_at: s.createdAt,
  };
}

/** The alert record of the alerts routes. */
export async function alertView(state: StateStore, a: AlertRecord) {
  const last = a.lastRunId ? ((await state.getJob(a.lastRunId)) as CollectJob | undefined) : undefined;
  return {
    id: a.id,
    kind: a.kind,
    target: a.target,
    schedule: { interval_minutes: a.intervalMinutes },
    max_followers: a.maxFollowers,
    active: a.active,
    next_run_at: a.nextRunAt,
    last_run_at: a.lastRunAt,
    last_error: a.lastError,
    last_run: last ? await jobView(state, last) : null,
    created_at: a.createdAt,
    updated_at: a.updatedAt,
    read: { tool: 'list_signals', arguments: { source_type: 'alert', source_id: a.id } },
  };
}
