import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findColumn } from '../../src/domain/catalog/index.js';
import type { UsageCategory } from '../../src/domain/credits.js';
import { exportFile, exportLink } from '../../src/jobs/export/links.js';
import { stateFile } from '../../src/services.js';
import { parseCsv } from '../helpers/csv.js';
import { expectError } from '../helpers/errors.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Exports over real HTTP (spec "POST /exports and GET /exports/{export_id}", "Export job", family B export
 * routes, "Limits"). The job runner is off (CDS_WORKERS=0) so each test sees the queued state, the held
 * credits, and then runs the queue itself with `runJobs()`.
 */
const NOW = '2026-11-10T12:00:00.000Z';
const DAY_MS = 86_400_000;
const FAR_FUTURE = '9999-12-31T23:59:59.000Z';

let app: TestApp;
let rows: Row[];
beforeAll(async () => {
  app = await startTestApp({
    contacts: 2000,
    companies: 300,
    now: NOW,
    env: { CDS_WORKERS: '0', CDS_EXPORT_BATCH_ROWS: '300' },
  });
  rows = await allRows(app, 'contacts');
});
afterAll(async () => app.close());
afterEach(async () => {
  await app.services.jobs.stop();
  app.clock.set(NOW);
});

/** Runs the queue until the export ends, then stops the runner again. */
async function runJobs(key: string, id: string, path = `/v1/exports/${id}`): Promise<any> {
  app.services.jobs.start();
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      const res = await app.request('GET', path, { key });
      const status = res.body.data?.status ?? res.body.job_status;
      if (res.status !== 200 || status === 'completed' || status === 'failed') return res;
      if (Date.now() > deadline) throw new Error(`export ${id} still ${status}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    await app.services.jobs.stop();
  }
}

async function download(
  url: string,
): Promise<{ status: number; headers: Headers; text: string; csv: string[][]; body: any }> {
  const res = await fetch(url);
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, text, csv: res.status === 200 ? parseCsv(text) : [], body };
}

async function credits(key: string) {
  const res = await app.request('GET', '/v1/credits', { key });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Spends through the credits module, as a spending route does. */
async function spend(accountId: string, amount: number, category: UsageCategory = 'search'): Promise<void> {
  const now = app.clock.now();
  const hold = await app.services.state.reserve({ accountId, kind: 'contact', category, amount, mode: 'exact', now });
  await app.services.state.commit(hold.id, amount, now);
}

const start = (key: string, body: Record<string, unknown>) => app.request('POST', '/v1/exports', { key, body });
/** The service's formula neutralization, written independently for the expectations. */
const neutral = (s: string) => (!/^[+-]?\d+(\.\d+)?$/.test(s) && /^(\s*[=+\-@]|[\t\r])/.test(s) ? `'${s}` : s);
const cell = (v: unknown): string =>
  v === null || v === undefined
    ? ''
    : Array.isArray(v)
      ? neutral(v.join('; '))
      : typeof v === 'string'
        ? neutral(v)
        : String(v);

describe('POST /v1/exports and GET /v1/exports/{id}', () => {
  it('answers 202, holds credits at start, charges only the exported rows on completion, and serves the CSV', async () => {
    const { accountId, apiKey: key } = await app.createAccount('pro');
    const expected = rows.filter((r) => r.country === 'us');
    expect(expected.length).toBeGreaterThan(20);
    const before = await credits(key);

    const res = await start(key, {
      filter: { countries: ['US'] },
      columns: ['name', 'company_domain', 'country', 'skills', 'experience', 'has_phone'],
    });
    expect(res.status).toBe(202);
    const d = res.body.data;
    expect(d).toEqual({
      export_id: expect.stringMatching(/^exp_[0-9A-Za-z]+$/),
      id: d.export_id,
      status: 'queued',
      format: 'csv',
      rows_available: expected.length,
      rows_to_export: expected.length,
      truncated: false,
      truncation_reason: null,
      created_at: NOW,
    });
    expect(res.body.warnings).toEqual([]);
    expect(res.body.quota.contact_credits_used).toBe(0);
    expect(res.body.quota.today_remaining).toBe(before.contact.day.remaining - expected.length);

    // held, not charged
    const held = await credits(key);
    expect(held.contact.day).toMatchObject({ used: 0, held: expected.length });
    const queued = await app.request('GET', `/v1/exports/${d.export_id}`, { key });
    expect(queued.status).toBe(200);
    expect(queued.body.data).toMatchObject({
      status: 'queued',
      rows_exported: 0,
      url: null,
      expires_at: null,
      started_at: null,
      completed_at: null,
      error: null,
    });
    expect(queued.body.quota.contact_credits_used).toBe(0);

    const done = await runJobs(key, d.export_id);
    expect(done.body.data).toMatchObject({
      status: 'completed',
      rows_available: expected.length,
      rows_to_export: expected.length,
      rows_exported: expected.length,
      created_at: NOW,
      started_at: NOW,
      completed_at: NOW,
      expires_at: new Date(Date.parse(NOW) + 7 * DAY_MS).toISOString(),
      error: null,
    });
    const after = await credits(key);
    expect(after.contact.day).toMatchObject({ used: expected.length, held: 0 });
    expect(after.contact.month.remaining).toBe(before.contact.month.remaining - expected.length);

    const url: string = done.body.data.url;
    expect(url.startsWith(`${app.url}/files/exports/${d.export_id}.csv?expires=`)).toBe(true);
    const file = await download(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${d.export_id}.csv"`);
    const [header, ...lines] = file.csv;
    expect(header).toEqual(['id', 'name', 'company_domain', 'country', 'skills', 'experience', 'has_phone']);
    // every row, in the stable order, with RFC 4180 quoting of record JSON (commas and quotes) read back intact
    expect(lines).toEqual(
      expected.map((r) => [
        r.id,
        cell(r.name),
        cell(r.company_domain),
        cell(r.country),
        cell(r.skills),
        r.experience === null ? '' : cell(JSON.stringify(r.experience)),
        String(r.has_phone),
      ]),
    );
    expect(lines.some((l) => l[5]!.includes('","'))).toBe(true);

    // the same rows as a search with the same filter
    const search = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: { countries: ['US'] }, columns: ['name'], limit: 1000 },
    });
    expect(lines.map((l) => l[0])).toEqual(search.body.data.map((r: Row) => r.id));
    void accountId;
  });

  it('cuts at max_rows with an export_truncated warning without resets_at, and charges the rows written', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    const res = await start(key, { filter: {}, max_rows: 5 });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      rows_available: rows.length,
      rows_to_export: 5,
      truncated: true,
      truncation_reason: 'max_rows',
    });
    expect(res.body.warnings).toHaveLength(1);
    expect(res.body.warnings[0]).toMatchObject({
      code: 'export_truncated',
      message: expect.stringContaining('max_rows'),
    });
    expect(res.body.warnings[0]).not.toHaveProperty('resets_at');
    const done = await runJobs(key, res.body.data.export_id);
    const file = await download(done.body.data.url);
    expect(file.csv).toHaveLength(6);
    expect(file.csv[0]![0]).toBe('id');
    // default columns: the enrichment default set
    expect(file.csv[0]).toContain('company_industries');
    expect(file.csv.slice(1).map((l) => l[0])).toEqual(rows.slice(0, 5).map((r) => r.id));
    expect((await credits(key)).contact.day).toMatchObject({ used: 5, held: 0 });
  });

  it('cuts at the upper bound of one export (export_limit), naming it in the warning', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    const bound = app.services.config.exportMaxRows;
    app.services.config.exportMaxRows = 40;
    try {
      const res = await start(key, { filter: {}, max_rows: 100 });
      expect(res.body.data).toMatchObject({
        rows_available: rows.length,
        rows_to_export: 40,
        truncated: true,
        truncation_reason: 'export_limit',
      });
      expect(res.body.warnings).toEqual([
        expect.objectContaining({ code: 'export_truncated', message: expect.stringContaining('at most 40 rows') }),
      ]);
      expect(res.body.warnings[0]).not.toHaveProperty('resets_at');
      // the client's own smaller cap names max_rows instead
      await runJobs(key, res.body.data.export_id);
      expect((await start(key, { filter: {}, max_rows: 30 })).body.data).toMatchObject({
        rows_to_export: 30,
        truncation_reason: 'max_rows',
      });
    } finally {
      app.services.config.exportMaxRows = bound;
    }
  });

  it('cuts at the credits left: truncation_reason credits, resets_at of the window that cut it', async () => {
    const { accountId, apiKey: key } = await app.createAccount('starter'); // 1,000 a day, 10,000 a month
    await spend(accountId, 990);
    const res = await start(key, { filter: {} });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      rows_available: rows.length,
      rows_to_export: 10,
      truncated: true,
      truncation_reason: 'credits',
    });
    expect(res.body.warnings).toEqual([
      expect.objectContaining({ code: 'export_truncated', resets_at: '2026-11-11T00:00:00.000Z' }),
    ]);
    expect((await credits(key)).contact.day).toMatchObject({ used: 990, held: 10, remaining: 0 });
    const done = await runJobs(key, res.body.data.export_id);
    expect(done.body.data).toMatchObject({ status: 'completed', rows_exported: 10 });
    expect((await credits(key)).contact.day).toMatchObject({ used: 1000, held: 0 });
    // nothing left now: 402 with binding and resets_at, and no job
    const refused = await start(key, { filter: {} });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: 'contact_credits.exhausted',
      details: { binding: 'day', resets_at: '2026-11-11T00:00:00.000Z' },
    });
    expect(await app.services.state.listJobs(accountId, 'export')).toHaveLength(1);
  });

  it('free plan: the lifetime pool cuts the export, resets_at is far-future and the hint says the pool is spent', async () => {
    const { accountId, apiKey: key } = await app.createAccount('free'); // pool of 100
    const res = await start(key, { filter: {} });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ rows_to_export: 100, truncation_reason: 'credits' });
    const w = res.body.warnings[0];
    expect(w).toMatchObject({ code: 'export_truncated', resets_at: FAR_FUTURE });
    expect(w.hint).toMatch(/pool is spent/);
    expect(res.body.quota).toMatchObject({ month_remaining: 0, resets_at: FAR_FUTURE });
    await runJobs(key, res.body.data.export_id);
    const refused = await start(key, { filter: {} });
    expect(refused.status).toBe(402);
    expect(refused.body.error.details).toEqual({ binding: 'month', resets_at: FAR_FUTURE });
    expect(await app.services.state.listJobs(accountId, 'export')).toHaveLength(1);
  });

  it(
    'max_rows_per_company keeps at most k rows per domain (rows without one are not capped), warning without ' +
      'resets_at',
    async () => {
      const { apiKey: key } = await app.createAccount('pro');
      const seen = new Map<string, number>();
      const expected = rows.filter((r) => {
        if (!has(r.company_domain)) return true;
        const n = (seen.get(r.company_domain) ?? 0) + 1;
        seen.set(r.company_domain, n);
        return n <= 2;
      });
      expect(expected.length).toBeLessThan(rows.length);
      const res = await start(key, { filter: {}, columns: ['company_domain'], max_rows_per_company: 2 });
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({
        rows_available: rows.length,
        rows_to_export: expected.length,
        truncated: true,
        truncation_reason: 'max_rows_per_company',
      });
      expect(res.body.warnings).toEqual([expect.objectContaining({ code: 'export_truncated' })]);
      expect(res.body.warnings[0]).not.toHaveProperty('resets_at');
      const done = await runJobs(key, res.body.data.export_id);
      expect(done.body.data.rows_exported).toBe(expected.length);
      const file = await download(done.body.data.url);
      expect(file.csv.slice(1).map((l) => l[0])).toEqual(expected.map((r) => r.id));
      expect((await credits(key)).contact.day).toMatchObject({ used: expected.length, held: 0 });
    },
  );

  it('a filter matching nothing answers 400 export.no_matches, free, with no job', async () => {
    const { accountId, apiKey: key } = await app.createAccount('pro');
    const res = await start(key, { filter: { domains: ['no-such-company.example'] } });
    expectError(res, 400, 'export.no_matches');
    expect(res.body.error.hint).toContain('domains');
    expect(res.body.quota.contact_credits_used).toBe(0);
    expect((await credits(key)).contact.day).toMatchObject({ used: 0, held: 0 });
    expect(await app.services.state.listJobs(accountId)).toHaveLength(0);
  });

  it('one export at a time per account: a second start answers 409 export.running and holds nothing more', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    const other = (await app.createAccount('pro')).apiKey;
    const first = await start(key, { filter: {}, max_rows: 10 });
    expect(first.status).toBe(202);
    const second = await start(key, { filter: {}, max_rows: 10 });
    expectError(second, 409, 'export.running');
    expect((await credits(key)).contact.day.held).toBe(10);
    expect((await start(other, { filter: {}, max_rows: 10 })).status).toBe(202);
    await runJobs(key, first.body.data.export_id);
    expect((await start(key, { filter: {}, max_rows: 10 })).status).toBe(202);
  });

  it('two starts at the same moment: exactly one export is created and held', async () => {
    const { accountId, apiKey: key } = await app.createAccount('pro');
    const both = await Promise.all([start(key, { filter: {}, max_rows: 7 }), start(key, { filter: {}, max_rows: 7 })]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
    expect(await app.services.state.listJobs(accountId, 'export')).toHaveLength(1);
    expect((await credits(key)).contact.day.held).toBe(7);
  });

  it('validates the body: format, max_rows, filter', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    expect((await start(key, { filter: {}, format: 'xlsx' })).body.error).toMatchObject({
      code: 'request.invalid',
      field: 'format',
    });
    expect((await start(key, { filter: {}, max_rows: 0 })).body.error).toMatchObject({
      code: 'request.invalid',
      field: 'max_rows',
    });
    expect((await start(key, { filter: { bogus: 1 } })).body.error.code).toBe('filter.unknown_key');
    expect((await start(key, {})).body.error).toMatchObject({ code: 'request.invalid', field: 'filter' });
    expect((await start(key, { filter: {}, columns: ['nope'] })).body.error).toMatchObject({
      code: 'request.invalid',
      field: 'columns[0]',
    });
  });

  it('header "labels" writes the catalog display labels in the header row; "keys" (the default) the column keys', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    const body = { filter: { countries: ['US'] }, columns: ['name', 'company_domain', 'mobile_phone'], max_rows: 20 };
    const headers: Record<string, string[]> = {};
    const bodies: Record<string, string[][]> = {};
    for (const header of ['labels', 'keys', undefined]) {
      const res = await start(key, header === undefined ? body : { ...body, header });
      expect(res.status).toBe(202);
      const done = await runJobs(key, res.body.data.export_id);
      expect(done.body.data.status).toBe('completed');
      const file = await download(done.body.data.url);
      const [head, ...lines] = file.csv;
      headers[String(header)] = head!;
      bodies[String(header)] = lines;
    }
    const names = ['id', 'name', 'company_domain', 'mobile_phone'];
    expect(headers.labels).toEqual(names.map((n) => findColumn('contact', n)!.label));
    expect(headers.labels).toEqual(['Contact ID', 'Full Name', 'Company Domain', 'Mobile Phone']);
    expect(headers.keys).toEqual(names);
    expect(headers.undefined).toEqual(names);
    // the rows are the same; phones (E.164) are written as they are, without a leading quote
    expect(bodies.labels).toEqual(bodies.keys);
    const phones = bodies.keys!.map((l) => l[3]!).filter((p) => p !== '');
    expect(phones.length).toBeGreaterThan(0);
    for (const p of phones) expect(p).toMatch(/^\+\d+$/);

    const bad = await start(key, { ...body, header: 'titles' });
    expectError(bad, 400, 'request.invalid');
    expect(bad.body.error).toMatchObject({ field: 'header', hint: expect.stringContaining('"labels"') });
    expect(bad.body.error.hint).toContain('"keys"');
  });
});

