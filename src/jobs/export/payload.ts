import type { IRNode } from '../../domain/query/ir.js';

/**
 * What an export job carries (payload, fixed at start) and writes (result). Family A and family B exports
 * are one job kind; the family decides the row bound, the link lifetime and the CSV headers.
 */
export type ExportFamily = 'A' | 'B';

/** Why `rows_to_export` is below `rows_available` (family A `truncation_reason`). */
export type TruncationReason = 'max_rows' | 'credits' | 'export_limit' | 'max_rows_per_company';

export interface ExportPayload {
  family: ExportFamily;
  entity: 'contact';
  ir: IRNode;
  keysApplied: string[];
  /** Output columns in order with their header text (names for family A, display labels for family B). */
  columns: Array<{ name: string; header: string }>;
  maxPerCompany: number | null;
  /** The client's own cap (`max_rows`), or null. */
  maxRows: number | null;
  /** Rows matching the filter when the export started. */
  rowsAvailable: number;
  /** Rows the job writes at most: every cap and the contact credits held. */
  rowsToExport: number;
  truncationReason: TruncationReason | null;
  /** The data release counted at start; the job reads the release serving when it runs. */
  releaseId: string;
}

export interface ExportResult {
  /** Rows on disk so far (running) or in the file (completed). */
  rows_exported?: number;
  bytes?: number;
  release_id?: string;
}

const DAY_MS = 86_400_000;

/** Spec "Limits": family A links live 7 days from completion, family B links 24 hours. */
export const EXPORT_LINK_TTL_MS: Readonly<Record<ExportFamily, number>> = { A: 7 * DAY_MS, B: DAY_MS };

/** Spec "Limits": a family B export holds up to 50,000 rows (family A: the CDS_EXPORT_MAX_ROWS setting). */
export const FAMILY_B_EXPORT_MAX_ROWS = 50_000;
