import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { labelRow } from '../../src/mcp/index.js';
import { parseCsv } from '../helpers/csv.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };

let app: TestApp;
let rows: Row[];
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 1500, companies: 200, seed: 5 });
  rows = await allRows(app, 'contacts');
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'cds-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }),
  );
  clients.push(client);
  return client;
}
const call = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
  (await c.callTool({ name, arguments: args })) as Result;

const uniqueBy = (field: string) => {
  const counts = new Map<string, number>();
  for (const r of rows) if (has(r[field])) counts.set(r[field], (counts.get(r[field]) ?? 0) + 1);
  return rows.filter((r) => has(r[field]) && counts.get(r[field]) === 1);
};

/**
 * The cell the spec's CSV rules give a value: formula triggers get a leading quote, a plain number (an E.164 phone)
 * does not (written here independently).
 */
function expectedCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  const text = Array.isArray(v) ? v.join('; ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
  const plain = /^\s*[+-]?\d+(\.\d+)?$/;
  if (/^[+-]?\d+(\.\d+)?$/.test(text)) return text;
  const inner = text
    .split(';')
    .map((part, i) => (i > 0 && /^\s*[=+\-@]/.test(part) && !plain.test(part) ? part.replace(/^(\s*)/, "$1'") : part))
    .join(';');
  return /^\s*[=+\-@]/.test(text) || /^[\t\r]/.test(text) ? `'${inner}` : inner;
}

const q = (s: string) => `"${s.replace(/"/g, '""')}"`;

