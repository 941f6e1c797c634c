import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SHEET_READS_MAX } from '../../src/http/upload-page/routes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { uploadPageClient } from '../helpers/upload-page.js';

/**
 * The upload page's bad inputs: each is a clear message with its code and charges nothing; the link is checked
 * before anything; spreadsheet links go through the SSRF guard (the app allows only 127.0.0.1, the tests' sheet server).
 */
let app: TestApp;
let sheets: Server;
let sheetBase: string;
const clients: Client[] = [];
const MAX_ROWS = 50;
/** Called when the sheet server receives a request for /slow.csv. */
const slowReached: Array<() => void> = [];

beforeAll(async () => {
  app = await startTestApp({
    contacts: 300,
    companies: 60,
    seed: 3,
    env: {
      CDS_UPLOAD_MAX_ROWS: String(MAX_ROWS),
      CDS_UPLOAD_FETCH_ALLOW_HOSTS: '127.0.0.1',
      CDS_UPLOAD_FETCH_TIMEOUT_MS: '1500',
    },
  });
  sheets = createServer((req, res) => {
    const path = req.url ?? '/';
    if (path === '/sheet.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.end('Email,Name\r\nann@example.com,Ann\r\nbo@example.com,Bo\r\n');
    } else if (path.startsWith('/redirect?to=')) {
      res.writeHead(302, { Location: decodeURIComponent(path.slice('/redirect?to='.length)) });
      res.end();
    } else if (path === '/big.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      const line = `Email\r\n${'x@example.com\r\n'.repeat(1024 * 1024)}`;
      res.end(line);
    } else if (path === '/bad-redirect') {
      res.writeHead(302, { Location: 'http://[x' });
      res.end();
    } else if (path === '/%E0.csv') {
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.end('Email\r\nann@example.com\r\n');
    } else if (path === '/slow.csv') {
      for (const reached of slowReached.splice(0)) reached();
      res.writeHead(200, { 'Content-Type': 'text/csv' });
      res.write('Email\r\n');
      setTimeout(() => res.end(), 5000).unref();
    } else if (path === '/page.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><html><body>Sign in</body></html>');
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
  const { apiKey: key, accountId } = await app.createAccount('pro');
  const client = new Client({ name: 'cds-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': key } } }),
  );
  clients.push(client);
  const res = (await client.callTool({ name: 'create_csv_enrichment_upload_link', arguments: {} })) as any;
  return {
    key,
    accountId,
    client,
    link: res.structuredContent.upload_url as string,
    id: res.structuredContent.upload_id as string,
  };
}

async function used(key: string): Promise<{ used: number; held: number }> {
  return (await app.request('GET', '/v1/credits', { key })).body.data.contact.day;
}

const enc = (s: string) => new TextEncoder().encode(s);

