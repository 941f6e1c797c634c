import * as v from 'valibot';
import { AppError, isAppError } from '../../domain/errors/index.js';
import type { EnrichmentRunPayload, EnrichmentRunResult } from '../../jobs/enrichment/payload.js';
import type { Job } from '../../jobs/port.js';
import { resultLink } from '../enrichment-upload/result-link.js';
import { RESULT_COLUMNS, STATUS_HEADER } from '../enrichment-upload/run-job.js';
import { runOf, runView } from '../enrichment-upload/run-view.js';
import { listCursorMember, listLimitMember, pageOf } from '../list-paging.js';
import { createUploadLink, uploadLinkOutput } from '../mcp-only/enrichment-upload.js';
import * as out from '../outputs.js';
import { defineOperation, type OpContext } from '../types.js';

type Run = Job<EnrichmentRunPayload, EnrichmentRunResult>;

/** Runs kept in the list (the newest); older runs are still read by id. */
const LISTED_RUNS = 1000;

const runSummary = {
  id: out.str,
  upload_id: out.str,
  file_name: out.nullable(out.str),
  status: v.picklist(['queued', 'running', 'completed', 'failed']),
  rows: out.num,
  processed_rows: out.num,
  matched: out.num,
  credits: out.num,
  credits_held: out.num,
  truncated: out.bool,
  error: out.nullable(out.str),
  created_at: out.str,
  finished_at: out.nullable(out.str),
};

function summaryOf(job: Run) {
  const view = runView(job);
  return {
    id: job.id,
    upload_id: view.upload_id,
    file_name: view.file_name,
    status: view.status as 'queued' | 'running' | 'completed' | 'failed',
    rows: view.rows,
    processed_rows: view.processed_rows,
    matched: view.matched_rows,
    credits: view.credits_charged,
    credits_held: view.credits_held,
    truncated: view.truncated,
    error: view.error,
    created_at: view.created_at,
    finished_at: view.finished_at,
  };
}

async function loadRun(ctx: OpContext, id: string): Promise<Run> {
  try {
    return await runOf(ctx.services, ctx.account!.id, id);
  } catch (e) {
    if (isAppError(e) && e.code === 'enrichment_run.not_found')
      throw new AppError('enrichment_run.not_found', 'Unknown enrichment run id.', {
        field: 'id',
        hint: 'GET /v1/enrichment-runs lists the runs of this account.',
      });
    throw e;
  }
}

export const listEnrichmentRuns = defineOperation({
  name: 'enrichment_runs.list',
  family: 'A',
  method: 'GET',
  path: '/v1/enrichment-runs',
  auth: 'key',
  spends: false,
  summary: 'List CSV enrichment runs',
  description:
    "The account's CSV enrichment runs (started on an upload page, from the console or an assistant's link), newest " +
    'first, page by page (limit default 50, at most 200): id, status (queued, running, completed, failed), rows, ' +
    'processed_rows, matched (rows matched), credits (contact credits charged, one per matched row), credits_held ' +
    `while it runs, created_at and finished_at. The newest ${LISTED_RUNS.toLocaleString('en-US')} are listed. ` +
    'GET /v1/enrichment-runs/{id} gives the result link. Free.',
  cost: 'free',
  output: out.list(out.obj(runSummary)),
  errors: [],
  input: v.object({ cursor: listCursorMember, limit: listLimitMember(200, 50) }),
  handler: async (ctx, input) => {
    const jobs = (await ctx.services.state.listJobs(
      ctx.account!.id,
      'enrichment_run',
      LISTED_RUNS,
    )) as unknown as Run[];
    const { items, page } = pageOf(jobs, (j) => [j.createdAt, j.id], input.cursor, input.limit);
    return { data: items.map(summaryOf), page };
  },
});

export const getEnrichmentRun = defineOperation({
  name: 'enrichment_runs.get',
  family: 'A',
  method: 'GET',
  path: '/v1/enrichment-runs/:id',
  auth: 'key',
  spends: false,
  summary: 'Get a CSV enrichment run',
  description:
    'One CSV enrichment run: its status and counts, the warnings of the match (duplicate_work_email, ' +
    'duplicate_network, off_domain with counts), a sample of its first rows, and once completed result_url: a ' +
    'signed link to the result CSV valid 1 hour (result_expires_at), bound to this API key (410 export.expired once ' +
    'the key is revoked or past its time; read this route again for a fresh link, results are kept 7 days). The CSV ' +
    'holds every input column, "Match status", then the enrichment default columns by display label ' +
    "(result_columns). Another account's id answers 404 enrichment_run.not_found. Free: the run already charged.",
  cost: 'free',
  output: out.obj({
    ...runSummary,
    warnings: out.list(out.obj({ code: out.str, message: out.str, count: out.num })),
    sample: out.list(out.obj({ row: out.num, status: out.str })),
    result_url: out.nullable(out.str),
    result_expires_at: out.nullable(out.str),
    result_columns: out.list(out.str),
  }),
  errors: ['enrichment_run.not_found'],
  input: v.object({
    id: v.pipe(
      v.string('must be a string'),
      v.maxLength(100, 'must be at most 100 characters'),
      v.description('The run id (enr_…).'),
    ),
  }),
  handler: async (ctx, input) => {
    const job = await loadRun(ctx, input.id);
    const view = runView(job);
    const link = job.status === 'completed' ? resultLink(ctx.services, job.id, ctx.now, ctx.key?.id) : null;
    return {
      data: {
        ...summaryOf(job),
        warnings: view.warnings,
        sample: view.sample,
        result_url: link?.url ?? null,
        result_expires_at: link?.expiresAt.toISOString() ?? null,
        result_columns: [STATUS_HEADER, ...RESULT_COLUMNS.map((c) => c.label)],
      },
    };
  },
});

export const createEnrichmentUpload = defineOperation({
  name: 'enrichment_uploads.create',
  family: 'A',
  method: 'POST',
  path: '/v1/enrichment-uploads',
  auth: 'key',
  spends: false,
  summary: 'Create a CSV enrichment upload link',
  description:
    'A new upload page for this account, as the MCP tool create_csv_enrichment_upload_link makes it: upload_url, a ' +
    'signed browser link valid 24 hours (bound to this API key, no key in it) where a person drops a CSV file of up ' +
    'to 15 MB (or a published sheet link), maps its columns, sees the cost estimate, starts the run and downloads ' +
    'the result. The run then shows in GET /v1/enrichment-runs. No members. Free; the run costs one contact credit ' +
    'per matched row.',
  cost: 'free (the run: one contact credit per matched row)',
  output: uploadLinkOutput,
  errors: [],
  input: v.object({}),
  handler: async (ctx) => {
    // The MCP tool's own handler (one way to make an upload link); its `next` names an MCP tool, so it is left out.
    const { body } = await createUploadLink.handler(ctx, {});
    const { next: _next, ...data } = body as Record<string, unknown>;
    return { status: 201, data };
  },
});
