import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Charge only what was delivered: a client that disconnects before its answer is written was charged for rows
 * it never received. The charge now waits for the answer to be written out; a disconnect releases the hold and
 * forgets the Idempotency-Key, so a retry runs (and pays) again instead of replaying an unpaid answer.
 */

const DELAY = 700;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 40, env: { CDS_TEST_ANSWER_DELAY_MS: String(DELAY) } });
});
afterAll(async () => app.close());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const day = async (key: string) => (await app.request('GET', '/v1/credits', { key })).body.data.contact.day;

/** A search whose client gives up before the answer is written. */
async function abandoned(key: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const sent = fetch(`${app.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${key}`, 'X-API-Key': key, ...headers },
    body: JSON.stringify(body),
    signal: abort.signal,
  });
  await sleep(DELAY / 3);
  abort.abort();
  await expect(sent).rejects.toThrow();
  await sleep(DELAY + 200); // the server finishes writing into the closed connection
}

describe('charge only what was delivered', () => {
  it('a delivered search is charged its rows', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await app.request('POST', '/v1/contacts/search', { key: apiKey, body: { filter: {}, limit: 10 } });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(10);
    expect(await day(apiKey)).toMatchObject({ used: 10, held: 0 });
  });

  it('family A: a client gone before the answer pays nothing, and nothing stays held', async () => {
    const { apiKey } = await app.createAccount('pro');
    await abandoned(apiKey, '/v1/contacts/search', { filter: {}, limit: 10 });
    expect(await day(apiKey)).toMatchObject({ used: 0, held: 0 });
  });

  it('family B: the same', async () => {
    const { apiKey } = await app.createAccount('pro');
    await abandoned(apiKey, '/api/v1/contacts/search', { limit: 10 });
    expect(await day(apiKey)).toMatchObject({ used: 0, held: 0 });
  });

  it('with an Idempotency-Key, the retry after a disconnect runs again and is charged once', async () => {
    const { apiKey } = await app.createAccount('pro');
    const body = { filter: {}, limit: 7 };
    await abandoned(apiKey, '/v1/contacts/search', body, { 'Idempotency-Key': 'retry-after-drop' });
    const retry = await app.request('POST', '/v1/contacts/search', {
      key: apiKey,
      body,
      headers: { 'Idempotency-Key': 'retry-after-drop' },
    });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body.data).toHaveLength(7);
    expect(await day(apiKey)).toMatchObject({ used: 7, held: 0 });
    const replay = await app.request('POST', '/v1/contacts/search', {
      key: apiKey,
      body,
      headers: { 'Idempotency-Key': 'retry-after-drop' },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await day(apiKey)).toMatchObject({ used: 7, held: 0 });
  });
});
