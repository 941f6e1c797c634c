import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The per-key limits hold for every MCP message, not only tool calls: a 5 KB batch of 100 tools/list requests
 * answered 10 MB and counted nothing. Batches are bounded, each message counts, and /mcp answers carry the
 * RateLimit headers.
 */

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ contacts: 100, companies: 20, env: { CDS_RATE_PER_MINUTE: '25' } });
  key = (await app.createAccount('pro')).apiKey;
});
afterAll(async () => app.close());

const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
const post = (body: unknown, apiKey = key) =>
  fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'X-API-Key': apiKey,
      'MCP-Protocol-Version': '2025-06-18',
    },
    body: JSON.stringify(body),
  });

describe('MCP messages and the per-key limits', () => {
  it('one message answers with the RateLimit headers', async () => {
    const res = await post(list(1));
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-policy')).toBe('"default";q=25;w=60');
    expect(res.headers.get('ratelimit')).toMatch(/^"default";r=24;t=\d+$/);
    expect(((await res.json()) as any).result.tools.length).toBeGreaterThan(10);
  });

  it('a batch of more than 10 messages is refused before any work', async () => {
    const res = await post(Array.from({ length: 11 }, (_, i) => list(i)));
    expect(res.status).toBe(400);
    expect(((await res.json()) as any).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/1 to 10/),
    });
  });

  it('every message of a batch counts: a batch that would pass the minute is 429 rate.limited', async () => {
    const { apiKey } = await app.createAccount('pro');
    const batch = Array.from({ length: 10 }, (_, i) => list(i));
    const first = await post(batch, apiKey);
    expect(first.headers.get('ratelimit')).toMatch(/r=15;/);
    await first.text();
    expect((await post(batch, apiKey)).status).toBe(200);
    const third = await post(batch, apiKey);
    expectError({ status: third.status, body: await third.json() }, 429, 'rate.limited');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // Five messages are left in the window: one more single message passes.
    expect((await post(list(99), apiKey)).status).toBe(200);
  });
});
