import { loadConfig } from '../../src/config.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ env: { CDS_ADMIN_TOKEN: 'operator-secret-token-0123456789abcdef' } });
});
afterAll(async () => app.close());

describe('authentication', () => {
  it('a missing key answers 401 auth.invalid_key without a quota block', async () => {
    const res = await app.request('GET', '/v1/account');
    expectError(res, 401, 'auth.invalid_key');
    expect(res.body.quota).toBeUndefined();
    expect(res.body.error.hint).toMatch(/Bearer/);
  });

  it('an unknown key answers 401 without a quota block', async () => {
    const res = await app.request('GET', '/v1/account', { key: `cds_${'x'.repeat(40)}` });
    expectError(res, 401, 'auth.invalid_key');
    expect(res.body.quota).toBeUndefined();
  });

  it('family A takes Bearer only; X-API-Key there is a missing key', async () => {
    const { apiKey } = await app.createAccount('starter');
    expect((await app.request('GET', '/v1/account', { key: apiKey })).status).toBe(200);
    expect((await app.request('GET', '/v1/account', { key: apiKey, keyHeader: 'x-api-key' })).status).toBe(401);
  });

  it('a revoked key answers 401', async () => {
    const { apiKey } = await app.createAccount('starter');
    const list = await app.request('GET', '/v1/keys', { key: apiKey });
    const id = list.body.data[0].id;
    const del = await app.request('DELETE', `/v1/keys/${id}`, { key: apiKey });
    expect(del.status).toBe(200);
    expect(del.body.data.active).toBe(false);
    const after = await app.request('GET', '/v1/account', { key: apiKey });
    expectError(after, 401, 'auth.invalid_key');
  });
});

describe('keys routes', () => {
  it('lists keys without secrets', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await app.request('GET', '/v1/keys', { key: apiKey });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ active: true, revoked_at: null });
    expect(res.body.data[0].id).toMatch(/^key_/);
    expect(JSON.stringify(res.body)).not.toContain(apiKey);
    expect(apiKey.startsWith(`cds_${res.body.data[0].prefix}`)).toBe(true);
  });

  it('a second active key answers 409 key.limit_reached with a hint', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await app.request('POST', '/v1/keys', { key: apiKey, body: { name: 'second' } });
    expectError(res, 409, 'key.limit_reached');
    expect(res.body.error.hint).toBeTruthy();
    expect(res.body.quota.plan).toBe('pro');
  });

  it('revoking an unknown key, or another account key, answers 404 key.not_found', async () => {
    const a = await app.createAccount('pro');
    const b = await app.createAccount('pro');
    const bKeyId = (await app.request('GET', '/v1/keys', { key: b.apiKey })).body.data[0].id;
    const other = await app.request('DELETE', `/v1/keys/${bKeyId}`, { key: a.apiKey });
    expectError(other, 404, 'key.not_found');
    expect((await app.request('GET', '/v1/account', { key: b.apiKey })).status).toBe(200);
    const unknown = await app.request('DELETE', '/v1/keys/key_doesnotexist', { key: a.apiKey });
    expectError(unknown, 404, 'key.not_found');
  });

  it('after revoking, a new key can be created for the account and works', async () => {
    const { accountId, apiKey } = await app.createAccount('pro');
    const id = (await app.request('GET', '/v1/keys', { key: apiKey })).body.data[0].id;
    await app.request('DELETE', `/v1/keys/${id}`, { key: apiKey });
    const { secret } = await app.services.state.createKey(accountId, { name: 'rotated', now: app.clock.now() });
    const res = await app.request('GET', '/v1/keys', { key: secret });
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: { active: boolean }) => k.active).sort()).toEqual([false, true]);
  });
});

