import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A 402 says what to do next (its hint), and the request log shows it with its code. */

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 60 });
}, 60_000);
afterAll(async () => app.close());

it('contact credits spent: 402 contact_credits.exhausted with a hint, logged with its code and no credits', async () => {
  const { apiKey: key } = await app.createAccount('free');
  const all = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 1000 } });
  expect(all.status).toBe(200);
  expect(all.body.quota.contact_credits_used).toBeGreaterThan(0);
  const res = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 5 } });
  expectError(res, 402, 'contact_credits.exhausted');
  expect(res.body.error.hint).toMatch(/paid plan/);
  expect(res.body.error.message).toContain('spent');
  const logged = await app.request('GET', `/v1/requests/${res.body.request_id}`, { key });
  expect(logged.body.data).toMatchObject({ status: 402, error_code: 'contact_credits.exhausted', credits: 0 });
});