describe('upload page: bad files get a clear message and charge nothing', () => {
  it.each([
    ['an Excel workbook', Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'upload.invalid_file', /Excel/],
    ['a PDF', enc('%PDF-1.4 ...'), 'upload.invalid_file', /PDF/],
    ['a web page', enc('<!doctype html><html></html>'), 'upload.invalid_file', /HTML/],
    ['binary data', Uint8Array.from([0x41, 0x00, 0x42, 0x0a]), 'upload.invalid_file', /binary/],
    ['UTF-16 text', Uint8Array.from([0xff, 0xfe, 0x45, 0x00, 0x6d, 0x00]), 'upload.invalid_file', /UTF-16/],
    [
      'bytes that are neither UTF-8 nor Windows-1252',
      Uint8Array.from([0x45, 0x81, 0x0a, 0x61]),
      'upload.invalid_file',
      /neither/,
    ],
    [
      'UTF-8 BOM then invalid UTF-8',
      Uint8Array.from([0xef, 0xbb, 0xbf, 0x45, 0xff, 0x0a]),
      'upload.invalid_file',
      /invalid UTF-8/,
    ],
    ['an empty file', new Uint8Array(0), 'upload.invalid_file', /empty/],
    ['blank lines only', enc('\r\n\r\n  \r\n'), 'upload.invalid_file', /empty/],
    ['a header without rows', enc('Email,Name\r\n'), 'upload.invalid_file', /no rows/],
    ['an unclosed quote', enc('Email,Name\r\n"ann@example.com,Ann\r\n'), 'upload.invalid_file', /never closed/],
    [
      'no mappable column',
      enc('Fruit,Colour\r\napple,red\r\npear,green\r\n'),
      'upload.no_mappable_column',
      /Fruit, Colour/,
    ],
    [
      `more than ${MAX_ROWS} rows`,
      enc(`Email\r\n${Array.from({ length: MAX_ROWS + 1 }, (_, i) => `p${i}@example.com`).join('\r\n')}`),
      'upload.too_many_rows',
      /more than 50 rows/,
    ],
  ])('%s', async (_what, bytes, code, message) => {
    const { key, link, client, id } = await newUpload();
    const res = await uploadPageClient(link).file(bytes);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(code);
    expect(res.body.error.message).toMatch(message);
    expect(res.body.error.hint).toBeTruthy();
    const check = (await client.callTool({ name: 'check_enrichment_upload', arguments: { upload_id: id } })) as any;
    expect(check.structuredContent.status).toBe('waiting');
    expect(await used(key)).toMatchObject({ used: 0, held: 0 });
  });

  it('over 15 MB: 413 upload.too_large, read no further', async () => {
    const { key, link } = await newUpload();
    const big = new Uint8Array(15 * 1024 * 1024 + 1).fill(0x61);
    const res = await uploadPageClient(link).file(big);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('upload.too_large');
    expect(await used(key)).toMatchObject({ used: 0, held: 0 });
  });

  it('over 15 MB sent without Content-Length: 413 once the limit is passed, the rest drained', async () => {
    const { key, link } = await newUpload();
    const page = uploadPageClient(link);
    // One kept-alive connection: the next call can use it only once this upload's rest has been read and dropped.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (path: string, method: string, chunks: string[]) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = request(path, { method, agent, headers: { 'Content-Type': 'text/csv', 'X-File-Name': 'big.csv' } });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (b: Buffer) => (text += b.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        });
        req.on('error', reject);
        // Streamed in chunks with no length announced; the rest keeps coming after the answer.
        for (const c of chunks) req.write(c);
        req.end();
      });
    try {
      const big = await call(
        page.at('file'),
        'POST',
        Array.from({ length: 17 }, () => 'a'.repeat(1024 * 1024)),
      );
      expect([big.status, big.body.error.code]).toEqual([413, 'upload.too_large']);
      const next = await call(page.at('state'), 'GET', []);
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
    expect(await used(key)).toMatchObject({ used: 0, held: 0 });
  });

  it('exactly MAX rows, Windows-1252 and semicolons are read; é survives', async () => {
    const { link } = await newUpload();
    const text = `Nom;E-mail\r\n${Array.from({ length: MAX_ROWS }, (_, i) => `Zoé ${i};p${i}@example.com`).join('\r\n')}`;
    const bytes = Uint8Array.from([...text].map((c) => (c === 'é' ? 0xe9 : c.charCodeAt(0))));
    const res = await uploadPageClient(link).file(bytes, 'liste.csv');
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ rows: MAX_ROWS, encoding: 'windows-1252', name: 'liste.csv' });
    expect(res.body.headers).toEqual(['Nom', 'E-mail']);
    expect(res.body.preview[0]).toEqual(['Zoé 0', 'p0@example.com']);
    expect(res.body.mapping).toMatchObject({ email: 'E-mail', full_name: 'Nom' });
  });

  it('a column with no telling header is still guessed from its values', async () => {
    const { link } = await newUpload();
    const res = await uploadPageClient(link).file('Who,Contact point\r\nAnn,ann@example.com\r\nBo,bo@example.com\r\n');
    expect(res.status).toBe(200);
    expect(res.body.mapping.email).toBe('Contact point');
  });

  it('mapping and start refuse what cannot run, charging nothing', async () => {
    const { key, link } = await newUpload();
    const page = uploadPageClient(link);
    const early = await page.post('start', { mapping: { email: 'Email' } });
    expect([early.status, early.body.error.code]).toEqual([409, 'upload.no_file']);
    expect((await page.post('estimate', { mapping: {} })).body.error.code).toBe('upload.no_file');
    expect((await page.file('Email,Name\r\nann@example.com,Ann\r\n')).status).toBe(200);
    for (const [mapping, code] of [
      [{ email: null, full_name: 'Name' }, 'upload.no_mappable_column'],
      [{ email: 'Nope' }, 'request.invalid'],
      [{ colour: 'Email' }, 'request.invalid'],
      ['Email', 'request.invalid'],
    ] as const) {
      for (const action of ['estimate', 'start'] as const) {
        const res = await page.post(action, { mapping });
        expect([action, res.body.error?.code]).toEqual([action, code]);
      }
    }
    expect(await used(key)).toMatchObject({ used: 0, held: 0 });
  });

  it('a suspended account cannot start a run', async () => {
    const { key, accountId, link } = await newUpload();
    const page = uploadPageClient(link);
    const up = await page.file('Email\r\nann@example.com\r\n');
    await app.services.state.setAccountStatus(accountId, 'suspended');
    const res = await page.post('start', { mapping: up.body.mapping });
    expect([res.status, res.body.error?.code]).toEqual([403, 'account.suspended']);
    expect(await used(key)).toMatchObject({ used: 0, held: 0 });
  });
});