describe('CSV enrichment upload over MCP: link, page upload, mapping, run, status, result', () => {
  it('runs the whole flow and the result matches POST /v1/enrichments row by row; credits charged == matched rows', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const other = await app.createAccount('pro');
    const client = await connect(apiKey);

    const emails = uniqueBy('work_email').slice(0, 12);
    const profiles = uniqueBy('network_slug').slice(20, 25);
    const phoneCount = new Map<string, number>();
    for (const r of rows)
      for (const p of [r.mobile_phone, r.direct_phone]) if (has(p)) phoneCount.set(p, (phoneCount.get(p) ?? 0) + 1);
    const phones = rows.filter((r) => has(r.mobile_phone) && phoneCount.get(r.mobile_phone) === 1).slice(40, 43);
    const onDomain = emails[10]!;
    const offDomain = emails[11]!;
    // First name, Last name, Work email, LinkedIn, Phone, Website, Notes
    const lines: string[][] = [
      ...emails
        .slice(0, 10)
        .map((r, i) => ['Ann', `Row${i}`, i === 0 ? r.work_email.toUpperCase() : r.work_email, '', '', '', '']),
      ...profiles.map((r) => ['Bo', 'Profile', '', r.network, '', '', '']),
      ...phones.map((r) => ['Cy', 'Phone', '', '', r.mobile_phone, '', '']),
      ['Di', 'Domain', onDomain.work_email, '', '', onDomain.company_domain, 'on domain'],
      ['Ed', 'Off', offDomain.work_email, '', '', 'not-their-employer.example', 'off domain'],
      ['Fay', 'Miss', 'nobody@nowhere.example', '', '', '', ''],
      ['Gus', 'Invalid', 'not an email', '', '', '', ''],
      ['Hal', 'Missing', '', '', '', '', 'no identifier'],
      ['=HYPERLINK("http://x.example")', 'Formula', emails[1]!.work_email, '', '', '', '@SUM(A1), "quoted"\nline'],
    ];
    const csv = `\uFEFFFirst name,Last name,Work email,LinkedIn,Phone,Website,Notes\r\n${lines
      .map((l) => l.map(q).join(','))
      .join('\r\n')}\r\n`;

    const link = await call(client, 'create_csv_enrichment_upload_link');
    expect(link.isError).toBeUndefined();
    const { upload_id, upload_url, expires_in_seconds } = link.structuredContent;
    expect(upload_id).toMatch(/^upl_/);
    expect(expires_in_seconds).toBe(86_400);
    expect(upload_url).toMatch(new RegExp(`^${app.url}/upload/${upload_id}\\?expires=\\d+&sig=`));
    expect(upload_url).not.toContain(apiKey);

    expect((await call(client, 'check_enrichment_upload', { upload_id })).structuredContent).toMatchObject({
      status: 'waiting',
      submitted: false,
      run_id: null,
    });
    const page = uploadPageClient(upload_url);
    const html = await page.page();
    expect(html.status).toBe(200);
    expect(html.text).toContain('Enrich a spreadsheet');
    expect(html.text).not.toMatch(/<script[^>]+src=/);

    const up = await page.file(new TextEncoder().encode(csv));
    expect(up.status).toBe(200);
    expect(up.body.headers).toEqual(['First name', 'Last name', 'Work email', 'LinkedIn', 'Phone', 'Website', 'Notes']);
    expect(up.body.preview).toHaveLength(10);
    expect(up.body.file).toMatchObject({ rows: lines.length, encoding: 'utf-8-bom', name: 'people.csv' });
    expect(up.body.mapping).toEqual({
      email: 'Work email',
      phone: 'Phone',
      profile_url: 'LinkedIn',
      first_name: 'First name',
      last_name: 'Last name',
      full_name: null,
      company_name: null,
      domain: 'Website',
    });
    // Rows that can match: all but the invalid one and the one without an identifier.
    expect(up.body.estimate).toMatchObject({
      rows: lines.length,
      rows_that_can_match: lines.length - 2,
      rows_missing_identifier: 1,
      rows_invalid: 1,
      max_credits: lines.length - 2,
      credits_left: 10_000,
      enough_credits: true,
    });
    expect((await call(client, 'check_enrichment_upload', { upload_id })).structuredContent.status).toBe('uploaded');

    // Unmapping the phone column: its rows have nothing else, so they become rows without an identifier.
    const noPhone = await page.post('estimate', { mapping: { ...up.body.mapping, phone: null } });
    expect(noPhone.status).toBe(200);
    expect(noPhone.body.estimate).toMatchObject({ rows_that_can_match: lines.length - 2 - phones.length });

    const started = await page.post('start', { mapping: up.body.mapping });
    expect(started.status).toBe(200);
    const run_id = started.body.run_id as string;
    expect(run_id).toMatch(/^enr_/);
    const again = await page.post('start', { mapping: up.body.mapping });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'upload.submitted', details: { run_id } });

    expect((await call(client, 'check_enrichment_upload', { upload_id })).structuredContent).toMatchObject({
      status: 'submitted',
      submitted: true,
      run_id,
    });
    const status = await eventually(async () => {
      const s = (await call(client, 'check_enrichment_status', { run_id })).structuredContent;
      return s.status === 'completed' ? s : undefined;
    });

    const result = await call(client, 'get_enrichment_result', { run_id });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent.expires_in_seconds).toBe(3600);
    const download = await fetch(result.structuredContent.url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^text\/csv/);
    const text = await download.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...body] = parseCsv(text);
    expect(body).toHaveLength(lines.length);

    // The same inputs through POST /v1/enrichments, one call per row, on another account.
    let matched = 0;
    for (const [i, line] of lines.entries()) {
      const cells = body[i]!;
      const byHeader = Object.fromEntries(header!.map((h, j) => [h, cells[j]!]));
      expect(cells.slice(0, 7)).toEqual(line.map((c) => expectedCell(c)));
      const input = [line[2], line[3], line[4]].find((c) => c !== '');
      if (input === undefined) {
        expect(byHeader['Match status']).toBe('missing');
        continue;
      }
      const res = await app.request('POST', '/v1/enrichments', {
        key: other.apiKey,
        body: { inputs: [input], ...(line[5] ? { company_domain: line[5] } : {}) },
      });
      expect(res.status).toBe(200);
      const r = res.body.data[0];
      const want = r.matched
        ? 'matched'
        : r.off_domain
          ? 'off_domain'
          : r.reason === 'invalid'
            ? 'invalid'
            : (r.reason ?? 'no_match');
      expect([i, byHeader['Match status']]).toEqual([i, want]);
      const contact = r.contact ? labelRow('contact', r.contact) : {};
      for (const label of header!.slice(8))
        expect([i, label, byHeader[label]]).toEqual([i, label, expectedCell(contact[label])]);
      if (r.matched) matched++;
    }
    expect(matched).toBe(lines.length - 4);
    expect(status).toMatchObject({
      rows: lines.length,
      processed_rows: lines.length,
      matched_rows: matched,
      credits_charged: matched,
      truncated: false,
    });
    expect(status.warnings).toEqual([
      expect.objectContaining({ code: 'off_domain', count: 1, keys_applied: [offDomain.work_email] }),
    ]);
    expect(status.sample).toHaveLength(5);
    const credits = await app.request('GET', '/v1/credits', { key: apiKey });
    expect(credits.body.data.contact.day).toMatchObject({ used: matched, held: 0 });
    expect(accountId).toMatch(/^acc_/);

    // Tenancy: another account's ids are unknown; a tampered result link is refused.
    const stranger = await connect(other.apiKey);
    for (const [tool, args, code] of [
      ['check_enrichment_upload', { upload_id }, 'upload.not_found'],
      ['check_enrichment_status', { run_id }, 'enrichment_run.not_found'],
      ['get_enrichment_result', { run_id }, 'enrichment_run.not_found'],
    ] as const) {
      const res = await call(stranger, tool, args);
      expect(res.isError).toBe(true);
      expect(res.structuredContent).toMatchObject({ code });
    }
    const tampered = await fetch(
      result.structuredContent.url.replace(/sig=(.)/, (_: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`),
    );
    expect(tampered.status).toBe(403);
    const otherRun = await fetch(result.structuredContent.url.replace(run_id, 'enr_0000000000000000'));
    expect(otherRun.status).toBe(403);

    // The result link lives one hour; a new call hands out a fresh one.
    app.clock.advance(3600_000 + 1000);
    const expired = await fetch(result.structuredContent.url);
    expect(expired.status).toBe(410);
    expect(((await expired.json()) as any).error.code).toBe('export.expired');
    const fresh = await call(client, 'get_enrichment_result', { run_id });
    expect((await fetch(fresh.structuredContent.url)).status).toBe(200);
    // The upload link lives 24 hours.
    app.clock.advance(86_400_000);
    expect((await page.page()).status).toBe(410);
    expect((await page.get('state')).body.error.code).toBe('link.expired');
  });

  it('a result link has no more rights than the key it was handed out to: revoked, it answers 410 export.expired', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const client = await connect(apiKey);
    const emails = uniqueBy('work_email').slice(30, 33);
    const link = (await call(client, 'create_csv_enrichment_upload_link')).structuredContent;
    const page = uploadPageClient(link.upload_url);
    const up = await page.file(
      new TextEncoder().encode(`Email\r\n${emails.map((r) => r.work_email).join('\r\n')}\r\n`),
    );
    expect(up.status).toBe(200);
    const run_id = (await page.post('start', { mapping: up.body.mapping })).body.run_id as string;
    await eventually(async () => {
      const s = (await call(client, 'check_enrichment_status', { run_id })).structuredContent;
      return s.status === 'completed' ? s : undefined;
    });
    const url = (await call(client, 'get_enrichment_result', { run_id })).structuredContent.url as string;
    const keyId = (await app.request('GET', '/v1/keys', { key: apiKey })).body.data[0].id;
    expect(new URL(url).searchParams.get('key')).toBe(keyId);
    expect((await fetch(url)).status).toBe(200);

    expect((await app.request('DELETE', `/v1/keys/${keyId}`, { key: apiKey })).status).toBe(200);
    const closed = await fetch(url);
    expect(closed.status).toBe(410);
    expect(((await closed.json()) as any).error.code).toBe('export.expired');
    expect((await page.get('state')).body.error.code).toBe('link.expired');

    // The account's next key is handed a link of its own; the revoked key's link stays closed.
    const { secret } = await app.services.state.createKey(accountId, { name: 'rotated', now: app.clock.now() });
    const fresh = await call(await connect(secret), 'get_enrichment_result', { run_id });
    expect((await fetch(fresh.structuredContent.url)).status).toBe(200);
    expect((await fetch(url)).status).toBe(410);
  });

  it('a run not completed has no result; unknown ids answer 404', async () => {
    const { apiKey } = await app.createAccount('pro');
    const client = await connect(apiKey);
    const res = await call(client, 'check_enrichment_status', { run_id: 'enr_nope' });
    expect(res.structuredContent).toMatchObject({ code: 'enrichment_run.not_found' });
    const up = await call(client, 'check_enrichment_upload', { upload_id: '../../etc/passwd' });
    expect(up.structuredContent).toMatchObject({ code: 'upload.not_found' });
  });
});
