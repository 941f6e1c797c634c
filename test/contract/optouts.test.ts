import { createHash } from 'node:crypto';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The operator routes of the suppression list (issue 17) over real HTTP: add, remove, list with cursor paging, and
 * the audit; errors with the contract's codes (400 request.invalid naming the field), never a 500.
 */
const TOKEN = 'operator-secret-token-0123456789abcdef';
const op = { Authorization: `Bearer ${TOKEN}` };

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ contacts: 50, companies: 10, env: { CDS_ADMIN_TOKEN: TOKEN } });
});
afterAll(async () => app.close());

const post = (path: string, body: unknown) => app.request('POST', path, { headers: op, body });
const get = (path: string) => app.request('GET', path, { headers: op });
const add = (type: string, values: unknown[]) => post('/v1/admin/optouts', { type, values });
const remove = (type: string, values: unknown[]) => post('/v1/admin/optouts/remove', { type, values });
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Every entry, walked page by page with the route's cursor. */
async function walk(query: string, limit: number): Promise<Array<{ type: string; value: string }>> {
  const out: Array<{ type: string; value: string }> = [];
  let cursor: string | null = null;
  for (let i = 0; i < 1000; i++) {
    const q = new URLSearchParams(`${query}&limit=${limit}`);
    if (cursor) q.set('cursor', cursor);
    const res = await get(`/v1/admin/optouts?${q}`);
    expect(res.status).toBe(200);
    expect(res.body.page.returned).toBe(res.body.data.length);
    expect(res.body.page.limit).toBe(limit);
    out.push(...res.body.data.map((x: { type: string; value: string }) => ({ type: x.type, value: x.value })));
    cursor = res.body.page.next_cursor;
    if (cursor === null) return out;
  }
  throw new Error('the listing never ended');
}

describe('adding and removing', () => {
  it('adds normalized identifiers, reports rejects by index and repeats as already, and the store has them', async () => {
    const v0 = await app.services.state.optOutVersion();
    const res = await add('email', [' Jane.Doe@ACME.com ', 'not-an-email', 'jane.doe@acme.com', 'ops@example.org', '']);
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.data).toEqual({
      added: 2,
      already: 1,
      rejected: 2,
      rejects: [
        { index: 1, reason: 'not an email address' },
        { index: 4, reason: 'empty' },
      ],
    });
    expect(await app.services.state.optOutVersion()).toBeGreaterThan(v0);
    const emails = (await app.services.state.allOptOuts()).filter((e) => e.type === 'email').map((e) => e.value);
    expect(emails.sort()).toEqual(['jane.doe@acme.com', 'ops@example.org']);

    const again = await add('email', ['JANE.DOE@acme.com']);
    expect(again.body.data).toEqual({ added: 0, already: 1, rejected: 0, rejects: [] });
  });

  it('reads phones to E.164, profile URLs and slugs to the slug, hashes as lowercase hex', async () => {
    expect((await add('phone', ['+1 (415) 555-0100', '415 555 0101', '12'])).body.data).toMatchObject({
      added: 2,
      rejected: 1,
    });
    expect(
      (await add('url', ['https://www.network.com/in/Jane-Doe/', 'john-smith', 'https://x.com/in/a'])).body.data,
    ).toMatchObject({ added: 2, rejected: 1, rejects: [{ index: 2 }] });
    expect((await add('sha256', [sha('hidden@acme.com').toUpperCase(), 'abc'])).body.data).toMatchObject({
      added: 1,
      rejected: 1,
    });
    expect((await add('id', ['per_abc123', 'acc_nope'])).body.data).toMatchObject({ added: 1, rejected: 1 });
    const all = await app.services.state.allOptOuts();
    expect(all).toEqual(
      expect.arrayContaining([
        { type: 'phone', value: '+14155550100' },
        { type: 'phone', value: '+14155550101' },
        { type: 'url', value: 'jane-doe' },
        { type: 'url', value: 'john-smith' },
        { type: 'sha256', value: sha('hidden@acme.com') },
        { type: 'id', value: 'per_abc123' },
      ]),
    );
  });

  it('removes with POST /v1/admin/optouts/remove, normalizing as when added', async () => {
    await add('email', ['gone@acme.com']);
    const res = await remove('email', ['GONE@acme.com', 'never@acme.com', 'bad']);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      removed: 1,
      missing: 1,
      rejected: 1,
      rejects: [{ index: 2, reason: 'not an email address' }],
    });
    expect((await app.services.state.allOptOuts()).some((e) => e.value === 'gone@acme.com')).toBe(false);
  });
});