describe('upload page: the link is the credential', () => {
  it('a tampered, foreign or expired link is refused before anything is read', async () => {
    const a = await newUpload();
    const b = await newUpload();
    const url = new URL(a.link);
    const sig = url.searchParams.get('sig')!;
    // One character of the signature changed (not one of its last two: base64url's unused trailing bits could leave
    // the decoded signature as it was).
    const tampered = a.link.replace(`sig=${sig}`, `sig=${sig.slice(0, 5)}${sig[5] === 'A' ? 'B' : 'A'}${sig.slice(6)}`);
    const swapped = b.link.replace(b.id, a.id);
    const later = a.link.replace(/expires=(\d+)/, (_m, e) => `expires=${Number(e) + 3600}`);
    for (const bad of [tampered, swapped, later, a.link.replace(/&sig=.*/, '')]) {
      const page = uploadPageClient(bad);
      const html = await page.page();
      expect(html.status).toBe(403);
      expect(html.text).toContain('invalid or was altered');
      const res = await page.file('Email\r\nann@example.com\r\n');
      expect([res.status, res.body.error.code]).toEqual([403, 'link.invalid']);
    }
    const check = (await a.client.callTool({ name: 'check_enrichment_upload', arguments: { upload_id: a.id } })) as any;
    expect(check.structuredContent.status).toBe('waiting');
  });

  it('revoking the key that made the link closes its page', async () => {
    const a = await newUpload();
    const page = uploadPageClient(a.link);
    expect((await page.get('state')).status).toBe(200);
    const keys = await app.request('GET', '/v1/keys', { key: a.key });
    const keyId = keys.body.data[0].id as string;
    expect((await app.request('DELETE', `/v1/keys/${keyId}`, { key: a.key })).status).toBe(200);
    const closed = await page.get('state');
    expect([closed.status, closed.body.error.code]).toEqual([410, 'link.expired']);
    const file = await page.file('Email\r\nann@example.com\r\n');
    expect([file.status, file.body.error.code]).toEqual([410, 'link.expired']);
  });

  it('the page works without any key and loads no outside resource', async () => {
    const { link } = await newUpload();
    const res = await uploadPageClient(link).page();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
  });
});

