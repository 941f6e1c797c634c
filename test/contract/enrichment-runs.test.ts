import { consoleSignIn } from '../helpers/console-client.js';
import { completedEnrichmentRun } from '../helpers/enrichment-run.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadPageClient } from '../helpers/upload-page.js';

/**
 * CSV enrichment over REST, for a person or a script without MCP: POST /v1/enrichment-uploads makes an upload page,
 * GET /v1/enrichment-runs lists the runs, GET /v1/enrichment-runs/{id} gives a signed result link (key-bound, 410
 * once the key is revoked); the upload page's last step offers the same download.
 */

let app: TestApp;
let key: string;
let other: string;
beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 60 });
  key = (await app.createAccount('unlimited')).apiKey;
  other = (await app.createAccount('unlimited')).apiKey;
}, 60_000);
afterAll(async () => app.close());

const credits = async (k: string) => (await app.request('GET', '/v1/credits', { key: k })).body.data.contact;

describe('enrichment runs over REST', () => {
  let first: Awaited<ReturnType<typeof completedEnrichmentRun>>;
  let second: Awaited<ReturnType<typeof completedEnrichmentRun>>;

  it('POST /v1/enrichment-uploads answers 201 with a working upload page; free; strict members', async () => {
    const before = await credits(key);
    const res = await app.request('POST', '/v1/enrichment-uploads', { key, body: {} });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ upload_id: expect.stringMatching(/^upl_/), max_rows: expect.any(Number) });
    expect(res.body.data.next).toBeUndefined();
    const page = await uploadPageClient(res.body.data.upload_url).page();
    expect(page.status).toBe(200);
    expect(await credits(key)).toEqual(before);
    expectError(
      await app.request('POST', '/v1/enrichment-uploads', { key, body: { name: 'x' } }),
      400,
      'request.invalid',
    );
    expectError(await app.request('POST', '/v1/enrichment-uploads', { body: {} }), 401, 'auth.invalid_key');
  });

  it('lists the runs newest first with cursor paging, each with its counts and credits', async () => {
    first = await completedEnrichmentRun(app, key, { emails: 2 });
    app.clock.set('2026-11-10T12:05:00.000Z');
    second = await completedEnrichmentRun(app, key, { emails: 1 });
    const all = await app.request('GET', '/v1/enrichment-runs', { key });
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: { id: string }) => r.id)).toEqual([second.runId, first.runId]);
    expect(all.body.data[1]).toMatchObject({
      id: first.runId,
      upload_id: first.uploadId,
      file_name: 'leads.csv',
      status: 'completed',
      rows: 3,
      processed_rows: 3,
      matched: 2,
      credits: 2,
      credits_held: 0,
      error: null,
      finished_at: expect.any(String),
    });
    const p1 = await app.request('GET', '/v1/enrichment-runs?limit=1', { key });
    expect(p1.body.data.map((r: { id: string }) => r.id)).toEqual([second.runId]);
    const p2 = await app.request(
      'GET',
      `/v1/enrichment-runs?limit=1&cursor=${encodeURIComponent(p1.body.page.next_cursor)}`,
      { key },
    );
    expect(p2.body.data.map((r: { id: string }) => r.id)).toEqual([first.runId]);
    expect(p2.body.page.next_cursor).toBeNull();
    expectError(await app.request('GET', '/v1/enrichment-runs?cursor=nope', { key }), 400, 'request.invalid');
    expectError(await app.request('GET', '/v1/enrichment-runs?status=completed', { key }), 400, 'request.invalid');
    // Another account sees none of them.
    expect((await app.request('GET', '/v1/enrichment-runs', { key: other })).body.data).toEqual([]);
  }, 60_000);

  it('GET /v1/enrichment-runs/{id} gives a result link that downloads the CSV; free; 404 for another account', async () => {
    const before = await credits(key);
    const res = await app.request('GET', `/v1/enrichment-runs/${first.runId}`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: first.runId, status: 'completed', matched: 2, credits: 2 });
    expect(res.body.data.result_columns[0]).toBe('Match status');
    expect(Date.parse(res.body.data.result_expires_at) - app.clock.now().getTime()).toBeLessThanOrEqual(3_600_000);
    const csv = await fetch(res.body.data.result_url);
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toContain('Match status');
    for (const e of first.emails) expect(text).toContain(e);
    expect(await credits(key)).toEqual(before);
    expectError(
      await app.request('GET', `/v1/enrichment-runs/${first.runId}`, { key: other }),
      404,
      'enrichment_run.not_found',
    );
    expectError(await app.request('GET', '/v1/enrichment-runs/enr_nothing', { key }), 404, 'enrichment_run.not_found');
    expectError(await app.request('GET', '/v1/enrichment-runs/exp_nothing', { key }), 404, 'enrichment_run.not_found');
  });

  it("the upload page's last step carries the download link", async () => {
    const page = uploadPageClient(first.uploadUrl);
    const run = await page.get('run');
    expect(run.status).toBe(200);
    expect(run.body.run).toMatchObject({
      status: 'completed',
      result_url: expect.stringContaining('/files/enrichments/'),
    });
    expect((await fetch(run.body.run.result_url)).status).toBe(200);
    const state = await page.get('state');
    expect(state.body.run.result_url).toEqual(expect.stringContaining(first.runId));
    const html = await page.page();
    expect(html.text).toContain('id="run-download"');
  });

  it('the console makes an upload link for the signed-in account and reads its runs with the result link', async () => {
    const session = await consoleSignIn(app, key);
    const made = await session.call('POST', '/app/api/op/enrichment_uploads.create', { body: {} });
    expect(made.status).toBe(201);
    expect((await uploadPageClient(made.body.data.upload_url).page()).status).toBe(200);
    const runs = await session.call('GET', '/app/api/op/enrichment_runs.list?limit=5');
    expect(runs.body.data.map((r: { id: string }) => r.id)).toEqual([second.runId, first.runId]);
    const one = await session.call('GET', `/app/api/op/enrichment_runs.get?id=${first.runId}`);
    expect(one.status).toBe(200);
    expect((await fetch(one.body.data.result_url)).status).toBe(200);
    // Without the CSRF token a console POST is refused.
    const forged = await session.call('POST', '/app/api/op/enrichment_uploads.create', { body: {}, csrf: null });
    expect(forged.status).toBe(403);
  });

  it('a result link stops working once its key is revoked (410 export.expired)', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const made = await completedEnrichmentRun(app, apiKey, { emails: 1 });
    const link = (await app.request('GET', `/v1/enrichment-runs/${made.runId}`, { key: apiKey })).body.data.result_url;
    expect((await fetch(link)).status).toBe(200);
    const keys = await app.request('GET', '/v1/keys', { key: apiKey });
    const keyId = keys.body.data[0].id as string;
    expect((await app.request('DELETE', `/v1/keys/${keyId}`, { key: apiKey })).status).toBe(200);
    const gone = await fetch(link);
    expect(gone.status).toBe(410);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('export.expired');
  }, 60_000);
});
