import type { Context, Middleware } from 'koa';
import type { Account } from '../../domain/account.js';
import { AppError } from '../../domain/errors/index.js';
import { FIELD_LABELS, hasIdentifier, UPLOAD_FIELDS } from '../../domain/uploads/mapping.js';
import type { Sheet } from '../../domain/uploads/parse-csv.js';
import { UPLOAD_MAX_BYTES } from '../../jobs/enrichment/payload.js';
import type { UploadRecord } from '../../jobs/enrichment/upload-store.js';
import { checkLink } from '../../jobs/export/links.js';
import { estimateOfCounts, estimateRun } from '../../operations/enrichment-upload/estimate.js';
import { fetchSheet } from '../../operations/enrichment-upload/fetch-sheet.js';
import { resultLink } from '../../operations/enrichment-upload/result-link.js';
import { runOf, runView, uploadStore } from '../../operations/enrichment-upload/run-view.js';
import {
  checkedMapping,
  noIdentifier,
  readUploadedSheet,
  type SheetSummary,
  storedSheet,
  summarize,
} from '../../operations/enrichment-upload/sheet.js';
import { startRun } from '../../operations/enrichment-upload/start-run.js';
import { uploadPath } from '../../operations/enrichment-upload/upload-link.js';
import type { Services } from '../../operations/types.js';
import { errorPage, uploadPage } from './page.js';
import { readJsonObject, readRawBody } from './read-body.js';
import { FairSlots } from './sheet-slots.js';

const ROUTE = /^\/upload\/(upl_[0-9A-Za-z]{1,64})(?:\/(state|file|url|estimate|start|run))?$/;

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
/** Sheet work (parses, estimates, starts) the upload pages of one process run at once, shared fairly (FairSlots). */
export const SHEET_WORK_MAX = 4;
/** How long a file or sheet already read waits for a work slot to be parsed (it is not read again). */
const BYTES_IN_WAIT_MS = 10_000;
/** How long an estimate or a start waits for a work slot (a second start of one upload waits for the first). */
const WORK_WAIT_MS = 5_000;
/** Files and sheet links being read (waiting on the network) at once in one process, shared fairly. */
export const SHEET_READS_MAX = 8;

