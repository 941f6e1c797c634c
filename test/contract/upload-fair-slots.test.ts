import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { FairSlots } from '../../src/http/upload-page/sheet-slots.js';
import { expectError } from '../helpers/errors.js';
import { mcpTools } from '../helpers/mcp-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';

/**
 * Issue 42 finding 1: sheet reads, parses and estimates shared 4 slots per process across all accounts, and a sheet
 * link held one while it waited on the network; four links to a slow server from one account answered 429 "reading
 * other sheets" to every other account, even the page's first `state` call. Slots are now shared fairly (per
 * account and per link, FairSlots), a remote read holds no work slot while it waits, and `state` takes none.
 */

let app: TestApp;
let sheets: Server;
let sheetBase: string;
const clients: Client[] = [];
const waiting: ServerResponse[] = [];
let asked = 0;

beforeAll(async () => {
  app = await startTestApp({
    contacts: 200,
    companies: 40,
    seed: 5,
    env: { CDS_UPLOAD_FETCH_ALLOW_HOSTS: '127.0.0.1', CDS_UPLOAD_FETCH_TIMEOUT_MS: '15000' },
  });
  // A slow sheet server: it sends the header, then holds the body until the test lets it go.
  sheets = createServer((_req: IncomingMessage, res: ServerResponse) => {
    asked++;
    res.writeHead(200, { 'Content-Type': 'text/csv' });
    res.write('Email,Name\r\n');
    waiting.push(res);
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

async function accountWithUploads(n: number) {
  const { apiKey } = await app.createAccount('pro');
  const call = await mcpTools(app, apiKey, clients);
  const pages = [];
  for (let i = 0; i < n; i++)
    pages.push(uploadPageClient((await call('create_csv_enrichment_upload_link')).upload_url as string));
  return pages;
}

const CSV = 'Email,Name\r\nann@example.com,Ann\r\nbob@example.com,Bob\r\n';

describe('upload pages share their slots fairly', () => {
  it('four slow sheet links from one account lock no other account out; state answers throughout', async () => {
    const slowOnes = await accountWithUploads(5);
    const [other] = await accountWithUploads(1);
    const reads = slowOnes.slice(0, 4).map((p) => p.url(`${sheetBase}/slow.csv`));
    await eventually(async () => (asked >= 4 ? true : undefined), 10_000);

    // The slow account's own pages still draw.
    for (const p of slowOnes) expect((await p.get('state')).status).toBe(200);
    // Another account: its state, a file, an estimate and its state again all answer.
    const first = await other!.get('state');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ ok: true, file: null });
    const up = await other!.file(CSV);
    expect(up.status).toBe(200);
    expect(up.body.file).toMatchObject({ rows: 2 });
    const est = await other!.post('estimate', { mapping: { email: 'Email' } });
    expect(est.status).toBe(200);
    expect(est.body.estimate).toMatchObject({ rows: 2 });
    expect((await other!.get('state')).body.preview).toHaveLength(2);

    // The slow account has reached its share of reads: a fifth is told so (429), not queued.
    const fifth = await slowOnes[4]!.file(CSV);
    expectError(fifth, 429, 'rate.limited');
    expect(fifth.body.error.message).toMatch(/This account is reading 4 sheets/);
    // A second read on a link already reading is refused too.
    expectError(await slowOnes[0]!.file(CSV), 429, 'rate.limited');

    // The slow server finishes: the four reads complete as sheets.
    for (const res of waiting.splice(0)) res.end('cat@example.com,Cat\r\n');
    for (const r of await Promise.all(reads)) {
      expect(r.status).toBe(200);
      expect(r.body.file).toMatchObject({ source: 'url', rows: 1 });
    }
    // Slots are given back: the fifth upload now reads.
    expect((await slowOnes[4]!.file(CSV)).status).toBe(200);
  }, 60_000);
});

describe('FairSlots (the engine pool rule)', () => {
  it('one slot per link, half the slots per account, the last free one for an account holding none', () => {
    const slots = new FairSlots(4);
    const a1 = slots.take('a', 'l1');
    expect(a1.ok).toBe(true);
    expect(slots.take('a', 'l1')).toEqual({ ok: false, reason: 'link' });
    const a2 = slots.take('a', 'l2');
    expect(a2.ok).toBe(true);
    expect(slots.take('a', 'l3')).toEqual({ ok: false, reason: 'tenant' });
    const b1 = slots.take('b', 'l4');
    expect(b1.ok).toBe(true);
    // One free slot: b holds one already, so it stays for an account holding none.
    expect(slots.take('b', 'l5')).toEqual({ ok: false, reason: 'busy' });
    const c1 = slots.take('c', 'l6');
    expect(c1.ok).toBe(true);
    expect(slots.take('d', 'l7')).toEqual({ ok: false, reason: 'busy' });
    if (a1.ok) {
      a1.release();
      a1.release(); // idempotent
    }
    expect(slots.inUse).toBe(3);
    expect(slots.holding('a')).toBe(1);
    expect(slots.take('d', 'l7').ok).toBe(true);
  });
});