describe('signed links', () => {
  let key: string;
  let exportId: string;
  let url: string;
  beforeAll(async () => {
    key = (await app.createAccount('pro')).apiKey;
    const res = await start(key, { filter: {}, max_rows: 3, columns: ['name'] });
    exportId = res.body.data.export_id;
    url = (await runJobs(key, exportId)).body.data.url;
  });

  it('refuses a tampered signature, a moved expiry, a missing signature and other names with 403 link.invalid', async () => {
    const u = new URL(url);
    const sig = u.searchParams.get('sig')!;
    const tampered = new URL(url);
    tampered.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`);
    const later = new URL(url);
    later.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 86_400));
    const unsigned = new URL(url);
    unsigned.searchParams.delete('sig');
    for (const bad of [tampered.href, later.href, unsigned.href, `${app.url}/files/exports/${exportId}.csv`]) {
      const res = await download(bad);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ ok: false, error: { code: 'link.invalid' } });
    }
    const traversal = await download(`${app.url}/files/exports/..%2Fstate.sqlite?${u.searchParams}`);
    expect(traversal.status).toBe(403);
  });

  it(
    'another account cannot read, poll or download: 404 export.not_found like an unknown id, and no signature of ' +
      'its own',
    async () => {
      const other = (await app.createAccount('pro')).apiKey;
      const theirs = await app.request('GET', `/v1/exports/${exportId}`, { key: other });
      const unknown = await app.request('GET', '/v1/exports/exp_doesnotexist000', { key: other });
      expect(theirs.status).toBe(404);
      expect(theirs.body.error).toEqual(unknown.body.error);
      expect(theirs.body.error.code).toBe('export.not_found');
      const b = await app.request('GET', `/api/v1/contacts/search/export/${exportId}`, {
        key: other,
        keyHeader: 'x-api-key',
      });
      expectError(b, 404, 'export.not_found');
      // the file route takes no key: without a valid signature nothing is served
      const guessed = await download(`${app.url}/files/exports/${exportId}.csv?expires=99999999999&sig=forged`);
      expect(guessed.status).toBe(403);
    },
  );

  it('the link is valid 7 days from completion; after that GET and the file answer 410 export.expired', async () => {
    app.clock.set(Date.parse(NOW) + 7 * DAY_MS - 1000);
    expect((await download(url)).status).toBe(200);
    expect((await app.request('GET', `/v1/exports/${exportId}`, { key })).status).toBe(200);
    app.clock.set(Date.parse(NOW) + 7 * DAY_MS + 1000);
    const poll = await app.request('GET', `/v1/exports/${exportId}`, { key });
    expectError(poll, 410, 'export.expired');
    const file = await download(url);
    expectError(file, 410, 'export.expired');
  });

  it('a deleted file answers 410 export.expired from GET and from its link', async () => {
    const res = await start(key, { filter: {}, max_rows: 2 });
    const id = res.body.data.export_id;
    const link = (await runJobs(key, id)).body.data.url;
    rmSync(exportFile(app.config.filesDir, id));
    expect((await app.request('GET', `/v1/exports/${id}`, { key })).body.error.code).toBe('export.expired');
    const file = await download(link);
    expectError(file, 410, 'export.expired');
  });

  it(
    'a link has no more rights than the key it was handed out to: once the key is revoked it answers 410 ' +
      "export.expired; the next key gets a link of its own, and other keys' links keep working",
    async () => {
      const { accountId, apiKey } = await app.createAccount('pro');
      const id = (await start(apiKey, { filter: {}, max_rows: 2, columns: ['name'] })).body.data.export_id;
      const link = (await runJobs(apiKey, id)).body.data.url;
      const other = (await app.createAccount('pro')).apiKey;
      const otherId = (await start(other, { filter: {}, max_rows: 2, columns: ['name'] })).body.data.export_id;
      const otherLink = (await runJobs(other, otherId)).body.data.url;
      const keyId = (await app.request('GET', '/v1/keys', { key: apiKey })).body.data[0].id;
      expect(new URL(link).searchParams.get('key')).toBe(keyId);
      expect((await download(link)).status).toBe(200);
      // The key id is signed with the path: dropped or swapped, the link is invalid.
      const dropped = new URL(link);
      dropped.searchParams.delete('key');
      const swapped = new URL(link);
      swapped.searchParams.set('key', new URL(otherLink).searchParams.get('key')!);
      for (const bad of [dropped.href, swapped.href]) expectError(await download(bad), 403, 'link.invalid');

      // A suspended account's links keep working, as its upload pages open: a download spends nothing.
      await app.services.state.setAccountStatus(accountId, 'suspended');
      expect((await download(link)).status).toBe(200);
      await app.services.state.setAccountStatus(accountId, 'active');

      expect((await app.request('DELETE', `/v1/keys/${keyId}`, { key: apiKey })).status).toBe(200);
      expectError(await download(link), 410, 'export.expired');
      expect((await download(otherLink)).status).toBe(200);

      // The account's next key is handed a link of its own to the same file; the revoked key's link stays closed.
      const { secret } = await app.services.state.createKey(accountId, { name: 'rotated', now: app.clock.now() });
      const fresh = await app.request('GET', `/v1/exports/${id}`, { key: secret });
      expect(fresh.status).toBe(200);
      expect(fresh.body.data.url).not.toBe(link);
      expect((await download(fresh.body.data.url)).status).toBe(200);
      const b = await app.request('GET', `/api/v1/contacts/search/export/${id}`, {
        key: secret,
        keyHeader: 'x-api-key',
      });
      expect(b.status).toBe(200);
      expectError(await download(link), 410, 'export.expired');

      // A link made before links named their key keeps working until its expiry.
      const expires = new URL(link).searchParams.get('expires')!;
      const unbound = exportLink(app.url, app.services.secret, id, new Date(Number(expires) * 1000));
      expect((await download(unbound)).status).toBe(200);
    },
  );
});

describe('family B export routes', () => {
  const b = (method: string, path: string, key: string, body?: unknown) =>
    app.request(method, path, { key, keyHeader: 'x-api-key', ...(body !== undefined ? { body } : {}) });

  it('starts with export_id, polls with exactly the spec fields, serves a CSV with display labels valid 24 hours', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    const expected = rows.filter((r) => r.country === 'gb');
    const res = await b('POST', '/api/v1/contacts/search/export', key, {
      countries: ['United Kingdom'],
      columns: ['Full Name', 'company_domain'],
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      ok: true,
      export_id: expect.stringMatching(/^exp_/),
      job_status: 'queued',
      rows_available: expected.length,
      rows_to_export: expected.length,
      rows_capped_by_credits: false,
    });
    expect(typeof res.body.creditsRemaining).toBe('number');
    const id = res.body.export_id;
    const done = await runJobs(key, id, `/api/v1/contacts/search/export/${id}`);
    expect(Object.keys(done.body).sort()).toEqual(
      [
        'ok',
        'request_id',
        'release',
        'export_id',
        'job_status',
        'export_url',
        'expires_in_seconds',
        'rows_exported',
        'rows_available',
        'rows_capped_by_credits',
        'query_credits_used',
        'creditsRemaining',
      ].sort(),
    );
    expect(done.body).toMatchObject({
      ok: true,
      export_id: id,
      job_status: 'completed',
      expires_in_seconds: 86_400,
      rows_exported: expected.length,
      rows_available: expected.length,
      rows_capped_by_credits: false,
      query_credits_used: expected.length,
    });
    const file = await download(done.body.export_url);
    expect(file.csv[0]).toEqual(['Contact ID', 'Full Name', 'Company Domain']);
    expect(file.csv.slice(1).map((l) => l[0])).toEqual(expected.map((r) => r.id));
    app.clock.set(Date.parse(NOW) + DAY_MS + 1000);
    expect((await b('GET', `/api/v1/contacts/search/export/${id}`, key)).body.error.code).toBe('export.expired');
    expect((await download(done.body.export_url)).status).toBe(410);
  });

  it('caps at the credits left (rows_capped_by_credits) and reports creditsRemaining null on unlimited plans', async () => {
    const { accountId, apiKey: key } = await app.createAccount('starter');
    await spend(accountId, 995);
    const res = await b('POST', '/api/v1/contacts/search/export', key, { filters: { countries: ['us'] } });
    expect(res.body).toMatchObject({ rows_to_export: 5, rows_capped_by_credits: true, creditsRemaining: 0 });
    const done = await runJobs(key, res.body.export_id, `/api/v1/contacts/search/export/${res.body.export_id}`);
    expect(done.body).toMatchObject({
      rows_exported: 5,
      query_credits_used: 5,
      rows_capped_by_credits: true,
      creditsRemaining: 0,
    });

    const unlimited = await app.createAccount('unlimited');
    const u = await b('POST', '/api/v1/contacts/search/export', unlimited.apiKey, { max_rows: 7 });
    expect(u.status).toBe(202);
    expect(u.body).toMatchObject({ rows_to_export: 7, rows_capped_by_credits: false, creditsRemaining: null });
    // the hold is taken from the export fair-use budget
    expect((await credits(unlimited.apiKey)).fair_use.export.day).toMatchObject({ held: 7 });
  });

  it('answers export.no_matches and export.running like family A', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    expect(
      (await b('POST', '/api/v1/contacts/search/export', key, { domains: ['no-such-company.example'] })).body.error
        .code,
    ).toBe('export.no_matches');
    expect((await b('POST', '/api/v1/contacts/search/export', key, { max_rows: 3 })).status).toBe(202);
    expect((await b('POST', '/api/v1/contacts/search/export', key, { max_rows: 3 })).body.error.code).toBe(
      'export.running',
    );
    expect((await start(key, { filter: {} })).body.error.code).toBe('export.running');
  });
});

describe('files are the owner’s alone', () => {
  it('export files, the state file and the secret are 0600, the files folder 0700', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    const res = await start(key, { filter: { countries: ['US'] }, columns: ['name'] });
    expect(res.status).toBe(202);
    const done = await runJobs(key, res.body.data.export_id);
    expect(done.body.data.status).toBe('completed');
    const mode = (path: string) => statSync(path).mode & 0o777;
    expect(mode(exportFile(app.config.filesDir, res.body.data.export_id))).toBe(0o600);
    expect(mode(join(app.dataDir, 'files'))).toBe(0o700);
    expect(mode(stateFile(app.dataDir))).toBe(0o600);
    expect(mode(join(app.dataDir, 'secret'))).toBe(0o600);
  });
});
