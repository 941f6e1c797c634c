import type { EventDraft } from './types.js';

/**
 * The event a job's end causes, or null: written to the outbox by finishJob in the same transaction (SQLite) or
 * script (Redis) as the end itself. Data holds ids and counts only — never more than the polling route shows; links
 * (the polling route, and a signed download link where the polling route gives one) are added when it is sent.
 */
export function jobEndEvent(job: {
  id: string;
  kind: string;
  status: string;
  payload: Record<string, unknown>;
  result: Record<string, unknown>;
  error: string | null;
}): EventDraft | null {
  const ended = job.status === 'completed' ? 'completed' : 'failed';
  const r = job.result;
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  switch (job.kind) {
    case 'export':
      return {
        type: `export.${ended}`,
        data:
          ended === 'completed'
            ? { export_id: job.id, family: job.payload.family ?? 'A', rows_exported: n(r.rows_exported) }
            : { export_id: job.id, family: job.payload.family ?? 'A', error: job.error ?? 'The export failed.' },
      };
    case 'collect':
      return {
        type: `collect.${ended}`,
        data:
          ended === 'completed'
            ? {
                collect_id: job.id,
                signals: n(r.signals),
                leads: n(r.leads),
                contacts_matched: n(r.contacts_matched),
                outcome: typeof r.outcome === 'string' ? r.outcome : 'completed',
              }
            : { collect_id: job.id, error: job.error ?? 'The collect failed.' },
      };
    case 'alert_run': {
      const leads = n(r.leads);
      if (ended !== 'completed' || leads === 0) return null;
      return {
        type: 'alert.leads',
        data: {
          alert_id: typeof job.payload.alertId === 'string' ? job.payload.alertId : null,
          run_id: job.id,
          leads,
          signals: n(r.signals),
          contacts_matched: n(r.contacts_matched),
        },
      };
    }
    case 'enrichment_run':
      if (ended !== 'completed') return null;
      return {
        type: 'enrichment_run.completed',
        data: {
          run_id: job.id,
          processed_rows: n(r.processed_rows),
          matched_rows: n(r.matched_rows),
          credits_charged: n(r.credits_charged),
        },
      };
    default:
      return null;
  }
}

/** key.revoked: the key's id and display prefix, never its secret. */
export function keyRevokedEvent(key: { id: string; prefix: string; revokedAt: string | null }): EventDraft {
  return { type: 'key.revoked', data: { key_id: key.id, prefix: key.prefix, revoked_at: key.revokedAt } };
}