export function uploadPageRoutes(services: Services): Middleware {
  const uploads = uploadStore(services);
  // Each slot holds a whole sheet in memory, so many links at once must not add up to the heap; one account or one
  // link cannot take them all (sheet-slots.ts), and `state` and `run` (what the page polls) take none.
  const work = new FairSlots(SHEET_WORK_MAX);
  const reading = new FairSlots(SHEET_READS_MAX);
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
    const held: Array<() => void> = [];
    /** A slot of `slots` for this upload and its account, or 429 saying whose turn it is. */
    const take = async (slots: FairSlots, what: 'read' | 'work', waitMs = 0) => {
      const got: ReturnType<FairSlots['take']> = waitMs
        ? await slots
            .wait(account.id, id, waitMs)
            .then((release) =>
              release ? { ok: true as const, release } : { ok: false as const, reason: 'busy' as const },
            )
        : slots.take(account.id, id);
      if (got.ok) {
        held.push(got.release);
        return;
      }
      if (got.reason === 'link' && what === 'read')
        throw new AppError('rate.limited', 'This upload is already reading a file or a sheet link.', {
          hint: 'Wait for it to finish, then try again.',
        });
      ctx.set('Retry-After', '2');
      const message =
        got.reason === 'busy'
          ? 'The service is reading other sheets just now.'
          : got.reason === 'tenant'
            ? `This account is ${what === 'read' ? 'reading' : 'working on'} ${slots.perTenant} sheets already.`
            : 'This upload is already being worked on.';
      throw new AppError('rate.limited', message, {
        hint: 'Try again in a few seconds.',
        details: { retry_after: 2 },
      });
    };
    try {
      ctx.body = { ok: true, ...(await act(ctx, action!, upload, account, take)) };
    } finally {
      for (const release of held) release();
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

  async function act(
    ctx: Context,
    action: string,
    upload: UploadRecord,
    account: Account,
    take: (slots: FairSlots, what: 'read' | 'work', waitMs?: number) => Promise<void>,
  ) {
    switch (action) {
      case 'state':
        return stateOf(upload, account, () => take(work, 'work', WORK_WAIT_MS));
      case 'file': {
        refuseStarted(upload);
        // The body arrives over the network: a read slot, then a work slot only for the parse.
        await take(reading, 'read');
        const bytes = await readRawBody(
          ctx,
          UPLOAD_MAX_BYTES,
          () =>
            new AppError('upload.too_large', 'The file is larger than 15 MB.', {
              hint: 'Split the sheet into files of at most 15 MB.',
            }),
        );
        const name = fileName(ctx.get('X-File-Name'));
        await take(work, 'work', BYTES_IN_WAIT_MS);
        return intake(upload, account, bytes, name, 'file');
      }
      case 'url': {
        refuseStarted(upload);
        const body = await readJsonObject(ctx);
        if (typeof body.url !== 'string' || body.url.trim() === '')
          throw new AppError('request.invalid', 'Send { "url": "…" }: the CSV link of a published sheet.', {
            field: 'url',
          });
        // The sheet server may be slow: the read holds a read slot while it waits, never a work slot.
        await take(reading, 'read');
        const got = await fetchSheet(body.url, {
          maxBytes: UPLOAD_MAX_BYTES,
          timeoutMs: services.config.uploadFetchTimeoutMs,
          allow: services.config.uploadFetchAllowHosts,
        });
        await take(work, 'work', BYTES_IN_WAIT_MS);
        return intake(upload, account, got.bytes, got.name, 'url');
      }
      case 'estimate': {
        await take(work, 'work', WORK_WAIT_MS);
        const sheet = await sheetOf(upload);
        const body = await readJsonObject(ctx);
        const mapping = checkedMapping(sheet.headers, body.mapping);
        return { estimate: await estimateRun(services, account, sheet, mapping) };
      }
      case 'start': {
        await take(work, 'work', WORK_WAIT_MS);
        const body = await readJsonObject(ctx);
        const { run_id } = await startRun(services, uploads, upload, account, body.mapping);
        return { run_id, run: runView(await runOf(services, account.id, run_id)) };
      }
      default: {
        if (!upload.run_id) return { run: null };
        return { run: await pageRun(account, upload.run_id, upload) };
      }
    }
  }

  /**
   * The run as the page shows it; once completed, with the result's download link (result-link.ts: one hour, bound
   * to the key that made the upload link, like get_enrichment_result's link).
   */
  async function pageRun(account: Account, runId: string, upload: UploadRecord) {
    const job = await runOf(services, account.id, runId);
    const link = job.status === 'completed' ? resultLink(services, job.id, services.clock.now(), upload.key_id) : null;
    return { ...runView(job), result_url: link?.url ?? null, result_expires_at: link?.expiresAt.toISOString() ?? null };
  }

  async function intake(upload: UploadRecord, account: Account, bytes: Buffer, name: string, source: 'file' | 'url') {
    const { sheet, stored, encoding } = readUploadedSheet(bytes, services.config.uploadMaxRows);
    const uploadedAt = services.clock.now().toISOString();
    const summary = summarize(sheet, services.config.networkHost, uploadedAt);
    if (!hasIdentifier(summary.mapping)) throw noIdentifierIn(sheet);
    // A start may have happened while the file was read: its run keeps the sheet it counted.
    refuseStarted((await uploads.get(upload.id, null)) ?? upload);
    const saved = await uploads.saveSheet(
      upload,
      stored,
      {
        name,
        source,
        bytes: bytes.length,
        rows: sheet.rowCount,
        encoding,
        headers: sheet.headers,
        uploaded_at: uploadedAt,
      },
      summary,
    );
    return stateOf(saved, account, undefined, summary);
  }

  /**
   * The upload, its sheet's summary and its run, to redraw the page. The summary is the one stored with the sheet,
   * so this reads no sheet (and takes no slot); only an upload stored without one (from before summaries) is parsed
   * again, under a work slot (`slot()`), and its summary stored for the next call.
   */
  async function stateOf(upload: UploadRecord, account: Account, slot?: () => Promise<void>, known?: SheetSummary) {
    const run = upload.run_id ? await pageRun(account, upload.run_id, upload) : null;
    if (!upload.file) return { upload_id: upload.id, file: null, run };
    let summary = known ?? (await storedSummary(upload));
    if (!summary) {
      await slot?.();
      summary = summarize(await sheetOf(upload), services.config.networkHost, upload.file.uploaded_at);
    }
    const { headers, ...file } = upload.file;
    return {
      upload_id: upload.id,
      // The headers are sent once (not again inside `file`).
      file,
      headers: summary.headers,
      preview: summary.preview,
      mapping: summary.mapping,
      estimate: summary.counts ? await estimateOfCounts(services, account, summary.counts) : null,
      run,
    };
  }

  async function storedSummary(upload: UploadRecord): Promise<SheetSummary | undefined> {
    const s = (await uploads.readSummary(upload.id)) as SheetSummary | undefined;
    return s && typeof s === 'object' && s.uploaded_at === upload.file?.uploaded_at ? s : undefined;
  }

  async function sheetOf(upload: UploadRecord): Promise<Sheet> {
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

function noIdentifierIn(sheet: Sheet): AppError {
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
