import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpTools } from '../helpers/mcp-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadPageClient } from '../helpers/upload-page.js';

/**
 * Through the upload page over HTTP: a file mixing UTF-8 and Windows-1252 lines is refused (400
 * `upload.invalid_file`, the lines that are not UTF-8 named, nothing stored); an Excel `sep=;` first line sets the
 * delimiter and the header is the line after it.
 */
let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 120, companies: 30, seed: 5 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

async function uploadLink(): Promise<string> {
  const { apiKey } = await app.createAccount('pro');
  const call = await mcpTools(app, apiKey, clients);
  return (await call('create_csv_enrichment_upload_link')).upload_url as string;
}

const utf8 = (s: string) => [...new TextEncoder().encode(s)];
const cp1252 = (s: string) => [...s].map((c) => c.charCodeAt(0));

it('a file mixing UTF-8 and Windows-1252 lines: 400 upload.invalid_file naming the lines, nothing stored', async () => {
  const page = uploadPageClient(await uploadLink());
  const bytes = Uint8Array.from([
    ...utf8('Email,Name\r\nann@example.com,Zoë\r\n'),
    ...cp1252('bo@example.com,Zoé\r\n'),
    ...utf8('cy@example.com,Núñez\r\n'),
  ]);
  const res = await page.file(bytes);
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('upload.invalid_file');
  expect(res.body.error.message).toMatch(/line 3 is not UTF-8 while other lines are/);
  expect(res.body.error.hint).toMatch(/UTF-8/);
  expect((await page.get('state')).body.file).toBeNull();
});

it('an Excel sep=; first line sets the delimiter; the header is the next line; cells keep their commas', async () => {
  const page = uploadPageClient(await uploadLink());
  const res = await page.file(
    '\uFEFFsep=;\r\nName;Email;Address\r\nLee, Ann;ann@example.com;1, Main St\r\nBo;bo@example.com;2, High St\r\n',
  );
  expect(res.status).toBe(200);
  expect(res.body.headers).toEqual(['Name', 'Email', 'Address']);
  expect(res.body.file).toMatchObject({ rows: 2 });
  expect(res.body.preview[0]).toEqual(['Lee, Ann', 'ann@example.com', '1, Main St']);
  expect(res.body.mapping).toMatchObject({ email: 'Email', full_name: 'Name' });
  // Read again from the stored sheet (the page's state), the sep= line is still not a row.
  const state = await page.get('state');
  expect(state.body.headers).toEqual(['Name', 'Email', 'Address']);
  expect(state.body.file).toMatchObject({ rows: 2 });
});
