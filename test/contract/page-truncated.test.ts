import type { UsageCategory } from '../../src/domain/credits.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Over real HTTP: a search page cut short by the contact credits left carries a page_truncated warning (a code this
 * service adds beside the spec's; README "Errors"), on family A contact and company search and family B search; and a
 * required member left out answers 400 request.invalid in the API's own words, on every route.
 */
const NOW = '2026-11-10T12:00:00.000Z';
const FAR_FUTURE = '9999-12-31T23:59:59.000Z';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ contacts: 600, companies: 300, now: NOW });
});
afterAll(async () => app.close());

/** Spends through the credits module, as a spending route does. */
async function spend(accountId: string, amount: number, category: UsageCategory = 'search'): Promise<void> {
  const now = app.clock.now();
  const hold = await app.services.state.reserve({ accountId, kind: 'contact', category, amount, mode: 'exact', now });
  await app.services.state.commit(hold.id, amount, now);
}

describe('a page cut short by the credits left carries page_truncated', () => {
  it('family A search: 150 asked, 100 credits left -> 100 rows, the warning with resets_at of the day cap', async () => {
    const { accountId, apiKey: key } = await app.createAccount('starter'); // 1,000 a day
    await spend(accountId, 900);
    const res = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 150 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.page).toMatchObject({ returned: 100, limit: 150, next_cursor: expect.any(String) });
    expect(res.body.warnings).toEqual([
      {
        code: 'page_truncated',
        message: 'The page holds 100 of the 150 rows asked for: only 100 contact credits were left.',
        hint: expect.stringContaining('page.next_cursor'),
        resets_at: '2026-11-11T00:00:00.000Z',
      },
    ]);
    expect(res.body.quota).toMatchObject({ contact_credits_used: 100, today_remaining: 0 });
  });

  it('no warning when the credits cover the page, nor when the matches end inside the credits left', async () => {
    const { accountId, apiKey: key } = await app.createAccount('starter');
    await spend(accountId, 900);
    const full = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 50 } });
    expect(full.body.data).toHaveLength(50);
    expect(full.body.warnings).toEqual([]);
    // 650 credits left, 1,000 asked, 600 rows match: the matches end before the credits do, nothing was cut
    const { accountId: other, apiKey: key2 } = await app.createAccount('starter');
    await spend(other, 350);
    const all = await app.request('POST', '/v1/contacts/search', { key: key2, body: { filter: {}, limit: 1000 } });
    expect(all.body.data).toHaveLength(600);
    expect(all.body.page.next_cursor).toBeNull();
    expect(all.body.warnings).toEqual([]);
  });

  it('free plan: the pool cuts the page; resets_at is far-future and the hint says the pool is spent', async () => {
    const { accountId, apiKey: key } = await app.createAccount('free'); // a lifetime pool of 100
    await spend(accountId, 70);
    const res = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 100 } });
    expect(res.body.data).toHaveLength(30);
    expect(res.body.warnings).toEqual([
      expect.objectContaining({
        code: 'page_truncated',
        message: expect.stringContaining('lifetime pool'),
        hint: expect.stringContaining('never resets'),
        resets_at: FAR_FUTURE,
      }),
    ]);
  });

  it('company search is cut the same way', async () => {
    const { accountId, apiKey: key } = await app.createAccount('starter');
    await spend(accountId, 980);
    const res = await app.request('POST', '/v1/companies/search', { key, body: { filter: {}, limit: 60 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.warnings).toEqual([
      expect.objectContaining({
        code: 'page_truncated',
        message: 'The page holds 20 of the 60 rows asked for: only 20 contact credits were left.',
        resets_at: '2026-11-11T00:00:00.000Z',
      }),
    ]);
  });

  it('family B search carries it in `warnings` beside the rows (empty on a clean call)', async () => {
    const { accountId, apiKey: key } = await app.createAccount('starter');
    await spend(accountId, 900);
    const b = (body: unknown) => app.request('POST', '/api/v1/contacts/search', { key, keyHeader: 'x-api-key', body });
    const clean = await b({ limit: 10 });
    expect(clean.status).toBe(200);
    expect(clean.body.warnings).toEqual([]);
    const res = await b({ limit: 150 });
    expect(res.status).toBe(200);
    expect(res.body.contacts).toHaveLength(90);
    expect(res.body).toMatchObject({ returned: 90, has_more: true, next_offset: 90, creditsRemaining: 0 });
    expect(res.body.warnings).toEqual([
      {
        code: 'page_truncated',
        message: 'The page holds 90 of the 150 rows asked for: only 90 contact credits were left.',
        hint: expect.stringContaining('next_offset'),
        resets_at: '2026-11-11T00:00:00.000Z',
      },
    ]);
  });
});

describe('a required member left out says so in the API’s own words', () => {
  it('family A routes with a filter: "filter is required." and a hint to send {}', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    for (const path of ['/v1/contacts/count', '/v1/exports', '/v1/companies/count']) {
      const res = await app.request('POST', path, { key, body: {} });
      expectError(res, 400, 'request.invalid');
      expect(res.body.error).toEqual({
        code: 'request.invalid',
        message: 'filter is required.',
        field: 'filter',
        hint: expect.stringContaining('Send "filter": {} to match every row'),
      });
      expect(JSON.stringify(res.body.error)).not.toMatch(/Invalid key|received undefined/);
    }
  });

  it('other members and nested ones: the dotted path, and a hint naming the member', async () => {
    const { apiKey: key } = await app.createAccount('pro');
    const enrich = await app.request('POST', '/v1/enrichments', { key, body: {} });
    expectError(enrich, 400, 'request.invalid');
    expect(enrich.body.error).toMatchObject({
      message: 'inputs is required.',
      field: 'inputs',
      hint: expect.stringContaining('Send "inputs"'),
    });
    const b = (body: unknown) =>
      app.request('POST', '/api/v1/enrich/from-network', { key, keyHeader: 'x-api-key', body });
    const items = await b({});
    expectError(items, 400, 'request.invalid');
    expect(items.body.error).toMatchObject({ message: 'items is required.', field: 'items' });
    const nested = await b({ items: [{ network_url: 'https://network.example/in/ann' }, {}] });
    expectError(nested, 400, 'request.invalid');
    expect(nested.body.error).toMatchObject({
      message: 'items.1.network_url is required.',
      field: 'items.1.network_url',
      hint: expect.stringContaining('Send "network_url"'),
    });
    // a member sent with the wrong type keeps the type message
    const wrong = await app.request('POST', '/v1/contacts/count', { key, body: { filter: 'all' } });
    expect(wrong.body.error).toMatchObject({ code: 'request.invalid', field: 'filter' });
    expect(wrong.body.error.message).not.toContain('is required');
  });
});
