import type { ColumnMapping } from '../../domain/uploads/mapping.js';

/**
 * A CSV enrichment run (job kind `enrichment_run`): the rows of one upload matched by the rules of
 * POST /v1/enrichments, one contact credit per matched row, held at start (up to the rows that can match) and
 * settled on completion.
 */
export interface EnrichmentRunPayload {
  uploadId: string;
  /** The uploaded file's name (or the sheet link's last path segment), for listings. */
  fileName: string;
  mapping: ColumnMapping;
  /** Data rows of the file. */
  rows: number;
  /** Rows that can match (an identifier that reads as one): the most the run can charge. */
  canMatch: number;
  /** Contact credits held at start (may be below canMatch when the credits left are fewer). */
  held: number;
}

/** What the run writes as it goes (progress) and at the end. */
export interface EnrichmentRunResult {
  processed_rows?: number;
  matched_rows?: number;
  credits_charged?: number;
  truncated?: boolean;
  truncation_reason?: 'credits' | null;
  warnings?: Array<{ code: string; message: string; count: number; keys_applied: string[] }>;
  sample?: Array<Record<string, unknown>>;
  bytes?: number;
}

const MB = 1024 * 1024;
const HOUR_MS = 3_600_000;

/** Spec "Limits": a CSV upload is at most 15 MB. */
export const UPLOAD_MAX_BYTES = 15 * MB;
/** How long an upload page link opens the page (and its upload, mapping and start steps). */
export const UPLOAD_LINK_TTL_MS = 24 * HOUR_MS;
/** Spec "Limits": the result link of a run is valid 1 hour from when it is handed out. */
export const RESULT_LINK_TTL_MS = HOUR_MS;
/** Uploads and results are deleted this long after they were written (a link for one can be asked again until then). */
export const UPLOAD_KEEP_MS = 7 * 24 * HOUR_MS;
/** Rows matched per engine query (as POST /v1/enrichments takes at most 100 inputs). */
export const RUN_BATCH_ROWS = 100;
