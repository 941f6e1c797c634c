import * as v from 'valibot';
import { parseContactFilter } from '../../domain/query/index.js';
import { filterOrAudience } from '../audiences/view.js';
import { resolveColumns } from '../contacts/columns.js';
import { audienceIdMember, columnsMember, excludeIdsMember, filterMember } from '../contacts/inputs.js';
import * as out from '../outputs.js';
import { intParam } from '../schemas.js';
import { defineOperation } from '../types.js';
import { downloadOf, exportError, exportStatus, loadExport, rowsExported } from './export-view.js';
import { startExport } from './start-export.js';

export const createExport = defineOperation({
  name: 'exports.create',
  family: 'A',
  method: 'POST',
  path: '/v1/exports',
  auth: 'key',
  spends: true,
  summary: 'Start export',
  description:
    'Starts an asynchronous CSV export of the contacts matching a filter and answers 202 at once with export_id, ' +
    'rows_available (exact match count), rows_to_export, truncated and truncation_reason ' +
    '(max_rows, credits, export_limit or max_rows_per_company), plus an export_truncated warning when truncated ' +
    '(with resets_at only when a contact credit cap cut it). ' +
    'Contact credits for rows_to_export are held now and only the rows actually exported are charged on completion; ' +
    'with no credits left 402 contact_credits.exhausted. ' +
    'One export holds at most 1,000,000 rows (the operator setting CDS_EXPORT_MAX_ROWS). One export at a time per ' +
    'account (409 export.running); a filter matching nothing answers 400 export.no_matches, free, no job. ' +
    'CSV: UTF-8, RFC 4180, header row of column names (header "labels": display labels), rows in the stable order; ' +
    'lists joined with "; ", records as JSON text; text cells always quoted; a cell starting with = + - @ (or a tab ' +
    "or CR), and such a character after a ;, get a leading ' against spreadsheet formulas, except a cell (or " +
    '";"-separated part) that is exactly a plain number such as an E.164 phone (+12124435204) or -12.5. ' +
    'Poll GET /v1/exports/{export_id} every few seconds until completed, then download its url (valid 7 days). ' +
    'audience_id instead of filter exports a saved audience.',
  cost: 'one contact credit per exported contact, on completion',
  output: out.exportStarted,
  errors: ['export.no_matches', 'export.running', 'data.unavailable', 'query.timeout', 'audience.not_found'],
  charges: 'contact',
  input: v.object({
    filter: v.optional(filterMember),
    audience_id: v.optional(audienceIdMember),
    columns: v.optional(columnsMember),
    format: v.optional(v.pipe(v.picklist(['csv'], 'must be "csv"'), v.description('File format; only csv.')), 'csv'),
    max_rows: v.optional(intParam(1, 100_000_000, 'At most this many rows (the export is cut in the stable order).')),
    max_rows_per_company: v.optional(
      intParam(
        1,
        1000,
        'At most this many rows per company_domain across the whole export; rows without a domain are not capped.',
      ),
    ),
    exclude_ids: v.optional(excludeIdsMember),
    header: v.optional(
      v.pipe(
        v.picklist(['keys', 'labels'], 'must be "keys" or "labels"'),
        v.description(
          'Header row of the CSV: "keys" (default) the column keys (name, company_domain), "labels" the display ' +
            'labels (Full Name, Company Domain; the MCP tool get_available_columns lists them).',
        ),
      ),
      'keys',
    ),
  }),
  mcp: {
    tool: 'start_export',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { filter } = await filterOrAudience(ctx, input);
    const { ir, keysApplied } = parseContactFilter({ filter, exclude_ids: input.exclude_ids });
    const columns = resolveColumns('contact', input.columns);
    const s = await startExport(ctx, {
      family: 'A',
      ir,
      keysApplied,
      columns,
      maxRows: input.max_rows,
      maxPerCompany: input.max_rows_per_company,
      header: input.header,
    });
    return {
      status: 202,
      data: {
        export_id: s.job.id,
        id: s.job.id,
        status: 'queued',
        format: 'csv',
        rows_available: s.rowsAvailable,
        rows_to_export: s.rowsToExport,
        truncated: s.truncated,
        truncation_reason: s.truncationReason,
        created_at: s.job.createdAt,
      },
      warnings: s.warnings,
    };
  },
});

export const getExport = defineOperation({
  name: 'exports.get',
  family: 'A',
  method: 'GET',
  path: '/v1/exports/:id',
  auth: 'key',
  spends: false,
  summary: 'Get export',
  description:
    'Status of an export: queued, running, completed or failed, with rows_available, rows_to_export, rows_exported ' +
    '(so far while running) and timestamps. When completed: url, a signed CSV link valid 7 days from completion, ' +
    'and expires_at; past it (or once the file is gone) 410 export.expired. ' +
    "A failed export carries error (what to do) and charged nothing. Another account's id answers 404 " +
    'export.not_found, as an unknown id does. Free.',
  cost: 'free',
  output: out.exportStatus,
  errors: ['export.not_found', 'export.expired'],
  input: v.object({ id: v.pipe(v.string(), v.description('export_id from the start answer (exp_…).')) }),
  mcp: {
    tool: 'get_export',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const job = await loadExport(ctx, input.id);
    const download = downloadOf(ctx, job);
    const p = job.payload;
    return {
      data: {
        export_id: job.id,
        id: job.id,
        status: exportStatus(job),
        format: 'csv',
        rows_available: p.rowsAvailable,
        rows_to_export: p.rowsToExport,
        rows_exported: rowsExported(job),
        truncated: p.truncationReason !== null,
        truncation_reason: p.truncationReason,
        created_at: job.createdAt,
        started_at: job.startedAt,
        completed_at: job.status === 'completed' ? job.finishedAt : null,
        expires_at: download ? download.expiresAt.toISOString() : null,
        url: download ? download.url : null,
        error: exportError(job),
      },
    };
  },
});