describe('listing', () => {
  it('pages the whole list in type-then-value byte order, with and without a type, with totals', async () => {
    await add(
      'email',
      Array.from({ length: 23 }, (_, i) => `page${String(i).padStart(2, '0')}@list.example`),
    );
    const everything = (await app.services.state.allOptOuts()).map((e) => ({ type: e.type, value: e.value }));
    const key = (e: { type: string; value: string }) => Buffer.from(`${e.type}:${e.value}`);
    const sorted = [...everything].sort((a, b) => Buffer.compare(key(a), key(b)));
    expect(await walk('', 7)).toEqual(sorted);
    expect(await walk('type=email', 5)).toEqual(sorted.filter((e) => e.type === 'email'));

    const first = await get('/v1/admin/optouts?type=email&limit=2');
    expect(first.body.page.total).toBe(sorted.filter((e) => e.type === 'email').length);
    expect(first.body.data[0]).toEqual({
      type: 'email',
      value: sorted.find((e) => e.type === 'email')!.value,
      created_at: '2026-11-10T12:00:00.000Z',
    });
    const none = await get('/v1/admin/optouts?type=email&limit=1000&cursor=');
    expect(none.status).toBe(200);
  });

  it.each([
    ['cursor=garbage!', 'cursor'],
    [`cursor=${Buffer.from('nope').toString('base64url')}`, 'cursor'],
    ['type=fax', 'type'],
    ['limit=0', 'limit'],
    ['limit=1001', 'limit'],
  ])('GET ?%s answers 400 request.invalid naming %s', async (query, field) => {
    const res = await get(`/v1/admin/optouts?${query}`);
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.field).toBe(field);
  });
});

describe('bad batches', () => {
  it.each<[string, unknown, string]>([
    ['no type', { values: ['a@b.com'] }, 'type'],
    ['an unknown type', { type: 'fax', values: ['a@b.com'] }, 'type'],
    ['no values', { type: 'email' }, 'values'],
    ['values not a list', { type: 'email', values: 'a@b.com' }, 'values'],
    ['an empty list', { type: 'email', values: [] }, 'values'],
    ['a value that is not text', { type: 'email', values: ['a@b.com', 3] }, 'values.1'],
    ['more than 10,000 values', { type: 'email', values: Array.from({ length: 10_001 }, () => 'a@b.io') }, 'values'],
  ])('%s answers 400 request.invalid naming the field, on add and on remove', async (_what, body, field) => {
    for (const path of ['/v1/admin/optouts', '/v1/admin/optouts/remove']) {
      const res = await post(path, body);
      expectError(res, 400, 'request.invalid');
      expect(res.body.error.field).toBe(field);
    }
  });

  it('takes 10,000 values in one call', async () => {
    const values = Array.from({ length: 10_000 }, (_, i) => `bulk${i}@bulk.example`);
    const res = await add('email', values);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ added: 10_000, already: 0, rejected: 0 });
    expect((await remove('email', values)).body.data).toMatchObject({ removed: 10_000, missing: 0 });
  });

  it('an API key or no token is refused', async () => {
    const { apiKey } = await app.createAccount('pro');
    expectError(await app.request('GET', '/v1/admin/optouts', { key: apiKey }), 403, 'auth.oauth_required');
    expectError(await app.request('POST', '/v1/admin/optouts/remove', { body: {} }), 401, 'auth.invalid_key');
  });
});

describe('audit', () => {
  it('records each change with its action, actor, type and count, newest first, and never an identifier', async () => {
    const hidden = sha('secret.person@acme.com');
    await add('sha256', [hidden]);
    await add('sha256', [hidden]); // a no-op: no record
    await remove('phone', ['+1 415 555 0100']);
    const res = await get('/v1/admin/optouts/audit?limit=2');
    expect(res.status).toBe(200);
    const at = '2026-11-10T12:00:00.000Z';
    expect(res.body.data).toEqual([
      { at, action: 'remove', actor: 'api:operator', type: 'phone', count: 1 },
      { at, action: 'add', actor: 'api:operator', type: 'sha256', count: 1 },
    ]);
    const all = await get('/v1/admin/optouts/audit?limit=1000');
    const text = JSON.stringify(all.body.data);
    expect(text).not.toContain(hidden);
    expect(text).not.toContain('jane.doe@acme.com');
    expect(text).not.toContain('+14155550100');
    expectError(await get('/v1/admin/optouts/audit?limit=x'), 400, 'request.invalid');
  });
});
