import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Bad input is always a 4xx (hardening review): numbers beyond the 64-bit range, deeply nested JSON,
 * prototype-named filter keys. Each case answered 500 or was silently dropped before.
 */

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ contacts: 400, companies: 60 });
  key = (await app.createAccount('pro')).apiKey;
});
afterAll(async () => app.close());

describe('numbers outside the stored range answer 4xx', () => {
  const huge = [1e19, -1e19, 2 ** 64, 1e308];
  it.each(huge)('family A where gt %p on an integer column: 422 filter.rejected', async (n) => {
    const res = await app.request('POST', '/v1/contacts/count', {
      key,
      body: { filter: { where: { field: 'company_employee_count', op: 'gt', value: n } } },
    });
    expectError(res, 422, 'filter.rejected');
  });

  it.each(huge)('family A employee_count_min %p: 400 request.invalid (it takes a whole number)', async (n) => {
    const res = await app.request('POST', '/v1/contacts/count', { key, body: { filter: { employee_count_min: n } } });
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.field).toBe('filter.employee_count_min');
  });

  it.each([
    'revenue_min',
    'total_funding_min',
    'followers_min',
    'monthly_traffic_min',
    'employee_growth_rate_min',
    'valid_email_count_min',
  ])('family B %s at 1e19: 4xx', async (name) => {
    const res = await app.request('POST', '/api/v1/contacts/search/count', { key, body: { [name]: 1e19 } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body.error.field).toBe(name);
  });

  it('where_sql with a number beyond 64 bits: 400 request.invalid on where_sql', async () => {
    for (const sql of [
      'company_employee_count > 1e19',
      'company_total_funding_usd < -1e19',
      'company_employee_count > 1e400',
    ]) {
      const res = await app.request('POST', '/api/v1/contacts/search/count', { key, body: { where_sql: sql } });
      expectError(res, 400, 'request.invalid');
      expect(res.body.error.field).toBe('where_sql');
    }
  });

  it('values inside the range still count', async () => {
    const res = await app.request('POST', '/v1/contacts/count', {
      key,
      body: { filter: { where: { field: 'company_employee_count', op: 'gt', value: 2 ** 53 } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.count).toBe(0);
  });
});

describe('JSON nesting is bounded when the body is read', () => {
  it('a 100,000-deep array in a spending POST with Idempotency-Key: 400 request.invalid', async () => {
    const deep = `{"filter":{},"limit":1,"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const res = await app.request('POST', '/v1/contacts/search', {
      key,
      rawBody: deep,
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'deep-1' },
    });
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.message).toMatch(/nested deeper than 64/);
    expect((await app.request('GET', '/v1/health')).status).toBe(200);
  });

  it('64 levels are read (the answer is about the member, not the depth)', async () => {
    const ok = `{"filter":{},"x":${'['.repeat(63)}${']'.repeat(63)}}`;
    const res = await app.request('POST', '/v1/contacts/count', {
      key,
      rawBody: ok,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.field).toBe('x');
  });
});

describe('prototype-named keys are refused, not dropped', () => {
  it.each(['__proto__', 'constructor', 'prototype'])('family A filter key %s: 400 filter.unknown_key', async (k) => {
    const res = await app.request('POST', '/v1/contacts/count', {
      key,
      rawBody: `{"filter":{"${k}":{"countries":["zz"]}}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(res, 400, 'filter.unknown_key');
  });

  it.each(['__proto__', 'constructor'])('family B filter %s: 400 filter.unknown_key', async (k) => {
    for (const body of [`{"${k}":{"countries":["us"]}}`, `{"filters":{"${k}":1}}`]) {
      const res = await app.request('POST', '/api/v1/contacts/search/count', {
        key,
        rawBody: body,
        headers: { 'Content-Type': 'application/json' },
      });
      expectError(res, 400, 'filter.unknown_key');
    }
  });
});

describe('family A requests take only the members their operation names', () => {
  it.each([
    ['POST', '/v1/contacts/search', { filter: {}, limt: 5 }, 'limt'],
    ['POST', '/v1/contacts/count', { filter: {}, dry_run: true }, 'dry_run'],
    ['POST', '/v1/contacts/count', { filter: {}, colour: 'red' }, 'colour'],
    ['POST', '/v1/exports', { filter: {}, max_row: 5 }, 'max_row'],
    ['GET', '/v1/account?verbose=1', undefined, 'verbose'],
  ])('%s %s with an unknown member answers 400 request.invalid naming it', async (method, path, body, member) => {
    const res = await app.request(method, path, { key, ...(body ? { body } : {}) });
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.field).toBe(member);
    expect(res.body.error.message).toContain(`"${member}"`);
    if (path === '/v1/contacts/search') expect(res.body.error.hint).toMatch(/Accepted: .*filter.*limit/);
  });

  it('nothing is charged for a refused search', async () => {
    const { apiKey } = await app.createAccount('pro');
    await app.request('POST', '/v1/contacts/search', { key: apiKey, body: { filter: {}, limt: 5 } });
    const credits = await app.request('GET', '/v1/credits', { key: apiKey });
    expect(credits.body.data.contact.day).toMatchObject({ used: 0, held: 0 });
  });
});
