import type { Context, Middleware } from 'koa';
import type { Account } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { FIELD_LABELS, guessMapping, hasIdentifier, UPLOAD_FIELDS } from '../../domain/uploads/mapping.js';
import type { ParsedSheet } from '../../domain/uploads/parse-csv.js';
import { UPLOAD_MAX_BYTES } from '../../jobs/enrichment/payload.js';
import type { UploadRecord } from '../../jobs/enrichment/upload-store.js';
import { checkLink } from '../../jobs/export/links.js';
import { estimateRun } from '../../operations/enrichment-upload/estimate.js';
import { fetchSheet } from '../../operations/enrichment-upload/fetch-sheet.js';
import { runOf, runView, uploadStore } from '../../operations/enrichment-upload/run-view.js';
import {
  checkedMapping,
  noIdentifier,
  readUploadedSheet,
  storedSheet,
} from '../../operations/enrichment-upload/sheet.js';
import { startRun } from '../../operations/enrichment-upload/start-run.js';
import { uploadPath } from '../../operations/enrichment-upload/upload-link.js';
import type { Services } from '../../operations/types.js';
import { errorPage, uploadPage } from './page.js';
import { readJsonObject, readRawBody } from './read-body.js';

const ROUTE = /^\/upload\/(upl_[0-9A-Za-z]{1,64})(?:\/(state|file|url|estimate|start|run))?$/;
const PREVIEW_ROWS = 10;

/**
 * The CSV enrichment upload page and its form endpoints, opened by the signed link of
 * create_csv_enrichment_upload_link (no API key: the link is the credential, like a file link):
 *
 * - GET  /upload/<upl_id>?expires&sig           the page (HTML, its script and style inline; no CDN)
 * - GET  /upload/<upl_id>/state?expires&sig     the upload, its preview and its run, to redraw the page
 * - POST /upload/<upl_id>/file?expires&sig      the CSV file as the raw body (`X-File-Name` names it) → preview
 * - POST /upload/<upl_id>/url?expires&sig       `{ "url": "…" }` a published sheet's CSV link → preview
 * - POST /upload/<upl_id>/estimate?expires&sig  `{ "mapping": {field: header} }` → the cost estimate
 * - POST /upload/<upl_id>/start?expires&sig     `{ "mapping": … }` → the run (402 when no credit is left)
 * - GET  /upload/<upl_id>/run?expires&sig       the run's status, for the progress bar
 *
 * The signature (constant time) and expiry are checked first: a bad one answers 403 link.invalid, an expired one
 * 410 link.expired; an upload id that is not stored answers 404 upload.not_found. A page error is a clear message
 * and charges nothing.
 */
/** Sheet reads, parses and estimates the upload pages of one process run at once; more answer 429. */
export const SHEET_WORK_MAX = 4;

