import http from 'node:http';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.createAccount('pro')).apiKey;
});
afterAll(async () => app.close());

describe('envelopes, errors and versions over real HTTP', () => {
  it('a success carries ok, request_id (also in a header), release naming build and data, data, quota, warnings', async () => {
    const res = await app.request('GET', '/v1/account', { key });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.request_id).toMatch(/^req_/);
    expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
    const rel = app.services.engine.release()!;
    expect(res.body.release).toBe(`${app.services.build.version}+${rel.id}`);
    expect(res.body.warnings).toEqual([]);
    expect(Object.keys(res.body.quota).sort()).toEqual([
      'binding',
      'contact_credits_used',
      'month_remaining',
      'plan',
      'resets_at',
      'today_remaining',
    ]);
  });

  it('unknown routes answer 404 in the error envelope', async () => {
    const res = await app.request('GET', '/v1/nope', { key });
    expect(res.status).toBe(404);
    expect(res.body.ok).toBe(false);
    expect(res.body.error.code).toBe('route.not_found');
    expect(res.body.request_id).toMatch(/^req_/);
  });

  it.each([
    ['malformed JSON', '{"message": ', 'application/json'],
    ['a JSON array', '[1,2]', 'application/json'],
    ['a JSON string', '"hi"', 'application/json'],
    ['a non-JSON content type', 'message=hi', 'application/x-www-form-urlencoded'],
  ])('%s answers 400 request.invalid, not a 500', async (_name, raw, type) => {
    const res = await app.request('POST', '/v1/feedback', { key, rawBody: raw, headers: { 'Content-Type': type } });
    expectError(res, 400, 'request.invalid');
    expect(res.body.quota.plan).toBe('pro');
  });

  it('a JSON body sent with curl -d (form content type) is read as JSON', async () => {
    const res = await app.request('POST', '/v1/feedback', {
      key,
      rawBody: '{"message":"hello"}',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(201);
  });

  it('wrong types answer 400 request.invalid with the field', async () => {
    const res = await app.request('POST', '/v1/feedback', { key, body: { message: 42 } });
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.field).toBe('message');
  });

  it('an oversize body answers 400 request.invalid', async () => {
    const res = await app.request('POST', '/v1/feedback', {
      key,
      body: { message: 'x'.repeat(app.config.maxBodyBytes + 10) },
    });
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.message).toMatch(/larger than/);
  });

  it('an oversize body sent without Content-Length answers 400 request.invalid once the limit is passed', async () => {
    // Chunked, with no length announced: the limit is found while reading, and the rest is never waited for.
    const chunk = `"${'x'.repeat(16 * 1024 - 2)}",`;
    const answer = await new Promise<{
      status: number;
      connection: string | undefined;
      body: { error: { code: string; message: string } };
    }>((resolve, reject) => {
      const req = http.request(`${app.url}/v1/feedback`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (b: Buffer) => (text += b.toString()));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body: JSON.parse(text) }),
        );
      });
      req.on('error', reject);
      req.write('{"message":[');
      const sent = Math.ceil(app.config.maxBodyBytes / chunk.length) + 1;
      for (let i = 0; i < sent; i++) req.write(chunk);
      // The body never ends: an answer can only come from the limit.
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('request.invalid');
    expect(answer.body.error.message).toMatch(/larger than/);
    // The unread rest is not waited for: the connection closes after the answer.
    expect(answer.connection).toBe('close');
  });

  it.each(['2026-9-19', 'yesterday', '2026-02-30', '2026-13-01'])(
    'Service-Version %s answers 400 request.invalid',
    async (v) => {
      const res = await app.request('GET', '/v1/account', { key, headers: { 'Service-Version': v } });
      expectError(res, 400, 'request.invalid');
      expect(res.body.error.field).toBe('header.Service-Version');
    },
  );

  it('a date before v1 answers 400; a valid date or none serves the latest contract', async () => {
    expect(
      (await app.request('GET', '/v1/account', { key, headers: { 'Service-Version': '2025-01-01' } })).status,
    ).toBe(400);
    const dated = await app.request('GET', '/v1/account', { key, headers: { 'Service-Version': '2026-09-19' } });
    expect(dated.status).toBe(200);
    expect(dated.headers.get('service-version')).toBe('2026-10-11');
    const none = await app.request('GET', '/v1/account', { key });
    expect(none.headers.get('service-version')).toBe('2026-10-11');
  });
});

describe('health routes', () => {
  it('GET /v1/health and /health need no key and report engine and state', async () => {
    for (const path of ['/v1/health', '/health']) {
      const res = await app.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(true);
      expect(res.body.data.status).toBe('ok');
      expect(res.body.data.engine.contacts).toBe(app.services.engine.release()!.contacts);
      // A loaded release serves point reads (enrichment, lookups) from its point store.
      expect(res.body.data.engine.point_reads).toBe(true);
      expect(res.body.data.engine.point_reads_note).toBeUndefined();
      expect(res.body.data.state.ok).toBe(true);
      expect(res.body.quota).toBeUndefined();
    }
  });

  it('GET /v1/health with a key carries that account quota', async () => {
    const res = await app.request('GET', '/v1/health', { key });
    expect(res.body.quota.plan).toBe('pro');
  });

  it('GET /api/health answers ok, service and version', async () => {
    const res = await app.request('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, service: 'contact-data-service', version: app.services.build.version });
  });
});
