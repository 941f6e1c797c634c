import { join } from 'node:path';

/**
 * Where CSV enrichment uploads and results live, under CDS_FILES_DIR (shared by every process of a deployment):
 * `uploads/<upl_id>.json` (the record), `uploads/<upl_id>.csv` (the sheet as UTF-8 text), `uploads/<upl_id>.run`
 * (created once, exclusively, when the run starts: it holds the run id), `uploads/<upl_id>.run.csv` (the sheet the
 * run reads, copied when it started), `uploads/<upl_id>.run.takeover-<ms>` (made exclusively by the one start that
 * takes over a crashed start's claim last modified at <ms>) and `enrichments/<enr_id>.csv` (the result).
 */
export const UPLOAD_ID = /^upl_[0-9A-Za-z]{1,64}$/;
export const RUN_ID = /^enr_[0-9A-Za-z]{1,64}$/;
export const RESULT_FILE_NAME = /^enr_[0-9A-Za-z]{1,64}\.csv$/;

export const uploadsDir = (filesDir: string) => join(filesDir, 'uploads');
export const resultsDir = (filesDir: string) => join(filesDir, 'enrichments');
export const uploadRecordFile = (filesDir: string, id: string) => join(uploadsDir(filesDir), `${id}.json`);
export const uploadSheetFile = (filesDir: string, id: string) => join(uploadsDir(filesDir), `${id}.csv`);
/** The sheet's summary (headers, preview, guessed mapping and its row counts), so `state` need not parse it again. */
export const uploadSummaryFile = (filesDir: string, id: string) => join(uploadsDir(filesDir), `${id}.summary.json`);
export const uploadRunFile = (filesDir: string, id: string) => join(uploadsDir(filesDir), `${id}.run`);
export const uploadTakeoverFile = (filesDir: string, id: string, claimedAtMs: number) =>
  join(uploadsDir(filesDir), `${id}.run.takeover-${Math.trunc(claimedAtMs)}`);
export const uploadRunSheetFile = (filesDir: string, id: string) => join(uploadsDir(filesDir), `${id}.run.csv`);
export const resultFile = (filesDir: string, runId: string) => join(resultsDir(filesDir), `${runId}.csv`);