export function uploadPageRoutes(services: Services): Middleware {
  const uploads = uploadStore(services);
  const reading = new Set<string>();
  // Sheet work (reading up to 15 MB, parsing it, estimating) in flight in this process, whatever the upload: each
  // holds a whole sheet in memory, so many links at once must not add up to the heap.
  let sheetWork = 0;
  return async (ctx, next) => {
    const m = ROUTE.exec(ctx.path);
    if (!m) return next();
    const [, id, action] = m as unknown as [string, string, string | undefined];
    const method = action === undefined || action === 'state' || action === 'run' ? 'GET' : 'POST';
    if (ctx.method !== method) return next();
    const html = action === undefined;
    let upload: UploadRecord;
    let account: Account;
    try {
      ({ upload, account } = await open(ctx, id));
    } catch (e) {
      if (!html || !(e instanceof AppError)) throw e;
      ctx.status = e.status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = errorPage(e.message, e.hint ?? '');
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    if (html) {
      ctx.set(
        'Content-Security-Policy',
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
      );
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = uploadPage({
        maxBytes: UPLOAD_MAX_BYTES,
        maxRows: services.config.uploadMaxRows,
        fields: UPLOAD_FIELDS.map((f) => ({ field: f, label: FIELD_LABELS[f] })),
      });
      return;
    }
    // One file or sheet link read at a time per upload (in this process): a link holder cannot pile up reads.
    const reads = action === 'file' || action === 'url';
    if (reads && reading.has(id))
      throw new AppError('rate.limited', 'This upload is already reading a file or a sheet link.', {
        hint: 'Wait for it to finish, then try again.',
      });
    const heavy = action !== 'run';
    if (heavy && sheetWork >= SHEET_WORK_MAX) {
      ctx.set('Retry-After', '2');
      throw new AppError('rate.limited', 'The service is reading other sheets just now.', {
        hint: 'Try again in a few seconds.',
        details: { retry_after: 2 },
      });
    }
    if (reads) reading.add(id);
    if (heavy) sheetWork++;
    try {
      ctx.body = { ok: true, ...(await act(ctx, action!, upload, account)) };
    } finally {
      if (reads) reading.delete(id);
      if (heavy) sheetWork--;
    }
  };

  async function open(ctx: Context, id: string): Promise<{ upload: UploadRecord; account: Account }> {
    const check = checkLink(services.secret, uploadPath(id), ctx.query.expires, ctx.query.sig, services.clock.now());
    if (!check.ok && check.reason === 'invalid')
      throw new AppError('link.invalid', 'This upload link is invalid or was altered.', {
        hint: 'Open the link exactly as your assistant gave it, or ask it for a new upload link.',
      });
    if (!check.ok)
      throw new AppError('link.expired', 'This upload link expired.', {
        hint: 'Ask your assistant for a new upload link (create_csv_enrichment_upload_link).',
      });
    const upload = await uploads.get(id, null);
    const account = upload ? await services.state.getAccount(upload.account_id) : undefined;
    if (!upload || !account)
      throw new AppError('upload.not_found', 'This upload no longer exists.', {
        hint: 'Ask your assistant for a new upload link.',
      });
    // The link has no more rights than the key that asked for it: a revoked key closes its pages.
    if (upload.key_id) {
      const key = (await services.state.listKeys(account.id)).find((k) => k.id === upload.key_id);
      if (!key || key.revokedAt !== null)
        throw new AppError('link.expired', 'The API key that made this upload link was revoked.', {
          hint: 'Ask your assistant for a new upload link (create_csv_enrichment_upload_link).',
        });
    }
    return { upload, account };
  }

  async function act(ctx: Context, action: string, upload: UploadRecord, account: Account) {
    switch (action) {
      case 'state':
        return stateOf(upload, account);
      case 'file': {
        refuseStarted(upload);
        const bytes = await readRawBody(
          ctx,
          UPLOAD_MAX_BYTES,
          () =>
            new AppError('upload.too_large', 'The file is larger than 15 MB.', {
              hint: 'Split the sheet into files of at most 15 MB.',
            }),
        );
        const name = fileName(ctx.get('X-File-Name'));
        return intake(upload, account, bytes, name, 'file');
      }
      case 'url': {
        refuseStarted(upload);
        const body = await readJsonObject(ctx);
        if (typeof body.url !== 'string' || body.url.trim() === '')
          throw new AppError('request.invalid', 'Send { "url": "…" }: the CSV link of a published sheet.', {
            field: 'url',
          });
        const got = await fetchSheet(body.url, {
          maxBytes: UPLOAD_MAX_BYTES,
          timeoutMs: services.config.uploadFetchTimeoutMs,
          allow: services.config.uploadFetchAllowHosts,
        });
        return intake(upload, account, got.bytes, got.name, 'url');
      }
      case 'estimate': {
        const sheet = await sheetOf(upload);
        const body = await readJsonObject(ctx);
        const mapping = checkedMapping(sheet.headers, body.mapping);
        return { estimate: await estimateRun(services, account, sheet, mapping) };
      }
      case 'start': {
        const body = await readJsonObject(ctx);
        const { run_id } = await startRun(services, uploads, upload, account, body.mapping);
        return { run_id, run: runView(await runOf(services, account.id, run_id)) };
      }
      default: {
        if (!upload.run_id) return { run: null };
        return { run: runView(await runOf(services, account.id, upload.run_id)) };
      }
    }
  }

  async function intake(upload: UploadRecord, account: Account, bytes: Buffer, name: string, source: 'file' | 'url') {
    const { sheet, text, encoding } = readUploadedSheet(bytes, services.config.uploadMaxRows);
    const guessed = guessMapping(sheet.headers, sheet.rows.slice(0, 50), services.config.networkHost);
    if (!hasIdentifier(guessed)) throw noIdentifierIn(sheet);
    // A start may have happened while the file was read: its run keeps the sheet it counted.
    refuseStarted((await uploads.get(upload.id, null)) ?? upload);
    const saved = await uploads.saveSheet(upload, text, {
      name,
      source,
      bytes: bytes.length,
      rows: sheet.rows.length,
      encoding,
      headers: sheet.headers,
      uploaded_at: services.clock.now().toISOString(),
    });
    return stateOf(saved, account, sheet, guessed);
  }

  async function stateOf(
    upload: UploadRecord,
    account: Account,
    known?: ParsedSheet,
    guessed?: ReturnType<typeof guessMapping>,
  ) {
    const sheet = known ?? (upload.file ? await sheetOf(upload) : null);
    const run = upload.run_id ? runView(await runOf(services, account.id, upload.run_id)) : null;
    if (!sheet || !upload.file) return { upload_id: upload.id, file: null, run };
    const mapping = guessed ?? guessMapping(sheet.headers, sheet.rows.slice(0, 50), services.config.networkHost);
    const estimate = hasIdentifier(mapping)
      ? await estimateRun(services, account, sheet, checkedMapping(sheet.headers, mapping))
      : null;
    return {
      upload_id: upload.id,
      file: upload.file,
      headers: sheet.headers,
      preview: sheet.rows.slice(0, PREVIEW_ROWS),
      mapping,
      estimate,
      run,
    };
  }

  async function sheetOf(upload: UploadRecord): Promise<ParsedSheet> {
    if (!upload.file)
      throw new AppError('upload.no_file', 'No file was uploaded yet.', {
        hint: 'Upload a CSV file or a sheet link first.',
      });
    return storedSheet(await uploads.readSheet(upload.id));
  }
}

function refuseStarted(upload: UploadRecord): void {
  if (upload.run_id)
    throw new AppError('upload.submitted', 'This upload was already started; its file cannot change.', {
      hint: 'Ask your assistant for a new upload link to enrich another file.',
      details: { run_id: upload.run_id },
    });
}

function noIdentifierIn(sheet: ParsedSheet): AppError {
  const e = noIdentifier();
  return new AppError(
    'upload.no_mappable_column',
    `No column of the file (${sheet.headers.slice(0, 8).join(', ')}${sheet.headers.length > 8 ? ', …' : ''}) holds ` +
      'emails, phone numbers or profile URLs, so no row can be matched.',
    { hint: e.hint ?? '' },
  );
}

function fileName(header: string): string {
  let name = header;
  try {
    name = decodeURIComponent(header);
  } catch {
    /* the header as sent */
  }
  return (
    [...name]
      .filter((c) => c.charCodeAt(0) >= 0x20)
      .join('')
      .slice(0, 200) || 'upload.csv'
  );
}
