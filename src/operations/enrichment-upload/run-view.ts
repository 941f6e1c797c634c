import { AppError } from '../../domain/errors/index.js';
import { RUN_ID } from '../../jobs/enrichment/files.js';
import type { EnrichmentRunPayload, EnrichmentRunResult } from '../../jobs/enrichment/payload.js';
import { UploadStore } from '../../jobs/enrichment/upload-store.js';
import type { Job } from '../../jobs/port.js';
import type { Services } from '../types.js';

/**
 * The upload store the faces read: a claim whose run was never created (a start that crashed between claiming the
 * upload and creating its run) reads as not started once it is a minute old, and the next start creates that run.
 */
export function uploadStore(services: Services): UploadStore {
  // A store that cannot answer just now: the claim counts as started, as it did before claims were checked.
  return new UploadStore(services.config.filesDir, (runId) =>
    services.state.getJob(runId).then(
      (job) => job !== undefined,
      () => true,
    ),
  );
}

/** The run of this account by id; another account's run, an unknown id or another job kind answers 404. */
export async function runOf(
  services: Services,
  accountId: string,
  runId: string,
): Promise<Job<EnrichmentRunPayload, EnrichmentRunResult>> {
  const job = RUN_ID.test(runId) ? await services.state.getJob(runId) : undefined;
  if (job?.kind !== 'enrichment_run' || job.accountId !== accountId)
    throw new AppError('enrichment_run.not_found', 'Unknown enrichment run id.', {
      field: 'run_id',
      hint: 'Use the run_id that check_enrichment_upload returned for your upload.',
    });
  return job as unknown as Job<EnrichmentRunPayload, EnrichmentRunResult>;
}

/** The status of a run as check_enrichment_status and the upload page show it. */
export function runView(job: Job<EnrichmentRunPayload, EnrichmentRunResult>) {
  const r = job.result;
  const status = job.status === 'cancelled' ? 'failed' : job.status;
  return {
    run_id: job.id,
    upload_id: job.payload.uploadId,
    file_name: job.payload.fileName ?? null,
    status,
    rows: job.payload.rows,
    processed_rows: r.processed_rows ?? 0,
    matched_rows: r.matched_rows ?? 0,
    rows_that_can_match: job.payload.canMatch,
    credits_held: status === 'queued' || status === 'running' ? job.payload.held : 0,
    credits_charged: r.credits_charged ?? 0,
    truncated: r.truncated ?? false,
    truncation_reason: r.truncated ? 'credits' : null,
    warnings: r.warnings ?? [],
    sample: r.sample ?? [],
    error: job.error,
    created_at: job.createdAt,
    finished_at: job.finishedAt,
  };
}
