import { parseCsv } from '../helpers/csv.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';

/**
 * A CSV enrichment run under the credit rules of POST /v1/enrichments: the hold takes what is left, the run is cut
 * by credits with the reason in its status and charges exactly the held matches; an opted-out person is a free
 * miss; with no credit left the start answers 402 and the upload can be started later.
 */
const TOKEN = 'operator-secret-token-0123456789abcdef';
let app: TestApp;
let people: Row[];

beforeAll(async () => {
  app = await startTestApp({ contacts: 400, companies: 60, seed: 4, env: { CDS_ADMIN_TOKEN: TOKEN } });
  const rows = await allRows(app, 'contacts');
  const count = new Map<string, number>();
  for (const r of rows) if (has(r.work_email)) count.set(r.work_email, (count.get(r.work_email) ?? 0) + 1);
  people = rows.filter((r) => has(r.work_email) && count.get(r.work_email) === 1);
});
afterAll(async () => app.close());

async function link(apiKey: string): Promise<string> {
  const res = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': apiKey },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'create_csv_enrichment_upload_link', arguments: {} },
    }),
  });
  return ((await res.json()) as any).result.structuredContent.upload_url;
}

async function spend(accountId: string, amount: number): Promise<void> {
  const now = app.clock.now();
  const state = app.services.state;
  const hold = await state.reserve({ accountId, kind: 'contact', category: 'enrich', amount, mode: 'exact', now });
  await state.commit(hold.id, amount, now);
}

const creditsLeft = async (page: ReturnType<typeof uploadPageClient>) =>
  (await page.get('state')).body.estimate?.credits_left as number;

describe('CSV enrichment run and credits', () => {
  it('is cut by credits: charges the held matches, says why, and skips an opted-out person for free', async () => {
    const { apiKey, accountId } = await app.createAccount('free');
    await spend(accountId, 97);
    const [out, ...rest] = people.slice(0, 10);
    const opted = await app.request('POST', '/v1/admin/optouts', {
      headers: { Authorization: `Bearer ${TOKEN}` },
      body: { type: 'email', values: [out!.work_email] },
    });
    expect(opted.status).toBeLessThan(300);
    const other = await app.createAccount('pro');
    await eventually(async () => {
      const r = await app.request('POST', '/v1/enrichments', {
        key: other.apiKey,
        body: { inputs: [out!.work_email] },
      });
      return r.body.data[0].matched === false ? true : undefined;
    });

    const page = uploadPageClient(await link(apiKey));
    const up = await page.file(`Email\r\n${[out!, ...rest].map((r) => r.work_email).join('\r\n')}\r\n`);
    expect(up.body.estimate).toMatchObject({ rows_that_can_match: 10, credits_left: 3, enough_credits: false });
    const started = await page.post('start', { mapping: up.body.mapping });
    expect(started.status).toBe(200);
    expect(started.body.run.credits_held).toBe(3);
    const run = await eventually(async () => {
      const r = (await page.get('run')).body.run;
      return r.status === 'completed' ? r : undefined;
    });
    expect(run).toMatchObject({
      matched_rows: 3,
      credits_charged: 3,
      credits_held: 0,
      truncated: true,
      truncation_reason: 'credits',
    });
    expect(await creditsLeft(page)).toBe(0);

    const job = await app.services.state.getJob(run.run_id);
    expect(job?.status).toBe('completed');
    expect(job?.result).toMatchObject({ credits_charged: 3, matched_rows: 3 });

    const csv = parseCsv(await (await fetch(await resultUrl(apiKey, run.run_id))).text());
    expect(csv.slice(1).map((r) => r[1])).toEqual([
      'no_match',
      'matched',
      'matched',
      'matched',
      ...Array(6).fill('not_charged_credits'),
    ]);
    expect(csv[5]!.slice(2).every((c) => c === '')).toBe(true);
    expect(csv[2]![2]).toBe(rest[0]!.id);

    // No credit left: the start answers 402 and the upload stays open for a later start.
    const page2 = uploadPageClient(await link(apiKey));
    const up2 = await page2.file(`Email\r\n${rest[0]!.work_email}\r\n`);
    const refused = await page2.post('start', { mapping: up2.body.mapping });
    expect([refused.status, refused.body.error.code]).toEqual([402, 'contact_credits.exhausted']);
    expect((await page2.get('state')).body.run).toBeNull();
  });

  it('a file whose rows cannot match runs for free', async () => {
    const { apiKey } = await app.createAccount('pro');
    const page = uploadPageClient(await link(apiKey));
    const up = await page.file('Email,Phone\r\nnot an email,\r\n,\r\n');
    expect(up.status).toBe(200);
    expect(up.body.estimate).toMatchObject({ rows_that_can_match: 0, max_credits: 0 });
    const started = await page.post('start', { mapping: up.body.mapping });
    expect(started.status).toBe(200);
    const run = await eventually(async () => {
      const r = (await page.get('run')).body.run;
      return r.status === 'completed' ? r : undefined;
    });
    expect(run).toMatchObject({ matched_rows: 0, credits_charged: 0, processed_rows: 2, truncated: false });
  });
});

async function resultUrl(apiKey: string, runId: string): Promise<string> {
  const res = await fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'X-API-Key': apiKey },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_enrichment_result', arguments: { run_id: runId } },
    }),
  });
  return ((await res.json()) as any).result.structuredContent.url;
}
