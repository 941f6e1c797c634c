import { existsSync } from 'node:fs';
import { AppError } from '../../domain/errors/index.js';
import { exportFile, exportLink, linkExpiry } from '../../jobs/export/links.js';
import { EXPORT_LINK_TTL_MS, type ExportPayload, type ExportResult } from '../../jobs/export/payload.js';
import type { Job } from '../../jobs/port.js';
import { requireAccount } from '../account/get-account.js';
import type { OpContext } from '../types.js';

export type ExportJob = Job<ExportPayload, ExportResult>;
export type ExportStatus = 'queued' | 'running' | 'completed' | 'failed';

const NOT_FOUND = 'No export with this id on this account.';

/** The account's export by id; an unknown id and another account's id answer the same 404. */
export async function loadExport(ctx: OpContext, id: string): Promise<ExportJob> {
  const account = requireAccount(ctx);
  const job = /^exp_[0-9A-Za-z]{1,64}$/.test(id) ? await ctx.services.state.getJob(id) : undefined;
  if (job?.kind !== 'export' || job.accountId !== account.id) {
    throw new AppError('export.not_found', NOT_FOUND, {
      hint: 'Use the export_id returned when the export was started, with the key of the same account.',
    });
  }
  return job as unknown as ExportJob;
}

/** The spec's four export states (a cancelled job reads as failed). */
export function exportStatus(job: ExportJob): ExportStatus {
  return job.status === 'cancelled' ? 'failed' : job.status;
}

export interface Download {
  url: string;
  expiresAt: Date;
}

/**
 * The signed link of a completed export (valid 7 days from completion for family A, 24 hours for family B).
 * Past its expiry, or once the file is gone, 410 export.expired. Null while not completed. The link is bound to the
 * API key of the call (revoking it closes the link; the next key's call hands out a link of its own).
 */
export function downloadOf(ctx: OpContext, job: ExportJob): Download | null {
  if (job.status !== 'completed' || !job.finishedAt) return null;
  const expiresAt = linkExpiry(job.finishedAt, EXPORT_LINK_TTL_MS[job.payload.family]);
  const { config, secret } = ctx.services;
  if (ctx.now.getTime() >= expiresAt.getTime() || !existsSync(exportFile(config.filesDir, job.id))) {
    throw new AppError('export.expired', 'The export file expired or is no longer available.', {
      hint: 'Start the export again; links are valid 7 days (family A) or 24 hours (family B) from completion.',
    });
  }
  return { url: exportLink(config.publicUrl, secret, job.id, expiresAt, ctx.key?.id), expiresAt };
}

/** Rows in the file (completed) or written so far (running); 0 when queued or failed. */
export function rowsExported(job: ExportJob): number {
  return job.status === 'completed' || job.status === 'running' ? (job.result.rows_exported ?? 0) : 0;
}

/** The user-facing error of a failed export, or null. */
export function exportError(job: ExportJob): string | null {
  if (job.status === 'failed' || job.status === 'cancelled')
    return job.error ?? 'The export failed. No credits were charged; start it again.';
  return null;
}