describe('operator routes and auth.oauth_required', () => {
  const op = { Authorization: 'Bearer operator-secret-token-0123456789abcdef' };

  it('an API key on an operator route answers 403 auth.oauth_required', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await app.request('POST', '/v1/admin/accounts', { key: apiKey, body: { plan: 'pro' } });
    expectError(res, 403, 'auth.oauth_required');
  });

  it('the operator creates an account whose key works, suspends and resumes it', async () => {
    const created = await app.request('POST', '/v1/admin/accounts', {
      headers: op,
      body: { plan: 'starter', name: 'Acme', billing_day: 15 },
    });
    expect(created.status).toBe(201);
    const key = created.body.data.api_key as string;
    expect(created.body.data.billing_day).toBe(15);
    expect((await app.request('GET', '/v1/account', { key })).body.data.plan.slug).toBe('starter');

    const susp = await app.request('POST', `/v1/admin/accounts/${created.body.data.id}/suspend`, { headers: op });
    expect(susp.body.data.status).toBe('suspended');
    // Reads that spend nothing keep working while suspended.
    const read = await app.request('GET', '/v1/account', { key });
    expect(read.status).toBe(200);
    expect(read.body.data.status).toBe('suspended');

    const res = await app.request('POST', `/v1/admin/accounts/${created.body.data.id}/resume`, { headers: op });
    expect(res.body.data.status).toBe('active');
  });

  it('a wrong operator token answers 401', async () => {
    const res = await app.request('GET', '/v1/admin/accounts/acc_x', { headers: { Authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
  });
});

describe('feedback', () => {
  it('stores feedback and answers its id', async () => {
    const { apiKey } = await app.createAccount('free');
    const res = await app.request('POST', '/v1/feedback', {
      key: apiKey,
      body: { message: 'Phone of per_x is wrong', category: 'data_quality' },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.id).toMatch(/^fbk_/);
  });

  it('rejects a blank message and unknown fields', async () => {
    const { apiKey } = await app.createAccount('free');
    expect((await app.request('POST', '/v1/feedback', { key: apiKey, body: { message: '   ' } })).body.error.code).toBe(
      'request.invalid',
    );
    const unknown = await app.request('POST', '/v1/feedback', { key: apiKey, body: { message: 'x', colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.field).toBe('colour');
  });
});

describe('operator sign-in hardening', () => {
  it('refuses to start with an operator token or secret shorter than 32 characters', () => {
    for (const env of [{ CDS_ADMIN_TOKEN: 'short-token' }, { CDS_SECRET: 'x'.repeat(31) }]) {
      expect(() => loadConfig(['--data', app.dataDir], env)).toThrow(/at least 32 characters/);
    }
    expect(() => loadConfig(['--data', app.dataDir], { CDS_SECRET: 'x'.repeat(32) })).not.toThrow();
  });

  it('10 failed sign-ins in a minute with one token prefix from one address answer 429 with Retry-After; the right token still passes (sign-in-throttle)', async () => {
    const wrong = { Authorization: 'Bearer wrong-token-0123456789abcdef-0123456789' };
    const right = { Authorization: 'Bearer operator-secret-token-0123456789abcdef' };
    const limited = await startTestApp({
      contacts: 50,
      companies: 10,
      env: { CDS_ADMIN_TOKEN: right.Authorization.slice(7) },
    });
    try {
      for (let i = 0; i < 10; i++) {
        expectError(
          await limited.request('GET', '/v1/admin/accounts/acc_x', { headers: wrong }),
          401,
          'auth.invalid_key',
        );
      }
      const refused = await limited.request('GET', '/v1/admin/accounts/acc_x', { headers: wrong });
      expectError(refused, 429, 'rate.limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expectError(
        await limited.request('GET', '/v1/admin/accounts/acc_x', { headers: right }),
        404,
        'account.not_found',
      );
      limited.clock.advance(61_000);
      expectError(
        await limited.request('GET', '/v1/admin/accounts/acc_x', { headers: right }),
        404,
        'account.not_found',
      );
    } finally {
      await limited.close();
    }
  });
});