describe('spreadsheet links: fetched by the server behind the SSRF guard', () => {
  it('reads a published CSV link (test allow-list) like an uploaded file', async () => {
    const { link } = await newUpload();
    const res = await uploadPageClient(link).url(`${sheetBase}/sheet.csv`);
    expect(res.status).toBe(200);
    expect(res.body.file).toMatchObject({ source: 'url', rows: 2, name: 'sheet.csv' });
    expect(res.body.mapping.email).toBe('Email');
  });

  it.each([
    ['loopback', 'http://127.0.0.2:9/sheet.csv'],
    ['IPv6 loopback', 'http://[::1]:9/sheet.csv'],
    ['IPv4-mapped loopback', 'http://[::ffff:127.0.0.2]:9/sheet.csv'],
    ['private 10/8', 'http://10.0.0.8/sheet.csv'],
    ['private 192.168/16', 'http://192.168.1.20/sheet.csv'],
    ['private 172.16/12', 'https://172.20.0.1/sheet.csv'],
    ['metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['decimal-encoded loopback', 'http://2130706434/sheet.csv'],
    ['file scheme', 'file:///etc/passwd'],
    ['ftp scheme', 'ftp://example.com/sheet.csv'],
    ['credentials in the URL', 'http://user:pw@example.com/sheet.csv'],
    ['not a URL', 'sheet.csv'],
  ])('refuses %s', async (_what, url) => {
    const { link } = await newUpload();
    const res = await uploadPageClient(link).url(url);
    expect([res.status, res.body.error?.code]).toEqual([400, 'upload.url_refused']);
  });

  it.each([
    ['a private address', 'http://10.0.0.8/sheet.csv'],
    ['the metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['another loopback address', 'http://127.0.0.2:9/sheet.csv'],
  ])('refuses a redirect to %s', async (_what, target) => {
    const { link } = await newUpload();
    const res = await uploadPageClient(link).url(`${sheetBase}/redirect?to=${encodeURIComponent(target)}`);
    expect([res.status, res.body.error?.code]).toEqual([400, 'upload.url_refused']);
  });

  it('follows a redirect to an allowed address', async () => {
    const { link } = await newUpload();
    const res = await uploadPageClient(link).url(
      `${sheetBase}/redirect?to=${encodeURIComponent(`${sheetBase}/sheet.csv`)}`,
    );
    expect(res.status).toBe(200);
  });

  it('takes a link whose file name is not valid percent-encoding', async () => {
    const { link } = await newUpload();
    const res = await uploadPageClient(link).url(`${sheetBase}/%E0.csv`);
    expect(res.status).toBe(200);
    expect(res.body.file.name).toBe('%E0.csv');
  });

  it('reads at most SHEET_READS_MAX sheets at once in a process (one account may take half: upload-fair-slots)', async () => {
    // Each upload is another account's: together they fill the process's reads.
    const busy = await Promise.all(Array.from({ length: SHEET_READS_MAX }, () => newUpload()));
    const reached = Array.from({ length: SHEET_READS_MAX }, () => new Promise<void>((r) => slowReached.push(r)));
    const slow = busy.map((u) => uploadPageClient(u.link).url(`${sheetBase}/slow.csv`));
    await Promise.all(reached);
    const { key, link } = await newUpload();
    const refused = await uploadPageClient(link).file('Email\r\nann@example.com\r\n');
    expect([refused.status, refused.body.error?.code]).toEqual([429, 'rate.limited']);
    for (const r of await Promise.all(slow)) expect(r.body.error?.code).toBe('upload.url_failed');
    expect((await uploadPageClient(link).file('Email\r\nann@example.com\r\n')).status).toBe(200);
    expect(await used(key)).toMatchObject({ used: 0, held: 0 });
  });

  it('reads one file or link at a time per upload', async () => {
    const { link } = await newUpload();
    const page = uploadPageClient(link);
    // The page is reading the link once the sheet server has the request.
    const reached = new Promise<void>((r) => slowReached.push(r));
    const slow = page.url(`${sheetBase}/slow.csv`);
    await reached;
    const second = await page.file('Email\r\nann@example.com\r\n');
    expect([second.status, second.body.error?.code]).toEqual([429, 'rate.limited']);
    expect((await slow).body.error?.code).toBe('upload.url_failed');
    expect((await page.file('Email\r\nann@example.com\r\n')).status).toBe(200);
  });

  it.each([
    ['over 15 MB', '/big.csv', 413, 'upload.too_large'],
    ['too slow', '/slow.csv', 400, 'upload.url_failed'],
    ['not found', '/missing.csv', 400, 'upload.url_failed'],
    ['a redirect to an invalid URL', '/bad-redirect', 400, 'upload.url_failed'],
    ['a web page', '/page.html', 400, 'upload.invalid_file'],
  ])('a link that is %s', async (_what, path, status, code) => {
    const { key, link } = await newUpload();
    const res = await uploadPageClient(link).url(`${sheetBase}${path}`);
    expect([res.status, res.body.error?.code]).toEqual([status, code]);
    expect(await used(key)).toMatchObject({ used: 0, held: 0 });
  });
});
