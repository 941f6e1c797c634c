import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { AppError } from '../domain/errors/index.js';
import { RESULT_FILE_NAME, resultsDir } from '../jobs/enrichment/files.js';
import { checkLink, EXPORT_FILE_NAME, exportsDir } from '../jobs/export/links.js';
import type { Services } from '../operations/types.js';

const ROUTE = /^\/files\/(exports|enrichments)\/([^/]+)$/;

/** The two kinds of signed files: export results and CSV enrichment results (valid 1 hour, jobs/enrichment). */
const FOLDERS = {
  exports: { name: EXPORT_FILE_NAME, dir: exportsDir, poll: 'poll GET /v1/exports/{export_id} for a fresh link' },
  enrichments: { name: RESULT_FILE_NAME, dir: resultsDir, poll: 'call get_enrichment_result for a fresh link' },
} as const;

/**
 * GET /files/exports/<export_id>.csv?expires=…&sig=…: the signed download link of a completed export
 * (jobs/export/links.ts); GET /files/enrichments/<run_id>.csv?… likewise for a CSV enrichment result. No API key: the signature is the credential. The signature is checked in constant
 * time before anything else; a bad or missing one answers 403 link.invalid, whatever the file. A valid
 * link past its expiry, or whose file is gone, answers 410 export.expired. Only `exp_….csv` names are
 * served, from the exports folder of the data dir.
 */
export function fileRoutes(services: Services): Middleware {
  return async (ctx, next) => {
    const m = ROUTE.exec(ctx.path);
    if (!m || ctx.method !== 'GET') return next();
    const folder = FOLDERS[m[1] as keyof typeof FOLDERS];
    const name = m[2]!;
    const invalid = () =>
      new AppError('link.invalid', 'The download link is invalid or was altered.', {
        hint: `Use the url exactly as it was handed out; ${folder.poll}.`,
      });
    if (!folder.name.test(name)) throw invalid();
    const check = checkLink(services.secret, `${m[1]}/${name}`, ctx.query.expires, ctx.query.sig, services.clock.now());
    if (!check.ok && check.reason === 'invalid') throw invalid();
    const gone = () =>
      new AppError('export.expired', 'The export file expired or is no longer available.', {
        hint: m[1] === 'exports' ? 'Start the export again.' : 'Call get_enrichment_result again for a fresh link.',
      });
    if (!check.ok) throw gone();
    const file = join(folder.dir(services.config.filesDir), name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) throw gone();
    ctx.status = 200;
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set('Content-Disposition', `attachment; filename="${name}"`);
    ctx.set('Content-Length', String(info.size));
    ctx.set('Cache-Control', 'private, no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = createReadStream(file);
  };
}
