import * as v from 'valibot';
import { AppError } from '../../domain/errors/index.js';
import { newId } from '../../domain/ids.js';
import { FIELD_LABELS, UPLOAD_FIELDS } from '../../domain/uploads/mapping.js';
import { UPLOAD_MAX_BYTES } from '../../jobs/enrichment/payload.js';
import { uploadStore } from '../enrichment-upload/run-view.js';
import { uploadLinkExpiry, uploadPageLink } from '../enrichment-upload/upload-link.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';

const uploadId = v.pipe(v.string('must be a string'), v.minLength(1), v.maxLength(100));

/**
 * `create_csv_enrichment_upload_link` (MCP only): a signed browser link to this account's upload page. The user
 * uploads a CSV (or pastes a published sheet's CSV link), maps its columns, sees the cost estimate and starts the
 * run there; the agent follows with check_enrichment_upload, check_enrichment_status and get_enrichment_result.
 */
/** A new upload page's link and bounds: the MCP tool and POST /v1/enrichment-uploads answer the same members. */
export const uploadLinkOutput = out.obj({
  upload_id: out.str,
  upload_url: out.str,
  expires_at: out.str,
  expires_in_seconds: out.num,
  max_file_bytes: out.num,
  max_rows: out.num,
});

export const createUploadLink = defineOperation({
  name: 'mcp.enrichment_upload_link',
  family: 'B',
  method: 'POST',
  path: '/mcp/tools/create_csv_enrichment_upload_link',
  auth: 'key',
  spends: false,
  summary: 'Create a CSV enrichment upload link (MCP only)',
  description:
    'Returns upload_id and upload_url: a browser link (valid 24 hours, signed, bound to this account, no API key in ' +
    'it) to a page where the user drops a CSV file of up to 15 MB and 50,000 rows (UTF-8 with or without BOM, or ' +
    'Windows-1252), or pastes the CSV export link of a published online spreadsheet; maps its columns (email, ' +
    'phone, profile URL, first name, last name, full name, company name, domain); sees the cost estimate; and starts ' +
    'the run. Rows match by the rules of enrich_contact (email, then profile URL, then phone; a domain column acts ' +
    'as company_domain). Give the user the link, then poll check_enrichment_upload({upload_id}) until submitted is ' +
    'true. No arguments. Free; the run costs one contact credit per matched row.',
  cost: 'free (the run: one contact credit per matched row)',
  output: uploadLinkOutput,
  errors: [],
  input: v.object({}),
  mcp: {
    tool: 'create_csv_enrichment_upload_link',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx) => {
    const { services } = ctx;
    const id = newId('upload');
    const expiresAt = uploadLinkExpiry(ctx.now);
    await uploadStore(services).create(
      {
        id,
        account_id: ctx.account!.id,
        ...(ctx.key ? { key_id: ctx.key.id } : {}),
        created_at: ctx.now.toISOString(),
        expires_at: expiresAt.toISOString(),
      },
      ctx.now,
    );
    return {
      body: {
        upload_id: id,
        upload_url: uploadPageLink(services.config.publicUrl, services.secret, id, expiresAt),
        expires_at: expiresAt.toISOString(),
        expires_in_seconds: Math.round((expiresAt.getTime() - ctx.now.getTime()) / 1000),
        max_file_bytes: UPLOAD_MAX_BYTES,
        max_rows: services.config.uploadMaxRows,
        mapping_fields: UPLOAD_FIELDS.map((f) => ({ field: f, label: FIELD_LABELS[f] })),
        next: { tool: 'check_enrichment_upload', arguments: { upload_id: id } },
      },
    };
  },
});

/** `check_enrichment_upload` (MCP only): whether the user uploaded a file and started the run, and its run_id. */
export const checkUpload = defineOperation({
  name: 'mcp.enrichment_upload_check',
  family: 'B',
  method: 'GET',
  path: '/mcp/tools/check_enrichment_upload',
  auth: 'key',
  spends: false,
  summary: 'Check a CSV enrichment upload (MCP only)',
  description:
    'Arguments: {upload_id} from create_csv_enrichment_upload_link. Answers status waiting (no file yet), uploaded ' +
    '(file received, run not started), submitted (the run started: run_id is set) or expired (the link expired ' +
    'before a run started), with submitted, run_id, the file name and row count. Poll every few seconds while the ' +
    "user works on the page; once submitted, follow check_enrichment_status({run_id}). Another account's upload_id " +
    'answers 404. Free.',
  cost: 'free',
  output: out.obj({
    upload_id: out.str,
    status: v.picklist(['waiting', 'uploaded', 'submitted', 'expired']),
    submitted: out.bool,
    run_id: out.nullable(out.str),
    expires_at: out.str,
  }),
  errors: ['upload.not_found'],
  input: v.object({ upload_id: uploadId }),
  mcp: {
    tool: 'check_enrichment_upload',
    annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const rec = await uploadStore(ctx.services).get(input.upload_id, ctx.account!.id);
    if (!rec)
      throw new AppError('upload.not_found', 'Unknown upload id.', {
        field: 'upload_id',
        hint: 'Use the upload_id create_csv_enrichment_upload_link returned with this API key.',
      });
    const status = rec.run_id
      ? 'submitted'
      : Date.parse(rec.expires_at) <= ctx.now.getTime()
        ? 'expired'
        : rec.file
          ? 'uploaded'
          : 'waiting';
    return {
      body: {
        upload_id: rec.id,
        status,
        submitted: rec.run_id !== null,
        run_id: rec.run_id,
        expires_at: rec.expires_at,
        file: rec.file
          ? { name: rec.file.name, rows: rec.file.rows, bytes: rec.file.bytes, source: rec.file.source }
          : null,
        ...(rec.run_id ? { next: { tool: 'check_enrichment_status', arguments: { run_id: rec.run_id } } } : {}),
      },
    };
  },
});
