import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectError } from '../helpers/errors.js';
import { mcpTools } from '../helpers/mcp-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadPageClient } from '../helpers/upload-page.js';

/**
 * A sheet link is a sheet only when its body was read to the end within the time limit (CDS_UPLOAD_FETCH_TIMEOUT_MS,
 * 20 s by default, here 2.5 s). A server sending one row a second without a length or chunking (the body ends when
 * the connection closes, as HTTP/1.0 servers send it) was taken as complete when the limit cut it: 200 with the
 * rows read so far, the last possibly cut mid-cell, and a run could start from it. Past the limit, and when the
 * connection is reset mid-body, the link now answers 400 upload.url_failed and nothing of the read is kept.
 */

const LIMIT_MS = 2500;
const ROWS = 60;
let app: TestApp;
let sheets: Server;
let sheetBase: string;
const clients: Client[] = [];

/** A body without Content-Length or chunking: it ends when the connection closes. */
function closeDelimited(res: ServerResponse): void {
  res.useChunkedEncodingByDefault = false;
  res.writeHead(200, { 'Content-Type': 'text/csv' });
}

/** Writes the header, then one row every `everyMs` until `rows` are sent; `cut` stops after that many rows. */
function stream(res: ServerResponse, o: { everyMs: number; rows: number; cut?: (sent: number) => boolean }): void {
  res.write('Email,Name\r\n');
  let sent = 0;
  const timer = setInterval(() => {
    if (o.cut?.(sent)) {
      clearInterval(timer);
      // Half a cell, then a reset (RST, not a close) once the half cell has gone out.
      res.write('p-cut@exam');
      setTimeout(() => res.socket?.resetAndDestroy(), 100);
      return;
    }
    sent++;
    res.write(`p${sent}@example.com,P${sent}\r\n`);
    if (sent >= o.rows) {
      clearInterval(timer);
      res.end();
    }
  }, o.everyMs);
  res.on('close', () => clearInterval(timer));
}

beforeAll(async () => {
  app = await startTestApp({
    contacts: 200,
    companies: 40,
    seed: 5,
    env: { CDS_UPLOAD_FETCH_ALLOW_HOSTS: '127.0.0.1', CDS_UPLOAD_FETCH_TIMEOUT_MS: String(LIMIT_MS) },
  });
  sheets = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/one-a-second.csv') {
      closeDelimited(res);
      stream(res, { everyMs: 1000, rows: ROWS });
    } else if (path === '/one-a-second-chunked.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      stream(res, { everyMs: 1000, rows: ROWS });
    } else if (path === '/reset.csv') {
      closeDelimited(res);
      stream(res, { everyMs: 100, rows: ROWS, cut: (sent) => sent === 2 });
    } else if (path === '/quick.csv') {
      closeDelimited(res);
      stream(res, { everyMs: 50, rows: 3 });
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => sheets.listen(0, '127.0.0.1', r));
  sheetBase = `http://127.0.0.1:${(sheets.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  sheets.closeAllConnections();
  await new Promise((r) => sheets.close(r));
  await app.close();
});

async function newUpload() {
  const { apiKey } = await app.createAccount('pro');
  const call = await mcpTools(app, apiKey, clients);
  const { upload_url } = await call('create_csv_enrichment_upload_link');
  return { key: apiKey, page: uploadPageClient(upload_url as string), call };
}

/** Nothing of the read is kept: the upload has no file, a start is refused, nothing is charged or held. */
async function expectNothingKept(up: Awaited<ReturnType<typeof newUpload>>) {
  const state = await up.page.get('state');
  expect(state.status).toBe(200);
  expect(state.body).toMatchObject({ file: null, run: null });
  const start = await up.page.post('start', { mapping: { email: 'Email' } });
  expectError(start, 409, 'upload.no_file');
  const credits = (await app.request('GET', '/v1/credits', { key: up.key })).body.data.contact.day;
  expect(credits).toMatchObject({ used: 0, held: 0 });
}

describe('a sheet link read past its time limit or cut short is not a sheet', () => {
  it.each([
    ['ending at the connection close', '/one-a-second.csv'],
    ['chunked', '/one-a-second-chunked.csv'],
  ])('one row a second (%s): 400 upload.url_failed, took too long, nothing kept', async (_framing, path) => {
    const up = await newUpload();
    const began = Date.now();
    const res = await up.page.url(`${sheetBase}${path}`);
    expect(Date.now() - began).toBeLessThan(LIMIT_MS + 3000);
    expectError(res, 400, 'upload.url_failed');
    expect(res.body.error.message).toMatch(/took too long/);
    await expectNothingKept(up);
  });

  it('a connection reset mid-body: 400 upload.url_failed, nothing kept', async () => {
    const up = await newUpload();
    const res = await up.page.url(`${sheetBase}/reset.csv`);
    expectError(res, 400, 'upload.url_failed');
    expect(res.body.error.message).toMatch(/connection broke/);
    await expectNothingKept(up);
  });

  it('a body that ends at the connection close within the limit is read whole', async () => {
    const up = await newUpload();
    const res = await up.page.url(`${sheetBase}/quick.csv`);
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ source: 'url', rows: 3, name: 'quick.csv' });
    expect(res.body.preview).toEqual([
      ['p1@example.com', 'P1'],
      ['p2@example.com', 'P2'],
      ['p3@example.com', 'P3'],
    ]);
  });
});
