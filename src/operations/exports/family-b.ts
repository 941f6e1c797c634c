import * as v from 'valibot';
import { FAMILY_B_EXPORT_MAX_ROWS } from '../../jobs/export/payload.js';
import { requireAccount } from '../account/get-account.js';
import { familyBColumns } from '../family-b/columns.js';
import { creditsRemaining } from '../family-b/credits-remaining.js';
import { FAMILY_B_FILTER_ERRORS, familyBInput } from '../family-b/input-schema.js';
import { familyBQuery, fieldsOf } from '../family-b/query.js';
import * as out from '../outputs.js';
import { intParam } from '../schemas.js';
import { defineOperation } from '../types.js';
import { downloadOf, exportStatus, loadExport, rowsExported } from './export-view.js';
import { startExport } from './start-export.js';

export const createExportB = defineOperation({
  name: 'b.contacts.export',
  family: 'B',
  method: 'POST',
  path: '/api/v1/contacts/search/export',
  auth: 'key',
  spends: true,
  summary: 'Export contacts (family B)',
  description:
    'Starts an asynchronous CSV export for the same filters and where_sql as search and answers 202 with export_id ' +
    'at once. Up to 50,000 rows (max_rows lowers it; max_per_company 1 to 50), subject to credits and, on unlimited ' +
    'plans, the export fair-use budget: ' +
    'credits for the rows are held now and only exported rows are charged on completion (rows_capped_by_credits ' +
    'says the balance cut it). CSV headers are display labels. One export at a time per account; nothing matching ' +
    'answers 400 export.no_matches. ' +
    'Poll GET /api/v1/contacts/search/export/{export_id}; a completed export carries a signed link valid 24 hours.',
  cost: 'one contact credit per exported contact, on completion',
  output: out.obj({
    export_id: out.str,
    job_status: out.str,
    rows_available: out.num,
    rows_to_export: out.num,
    rows_capped_by_credits: out.bool,
    creditsRemaining: out.creditsRemaining,
  }),
  errors: [...FAMILY_B_FILTER_ERRORS, 'export.no_matches', 'export.running', 'data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: familyBInput({
    columns: v.optional(
      v.pipe(
        v.union([v.array(v.string()), v.string()]),
        v.description(
          'Output columns by display label or internal name; default set plus filtered columns when omitted.',
        ),
      ),
    ),
    max_rows: v.optional(intParam(1, FAMILY_B_EXPORT_MAX_ROWS, 'At most this many rows (default and maximum 50,000).')),
    max_per_company: v.optional(intParam(1, 50, 'At most this many rows per company domain across the export.')),
    format: v.optional(v.pipe(v.picklist(['csv'], 'must be "csv"'), v.description('File format; only csv.'))),
  }),
  mcp: {
    tool: 'export_contacts',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const { ir, keysApplied } = await familyBQuery(ctx, input);
    const columns = familyBColumns(input.columns, fieldsOf(ir));
    const s = await startExport(ctx, {
      family: 'B',
      ir,
      keysApplied,
      columns,
      maxRows: input.max_rows,
      maxPerCompany: input.max_per_company,
    });
    return {
      status: 202,
      body: {
        export_id: s.job.id,
        job_status: 'queued',
        rows_available: s.rowsAvailable,
        rows_to_export: s.rowsToExport,
        rows_capped_by_credits: s.cappedByCredits,
        creditsRemaining: await creditsRemaining(ctx),
      },
    };
  },
});

export const getExportB = defineOperation({
  name: 'b.contacts.export.get',
  family: 'B',
  method: 'GET',
  path: '/api/v1/contacts/search/export/:export_id',
  auth: 'key',
  spends: false,
  summary: 'Check contact export (family B)',
  description:
    'Status of a contact export: job_status queued, running, completed or failed; rows_exported, rows_available, ' +
    'rows_capped_by_credits, query_credits_used (charged on completion). A completed export carries export_url, a ' +
    'signed CSV link valid 24 hours, and expires_in_seconds; past it 410 export.expired. Free.',
  cost: 'free',
  output: out.obj({
    export_id: out.str,
    job_status: out.str,
    export_url: out.nullable(out.str),
    expires_in_seconds: out.nullable(out.num),
    rows_exported: out.num,
    rows_available: out.num,
    rows_capped_by_credits: out.bool,
    query_credits_used: out.num,
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['export.not_found', 'export.expired'],
  input: v.object({ export_id: v.pipe(v.string(), v.description('export_id from the export answer.')) }),
  mcp: {
    tool: 'check_contact_export',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    requireAccount(ctx);
    const job = await loadExport(ctx, input.export_id);
    const download = downloadOf(ctx, job);
    const charged =
      job.status === 'completed' && job.holdId ? ((await ctx.services.state.getHold(job.holdId))?.charged ?? 0) : 0;
    return {
      body: {
        export_id: job.id,
        job_status: exportStatus(job),
        export_url: download ? download.url : null,
        expires_in_seconds: download
          ? Math.max(0, Math.floor((download.expiresAt.getTime() - ctx.now.getTime()) / 1000))
          : null,
        rows_exported: rowsExported(job),
        rows_available: job.payload.rowsAvailable,
        rows_capped_by_credits: job.payload.truncationReason === 'credits',
        query_credits_used: charged,
        creditsRemaining: await creditsRemaining(ctx),
      },
    };
  },
});
