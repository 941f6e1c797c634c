import { expectError } from '../helpers/errors.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let rows: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 1500, companies: 150, seed: 4 });
  rows = await allRows(app, 'contacts');
});
afterAll(async () => app.close());

describe('saved domain lists and domain_list_id', () => {
  it('a saved list filters family B search and count to its domains; lists belong to their account', async () => {
    const a = await app.createAccount('pro');
    const b = await app.createAccount('pro');
    const domains = [
      ...new Set(rows.filter((r) => has(r.company_domain)).map((r) => r.company_domain as string)),
    ].slice(0, 5);
    const created = await app.request('POST', '/api/v1/domain-lists', {
      key: a.apiKey,
      keyHeader: 'x-api-key',
      body: { name: 'targets', domains: [...domains.map((d) => `https://www.${d}/`), domains[0]] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'targets', domains: 5 });
    const id = created.body.domain_list_id as string;
    expect(id).toMatch(/^dl_/);

    const want = rows.filter((r) => domains.includes(r.company_domain)).length;
    const count = await app.request('POST', '/api/v1/contacts/search/count', {
      key: a.apiKey,
      keyHeader: 'x-api-key',
      body: { domain_list_id: id },
    });
    expect(count.body.count).toBe(want);
    expect(want).toBeGreaterThan(0);

    const listed = await app.request('GET', '/api/v1/domain-lists', { key: a.apiKey, keyHeader: 'x-api-key' });
    expect(listed.body.domain_lists.map((l: Row) => l.domain_list_id)).toEqual([id]);

    // Another account cannot use or see it.
    const other = await app.request('POST', '/api/v1/contacts/search/count', {
      key: b.apiKey,
      keyHeader: 'x-api-key',
      body: { domain_list_id: id },
    });
    expect(other.status).toBe(400);
    expect(
      (await app.request('GET', '/api/v1/domain-lists', { key: b.apiKey, keyHeader: 'x-api-key' })).body.domain_lists,
    ).toEqual([]);
  });

  it('refuses a value that is not a domain', async () => {
    const a = await app.createAccount('pro');
    const res = await app.request('POST', '/api/v1/domain-lists', {
      key: a.apiKey,
      keyHeader: 'x-api-key',
      body: { name: 'x', domains: ['acme.com', 'not a domain'] },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.field).toBe('domains[1]');
  });
});

describe('saved domain lists are bounded per account', () => {
  const save = (apiKey: string, domains: string[]) =>
    app.request('POST', '/api/v1/domain-lists', { key: apiKey, body: { name: 'bulk', domains } });

  it('at most 50 lists: the 51st answers 409 domain_lists.limit_reached, another account is unaffected', async () => {
    const a = await app.createAccount('pro');
    for (let i = 0; i < 50; i++) expect((await save(a.apiKey, [`list${i}.example.com`])).status).toBe(201);
    const refused = await save(a.apiKey, ['one-more.example.com']);
    expectError(refused, 409, 'domain_lists.limit_reached');
    expect(refused.body.error.message).toMatch(/holds 50 lists/);
    const listed = await app.request('GET', '/api/v1/domain-lists', { key: a.apiKey });
    expect(listed.body.domain_lists).toHaveLength(50);
    expect((await save((await app.createAccount('pro')).apiKey, ['fresh.example.com'])).status).toBe(201);
  });

  it('at most 100,000 domains over all lists', async () => {
    const a = await app.createAccount('pro');
    for (let i = 0; i < 10; i++) {
      const domains = Array.from({ length: 10_000 }, (_, j) => `d${i}-${j}.example.com`);
      expect((await save(a.apiKey, domains)).status).toBe(201);
    }
    expectError(await save(a.apiKey, ['past-the-bound.example.com']), 409, 'domain_lists.limit_reached');
  });
});
