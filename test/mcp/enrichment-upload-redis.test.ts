import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseCsv } from '../helpers/csv.js';
import { allRows, has } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from '../state/store-factories.js';

/** The CSV enrichment flow on the scale-out state: Redis jobs and holds, BullMQ wake-ups. */
describeRedis('CSV enrichment upload on Redis state', () => {
  let app: TestApp;
  let client: Client;
  const prefix = testPrefix();

  beforeAll(async () => {
    app = await startTestApp({
      contacts: 500,
      companies: 80,
      seed: 6,
      env: {
        CDS_STATE: 'redis',
        REDIS_URL,
        CDS_REDIS_PREFIX: prefix,
        CDS_SECRET: 'redis-test-secret-0123456789abcdef0123',
      },
    });
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await dropPrefix(REDIS_URL, prefix);
  });

  it('link, upload, start, completed run, result; credits charged == matched rows', async () => {
    const { apiKey } = await app.createAccount('pro');
    client = new Client({ name: 'cds-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: { 'X-API-Key': apiKey } },
      }),
    );
    const call = async (name: string, args: Record<string, unknown> = {}) =>
      ((await client.callTool({ name, arguments: args })) as any).structuredContent;
    const emails = (await allRows(app, 'contacts')).filter((r) => has(r.work_email)).slice(0, 150);
    const { upload_id, upload_url } = await call('create_csv_enrichment_upload_link');
    const page = uploadPageClient(upload_url);
    const up = await page.file(
      `Email\r\n${emails.map((r) => r.work_email).join('\r\n')}\r\nnobody@nowhere.example\r\n`,
    );
    expect(up.status).toBe(200);
    expect((await page.post('start', { mapping: up.body.mapping })).status).toBe(200);
    const { run_id } = await call('check_enrichment_upload', { upload_id });
    const status = await eventually(async () => {
      const s = await call('check_enrichment_status', { run_id });
      return s.status === 'completed' ? s : undefined;
    });
    expect(status).toMatchObject({ processed_rows: 151, matched_rows: 150, credits_charged: 150 });
    const credits = await app.request('GET', '/v1/credits', { key: apiKey });
    expect(credits.body.data.contact.day).toMatchObject({ used: 150, held: 0 });
    const { url } = await call('get_enrichment_result', { run_id });
    const csv = parseCsv(await (await fetch(url)).text());
    expect(csv).toHaveLength(152);
    expect(csv.slice(1).filter((r) => r[1] === 'matched')).toHaveLength(150);
  });
});
