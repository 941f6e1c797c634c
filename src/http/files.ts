import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Middleware } from 'koa';
import { AppError } from '../domain/errors/index.js';
import { RESULT_FILE_NAME, resultsDir } from '../jobs/enrichment/files.js';
import { checkLink, EXPORT_FILE_NAME, exportsDir, linkSubject } from '../jobs/export/links.js';
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
 * link past its expiry, or whose file is gone, answers 410 export.expired. A link handed out to an API key names it
 * (`key`, signed with the path) and has no more rights than that key: once it is revoked, the link answers 410
 * export.expired too, as the upload pages it opens answer 410 link.expired (a new key's call hands out a fresh link).
 * Only `exp_….csv` and `enr_….csv` names are served, from their folders of the files dir.
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
    const subject = linkSubject(`${m[1]}/${name}`, ctx.query.key);
    if (!subject) throw invalid();
    const check = checkLink(services.secret, subject.path, ctx.query.expires, ctx.query.sig, services.clock.now());
    if (!check.ok && check.reason === 'invalid') throw invalid();
    const gone = () =>
      new AppError('export.expired', 'The export file expired or is no longer available.', {
        hint: m[1] === 'exports' ? 'Start the export again.' : 'Call get_enrichment_result again for a fresh link.',
      });
    if (!check.ok) throw gone();
    if (subject.keyId !== undefined) {
      // The key the link was handed out to must still be an active key of the account the file belongs to.
      const job = await services.state.getJob(name.slice(0, -'.csv'.length));
      const key = job ? (await services.state.listKeys(job.accountId)).find((k) => k.id === subject.keyId) : undefined;
      if (!key || key.revokedAt !== null) throw gone();
    }
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
