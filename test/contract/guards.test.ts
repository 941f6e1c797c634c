import { idempotencyLeaseMs, requestHash } from '../../src/http/idempotency.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { CDS_RATE_PER_MINUTE: '20' } });
});
afterAll(async () => app.close());

const search = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request('POST', '/v1/contacts/search', { key, body, headers });

describe('Idempotency-Key on spending POSTs', () => {
  it('a retry with the same key and body returns the first answer and spends nothing again', async () => {
    const { apiKey } = await app.createAccount('pro');
    const body = { filter: { countries: ['us'] }, limit: 5 };
    const first = await search(apiKey, body, { 'Idempotency-Key': 'retry-1' });
    expect(first.status).toBe(200);
    expect(first.body.quota.contact_credits_used).toBe(5);
    const again = await search(apiKey, body, { 'Idempotency-Key': 'retry-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const account = await app.request('GET', '/v1/account', { key: apiKey });
    expect(account.body.quota.today_remaining).toBe(10_000 - 5);
  });

  it('the same key with another body answers 409 idempotency.mismatch', async () => {
    const { apiKey } = await app.createAccount('pro');
    await search(apiKey, { filter: {}, limit: 1 }, { 'Idempotency-Key': 'k' });
    const res = await search(apiKey, { filter: {}, limit: 2 }, { 'Idempotency-Key': 'k' });
    expectError(res, 409, 'idempotency.mismatch');
  });

  it('a key left running by a process that died is free again once its lease passes', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const body = { filter: {}, limit: 3 };
    const op = OPERATIONS.find((o) => o.name === 'contacts.search')!;
    const lease = idempotencyLeaseMs(app.services);
    // The dead process claimed the key and never finished.
    const start = app.clock.now();
    await app.services.state.beginIdempotent(accountId, 'orphan', requestHash(op, body), start, lease);
    app.clock.advance(lease - 1000);
    expectError(await search(apiKey, body, { 'Idempotency-Key': 'orphan' }), 409, 'idempotency.in_progress');
    app.clock.advance(2000);
    const retry = await search(apiKey, body, { 'Idempotency-Key': 'orphan' });
    expect(retry.status).toBe(200);
    expect(retry.body.quota.contact_credits_used).toBe(3);
    expect((await search(apiKey, body, { 'Idempotency-Key': 'orphan' })).headers.get('idempotent-replayed')).toBe(
      'true',
    );
  });

  it('a failed call is not stored: its retry runs again', async () => {
    const { apiKey } = await app.createAccount('pro');
    const bad = await search(apiKey, { filter: { seniority: ['boss'] } }, { 'Idempotency-Key': 'f' });
    expect(bad.status).toBe(400);
    const again = await search(apiKey, { filter: { seniority: ['boss'] } }, { 'Idempotency-Key': 'f' });
    expect(again.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(400);
  });
});

describe('rate limits', () => {
  it('sets RateLimit headers on keyed responses and answers 429 rate.limited with Retry-After past the window', async () => {
    const { apiKey } = await app.createAccount('pro');
    let last: Awaited<ReturnType<typeof app.request>> | undefined;
    for (let i = 0; i < 20; i++) {
      last = await app.request('GET', '/v1/account', { key: apiKey });
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get('ratelimit-policy')).toBe('"default";q=20;w=60');
    expect(last!.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    const refused = await app.request('GET', '/v1/account', { key: apiKey });
    expectError(refused, 429, 'rate.limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.quota.plan).toBe('pro');
    // Another key of another account is not affected.
    expect((await app.request('GET', '/v1/account', { key: (await app.createAccount('pro')).apiKey })).status).toBe(
      200,
    );
  });

  it('at most 2 concurrent requests per key; slots free when requests end or fail', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    // Twelve arrive together; each waits on the engine, so more than two are in flight at once.
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        search(apiKey, i % 3 === 0 ? { filter: { seniority: ['boss'] } } : { filter: {}, limit: 1000, columns: ['*'] }),
      ),
    );
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status !== 429).length).toBeGreaterThanOrEqual(2);
    for (const r of refused) {
      expect(r.body.error.code).toBe('rate.limited');
      expect(r.body.error.message).toMatch(/concurrent/);
    }
    // Every slot came back, including those of the requests that failed with 400.
    const after = await Promise.all([
      app.request('GET', '/v1/account', { key: apiKey }),
      app.request('GET', '/v1/credits', { key: apiKey }),
    ]);
    expect(after.map((r) => r.status)).toEqual([200, 200]);
  });

  it('keyless routes are not limited', async () => {
    for (let i = 0; i < 25; i++) expect((await app.request('GET', '/api/health')).status).toBe(200);
  });
});
