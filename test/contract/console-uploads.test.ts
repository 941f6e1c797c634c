import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { consoleSignIn } from '../helpers/console-client.js';
import { allRows, has } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';

/**
 * The console's activity page lists the account's CSV enrichment runs as check_enrichment_status shows them, each
 * with a link to its upload page while that link is valid; another account's runs are not listed.
 */
let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 600, companies: 80, seed: 9 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

async function tool(apiKey: string, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const client = new Client({ name: 'cds-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }),
  );
  clients.push(client);
  const res = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: any };
  expect(res.isError).toBeUndefined();
  return res.structuredContent;
}

it('lists the account’s enrichment runs with their figures and upload page, and not another account’s', async () => {
  const a = await app.createAccount('pro', { name: 'A' });
  const b = await app.createAccount('pro', { name: 'B' });
  const emails = (await allRows(app, 'contacts'))
    .map((r) => r.work_email)
    .filter(has)
    .slice(0, 6);
  const csv = `Name,Email\r\n${emails.map((e, i) => `P${i},${e}`).join('\r\n')}\r\nQ,nobody@nowhere.example\r\n`;

  const link = await tool(a.apiKey, 'create_csv_enrichment_upload_link');
  const page = uploadPageClient(link.upload_url);
  const up = await page.file(csv, 'leads.csv');
  expect(up.status).toBe(200);
  const started = await page.post('start', { mapping: up.body.mapping });
  expect(started.status).toBe(200);
  const runId = started.body.run_id as string;
  const status = await eventually(async () => {
    const s = await tool(a.apiKey, 'check_enrichment_status', { run_id: runId });
    return s.status === 'completed' ? s : undefined;
  });

  const console = await consoleSignIn(app, a.apiKey);
  const activity = await console.call('GET', '/app/api/activity');
  expect(activity.status).toBe(200);
  const [listed, ...rest] = activity.body.data.uploads;
  expect(rest).toEqual([]);
  expect(listed).toMatchObject({
    id: runId,
    run_id: runId,
    upload_id: link.upload_id,
    file_name: 'leads.csv',
    status: 'completed',
    rows: 7,
    processed_rows: status.processed_rows,
    matched_rows: status.matched_rows,
    credits_charged: status.credits_charged,
  });
  expect(listed.matched_rows).toBeGreaterThan(0);
  // The page link is the upload's own (signed, no key), and it opens.
  expect(new URL(listed.upload_page).pathname).toBe(new URL(link.upload_url).pathname);
  expect(listed.upload_page).not.toContain(a.apiKey);
  expect((await page.page()).status).toBe(200);
  expect((await fetch(listed.upload_page)).status).toBe(200);

  const other = await consoleSignIn(app, b.apiKey);
  expect((await other.call('GET', '/app/api/activity')).body.data.uploads).toEqual([]);
});
