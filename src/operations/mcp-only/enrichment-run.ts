import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { resultLink } from '../enrichment-upload/result-link.js';
import { RESULT_COLUMNS, STATUS_HEADER } from '../enrichment-upload/run-job.js';
import { runOf, runView } from '../enrichment-upload/run-view.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';

const runId = v.pipe(v.string('must be a string'), v.minLength(1), v.maxLength(100));

const warning = out.obj({ code: out.str, message: out.str, count: out.num, keys_applied: out.list(out.str) });

/** `check_enrichment_status` (MCP only): where a CSV enrichment run is, what it matched and charged. */
export const checkEnrichmentStatus = defineOperation({
  name: 'mcp.enrichment_run_status',
  family: 'B',
  method: 'GET',
  path: '/mcp/tools/check_enrichment_status',
  auth: 'key',
  spends: false,
  summary: 'Check a CSV enrichment run (MCP only)',
  description:
    'Arguments: {run_id} from check_enrichment_upload. Answers status (queued, running, completed, failed), rows, ' +
    'processed_rows, matched_rows, credits_held (while it runs), credits_charged (one per matched row, settled on ' +
    'completion), truncated and truncation_reason "credits" when the credits ran out before every row that matched ' +
    'was charged, the warnings of enrich_contact (duplicate_work_email, duplicate_network, off_domain) with counts, ' +
    'and a sample of the first five rows. Poll every few seconds until completed, then call get_enrichment_result. ' +
    "Another account's run_id answers 404. Free.",
  cost: 'free',
  output: out.obj({
    run_id: out.str,
    upload_id: out.str,
    status: v.picklist(['queued', 'running', 'completed', 'failed']),
    rows: out.num,
    processed_rows: out.num,
    matched_rows: out.num,
    credits_held: out.num,
    credits_charged: out.num,
    truncated: out.bool,
    truncation_reason: out.nullable(out.str),
    warnings: out.list(warning),
    sample: out.list(out.obj({ row: out.num, status: out.str })),
    error: out.nullable(out.str),
  }),
  errors: ['enrichment_run.not_found'],
  input: v.object({ run_id: runId }),
  mcp: {
    tool: 'check_enrichment_status',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const job = await runOf(ctx.services, ctx.account!.id, input.run_id);
    const view = runView(job);
    return {
      body: {
        ...view,
        ...(view.status === 'completed'
          ? { next: { tool: 'get_enrichment_result', arguments: { run_id: job.id } } }
          : {}),
      },
    };
  },
});

/** `get_enrichment_result` (MCP only): the completed run's CSV as a signed link valid one hour. */
export const getEnrichmentResult = defineOperation({
  name: 'mcp.enrichment_run_result',
  family: 'B',
  method: 'GET',
  path: '/mcp/tools/get_enrichment_result',
  auth: 'key',
  spends: false,
  summary: 'Get a CSV enrichment result (MCP only)',
  description:
    'Arguments: {run_id}. For a completed run, answers url: a signed CSV link valid 1 hour (after that it answers ' +
    '410 export.expired; call this tool again for a fresh link, results are kept 7 days). The CSV (RFC 4180, UTF-8, ' +
    'CRLF) holds every input column as uploaded, then "Match status" (matched, no_match, off_domain, ambiguous, ' +
    'invalid, invalid_domain, missing, not_charged_credits), then the enrich_contact default columns by display ' +
    'label; cells are neutralized against spreadsheet formulas. A run not completed answers 409 ' +
    'enrichment_run.not_ready. Free: the run already charged its matches.',
  cost: 'free',
  output: out.obj({
    run_id: out.str,
    url: out.str,
    expires_at: out.str,
    expires_in_seconds: out.num,
    rows: out.num,
    matched_rows: out.num,
    columns: out.list(out.str),
  }),
  errors: ['enrichment_run.not_found', 'enrichment_run.not_ready'],
  input: v.object({ run_id: runId }),
  mcp: {
    tool: 'get_enrichment_result',
    annotations: { readOnlyHint: true, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const job = await runOf(ctx.services, ctx.account!.id, input.run_id);
    if (job.status !== 'completed')
      throw new AppError(
        'enrichment_run.not_ready',
        `The run is ${job.status === 'cancelled' ? 'failed' : job.status}, not completed.`,
        {
          hint:
            job.status === 'failed'
              ? 'The run failed and charged nothing; create a new upload link and start again.'
              : 'Poll check_enrichment_status until status is completed.',
        },
      );
    const { url, expiresAt } = resultLink(ctx.services, job.id, ctx.now, ctx.key?.id);
    return {
      body: {
        run_id: job.id,
        url,
        expires_at: expiresAt.toISOString(),
        expires_in_seconds: Math.round((expiresAt.getTime() - ctx.now.getTime()) / 1000),
        rows: job.payload.rows,
        matched_rows: job.result.matched_rows ?? 0,
        columns: [STATUS_HEADER, ...RESULT_COLUMNS.map((c) => c.label)],
      },
    };
  },
});
