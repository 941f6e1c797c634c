import { AppError } from '../../domain/errors/index.js';
import { decodeUploadBytes } from '../../domain/uploads/decode.js';
import { type ColumnMapping, guessMapping, hasIdentifier, mappingIndexes } from '../../domain/uploads/mapping.js';
import { readSheet, type Sheet } from '../../domain/uploads/parse-csv.js';
import { UPLOAD_MAX_BYTES } from '../../jobs/enrichment/payload.js';
import { countRows } from './estimate.js';

const SAVE_HINT = 'Save the sheet as "CSV UTF-8 (comma delimited)" and upload that file.';

/**
 * A file's bytes read into a sheet, or the page's clear refusal (nothing is stored, nothing charged). `stored` is
 * the sheet's text as UTF-8, what the sheet keeps and what is stored: a UTF-8 file's own bytes (without its
 * byte-order mark), so no string and no other copy is made of the file.
 */
export function readUploadedSheet(
  bytes: Uint8Array,
  maxRows: number,
): { sheet: Sheet; stored: Uint8Array; encoding: string } {
  if (bytes.length > UPLOAD_MAX_BYTES)
    throw new AppError('upload.too_large', `The file is ${mb(bytes.length)} MB; at most 15 MB is read.`, {
      hint: 'Split the sheet into files of at most 15 MB.',
    });
  const decoded = decodeUploadBytes(bytes);
  if (!decoded.ok) throw new AppError('upload.invalid_file', decoded.message, { hint: SAVE_HINT });
  const parsed = readSheet(decoded.utf8, maxRows + 1);
  if (!parsed.ok) {
    if (parsed.over)
      throw new AppError(
        'upload.too_many_rows',
        `The file holds more than ${maxRows.toLocaleString('en-US')} rows; one run takes at most that many.`,
        { hint: 'Split the sheet into several files.', details: { max_rows: maxRows } },
      );
    throw new AppError('upload.invalid_file', parsed.message, { hint: SAVE_HINT });
  }
  if (parsed.sheet.rowCount === 0)
    throw new AppError('upload.invalid_file', 'The file has a header row but no rows below it.', {
      hint: 'Upload a sheet with one person per row under a header row.',
    });
  return { sheet: parsed.sheet, stored: decoded.utf8, encoding: decoded.encoding };
}

/** The sheet stored for an upload, read again (it was checked when it came in). */
export function storedSheet(text: string): Sheet {
  const parsed = readSheet(text, Number.MAX_SAFE_INTEGER);
  if (!parsed.ok) throw new Error(`stored upload does not parse: ${parsed.message}`);
  return parsed.sheet;
}

/** A mapping sent by the page or a tool, checked against the sheet's headers. */
export function checkedMapping(headers: readonly string[], raw: unknown) {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new AppError('request.invalid', 'mapping must be an object of field -> column header.', { field: 'mapping' });
  const res = mappingIndexes(headers, raw as Record<string, unknown>);
  if (!res.ok) throw new AppError('request.invalid', res.message, { field: 'mapping' });
  if (!hasIdentifier(res.mapping)) throw noIdentifier();
  return res;
}

export function noIdentifier(): AppError {
  return new AppError(
    'upload.no_mappable_column',
    'No column is mapped to an email, phone or profile URL, so no row can be matched.',
    { hint: 'Map at least one column holding work emails, phone numbers or profile URLs.', field: 'mapping' },
  );
}

/** Rows the page previews. */
export const PREVIEW_ROWS = 10;

/**
 * What the upload page shows of a sheet, computed once when it comes in and stored beside it, so `state` (called
 * on every redraw) neither reads nor parses the sheet again: its headers, the first rows (each as wide as the
 * headers), the guessed mapping and, when that names an identifier, the rows it would count.
 */
export interface SheetSummary {
  /** The file's `uploaded_at`: a summary is the stored sheet's only when they agree. */
  uploaded_at: string;
  headers: string[];
  preview: string[][];
  mapping: ColumnMapping;
  counts: { rows: number; can: number; missing: number; invalid: number } | null;
}

export function summarize(sheet: Sheet, host: string, uploadedAt: string): SheetSummary {
  const first = (n: number) => Array.from({ length: Math.min(n, sheet.rowCount) }, (_, r) => r);
  const mapping = guessMapping(
    sheet.headers,
    first(50).map((r) => sheet.row(r)),
    host,
  );
  const width = sheet.headers.length;
  return {
    uploaded_at: uploadedAt,
    headers: sheet.headers,
    preview: first(PREVIEW_ROWS).map((r) => Array.from({ length: width }, (_, c) => sheet.cell(r, c))),
    mapping,
    counts: hasIdentifier(mapping) ? countRows(sheet, checkedMapping(sheet.headers, mapping), host) : null,
  };
}

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
