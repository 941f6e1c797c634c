import { allRows } from './rows.js';
import type { TestApp } from './test-app.js';
import { eventually, uploadPageClient } from './upload-page.js';

/**
 * A completed CSV enrichment run of the account, made as a person makes one: an upload link from
 * POST /v1/enrichment-uploads, a small CSV (work emails of seeded contacts, plus one nobody has) dropped on its page,
 * the run started and polled until completed over GET /v1/enrichment-runs/{id}.
 */
export async function completedEnrichmentRun(
  app: TestApp,
  apiKey: string,
  opts: { emails?: number } = {},
): Promise<{ runId: string; uploadId: string; uploadUrl: string; emails: string[]; run: any }> {
  const emails = (await allRows(app, 'contacts'))
    .map((r) => r.work_email as string | null)
    .filter((e): e is string => typeof e === 'string' && e !== '')
    .slice(0, opts.emails ?? 2);
  const link = await app
    .request('POST', '/v1/enrichment-uploads', { key: apiKey, body: {} })
    // A kept-alive socket the server closed as this request went out (seen once in examples.test.ts): sent again on a
    // fresh one. Only a connection failure is retried, never an answer.
    .catch(() => app.request('POST', '/v1/enrichment-uploads', { key: apiKey, body: {} }));
  if (link.status !== 201) throw new Error(`upload link: ${link.status} ${JSON.stringify(link.body)}`);
  const page = uploadPageClient(link.body.data.upload_url);
  const csv = `email,note\n${emails.map((e, i) => `${e},row ${i + 1}`).join('\n')}\nnobody@nowhere.example,none\n`;
  const up = await page.file(csv, 'leads.csv');
  if (up.status !== 200) throw new Error(`upload: ${up.status} ${JSON.stringify(up.body)}`);
  const started = await page.post('start', { mapping: up.body.mapping });
  if (started.status !== 200) throw new Error(`start: ${started.status} ${JSON.stringify(started.body)}`);
  const runId = started.body.run_id as string;
  const run = await eventually(async () => {
    const r = await app.request('GET', `/v1/enrichment-runs/${runId}`, { key: apiKey });
    return r.body?.data?.status === 'completed' ? r.body.data : undefined;
  });
  return { runId, uploadId: link.body.data.upload_id, uploadUrl: link.body.data.upload_url, emails, run };
}
