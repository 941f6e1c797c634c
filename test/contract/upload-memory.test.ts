import { rmSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { MAX_CELL_CHARS, MAX_HEADER_CHARS, parseSheet } from '../../src/domain/uploads/parse-csv.js';
import { uploadSheetFile } from '../../src/jobs/enrichment/files.js';
import { expectError } from '../helpers/errors.js';
import { mcpTools } from '../helpers/mcp-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadPageClient } from '../helpers/upload-page.js';

/**
 * Issue 42 finding 3 (memory per upload): a 14 MB one-cell header made a 44 MB answer (the header echoed three
 * times) resent on every `state`; a file wide in one row padded every row to its width. Header and cell lengths are
 * capped (400 upload.invalid_file), rows are not padded, the headers are sent once, and `state` answers from the
 * summary stored with the sheet instead of parsing it again. RSS per upload is measured by bench/upload-memory.ts.
 */

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 200, companies: 40, seed: 5 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

async function newPage() {
  const { apiKey } = await app.createAccount('pro');
  const call = await mcpTools(app, apiKey, clients);
  const { upload_id, upload_url } = await call('create_csv_enrichment_upload_link');
  return { id: upload_id as string, page: uploadPageClient(upload_url as string) };
}

describe('upload memory: bounded cells, unpadded rows, headers once, no re-parse on state', () => {
  it('a header cell longer than the cap is refused with a clear 400; nothing is kept', async () => {
    const { page } = await newPage();
    const res = await page.file(`Email,${'H'.repeat(MAX_HEADER_CHARS + 1)}\r\nann@example.com,x\r\n`);
    expectError(res, 400, 'upload.invalid_file');
    expect(res.body.error.message).toMatch(/header of column 2 is longer than 256 characters/);
    expect(JSON.stringify(res.body).length).toBeLessThan(2000);
    expect((await page.get('state')).body).toMatchObject({ file: null });
  });

  it('a 14 MB one-cell header answers a short 400, not a 44 MB echo', async () => {
    const { page } = await newPage();
    const res = await page.file(`${'x'.repeat(14 * 1024 * 1024)}\r\nann@example.com\r\n`);
    expectError(res, 400, 'upload.invalid_file');
    expect(JSON.stringify(res.body).length).toBeLessThan(2000);
  });

  it('a cell longer than the cap is refused, naming its line and column', async () => {
    const { page } = await newPage();
    const res = await page.file(
      `Email,Note\r\nann@example.com,ok\r\nbob@example.com,${'n'.repeat(MAX_CELL_CHARS + 1)}\r\n`,
    );
    expectError(res, 400, 'upload.invalid_file');
    expect(res.body.error.message).toMatch(/^Line 3 column 2 holds more than 4,096 characters/);
    // A quoted cell is measured the same way.
    const quoted = await page.file(`Email,Note\r\nann@example.com,"${'q'.repeat(MAX_CELL_CHARS + 1)}"\r\n`);
    expectError(quoted, 400, 'upload.invalid_file');
  });

  it('cells at the cap are read; the answer sends the headers once and previews rows as wide as the header', async () => {
    const { page } = await newPage();
    const wide = `Email,Name,${Array.from({ length: 400 }, () => '').join(',')}`;
    const rows = Array.from({ length: 200 }, (_, i) => `p${i}@example.com,P${i}`);
    const csv = [`Email,Name,Note`, `a@example.com,A,${'z'.repeat(MAX_CELL_CHARS)}`, wide, ...rows].join('\r\n');
    const res = await page.file(csv);
    expect(res.status).toBe(200);
    expect(res.body.file).not.toHaveProperty('headers');
    expect(res.body.headers).toHaveLength(402);
    expect(res.body.preview).toHaveLength(10);
    for (const r of res.body.preview) expect(r).toHaveLength(402);
    expect(res.body.file).toMatchObject({ rows: 202 });
    // The answer is the preview and the headers once: a small multiple of ten rows, not of the file.
    const size = JSON.stringify(res.body).length;
    expect(size).toBeLessThan(MAX_CELL_CHARS + 402 * 10 * 3 + 402 * 12 + 4000);
    const state = await page.get('state');
    expect(state.body).toEqual({ ...res.body });
  });

  it('state answers from the stored summary: it does not read the sheet again', async () => {
    const { id, page } = await newPage();
    const res = await page.file('Email,Name\r\nann@example.com,Ann\r\nbob@example.com,Bob\r\n');
    expect(res.status).toBe(200);
    // The stored sheet gone: state still draws the page (the run reads the sheet, state does not).
    rmSync(uploadSheetFile(app.config.filesDir, id));
    const state = await page.get('state');
    expect(state.status).toBe(200);
    expect(state.body.preview).toEqual([
      ['ann@example.com', 'Ann'],
      ['bob@example.com', 'Bob'],
    ]);
    expect(state.body.estimate).toMatchObject({ rows: 2, rows_that_can_match: 2 });
  });

  it('parseSheet keeps each row its own width', () => {
    const res = parseSheet('A,B\r\n1\r\n1,2,3,4\r\n', 10);
    expect(res).toEqual({
      ok: true,
      sheet: { headers: ['A', 'B', 'Column 3', 'Column 4'], rows: [['1'], ['1', '2', '3', '4']], delimiter: ',' },
    });
    expect(parseSheet('"a""b",c\r\n"x\r\ny",z', 10)).toEqual({
      ok: true,
      sheet: { headers: ['a"b', 'c'], rows: [['x\r\ny', 'z']], delimiter: ',' },
    });
  });
});
