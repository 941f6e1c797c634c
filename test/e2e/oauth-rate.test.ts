import { OAUTH_ADDRESS_PER_MINUTE } from '../../src/oauth/routes.js';
import { registerClient, tokenRequest } from '../helpers/oauth-http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from '../state/store-factories.js';

/**
 * The per-address limit on POST /oauth/register and POST /oauth/token: OAUTH_ADDRESS_PER_MINUTE requests a minute
 * from one address to each, then 429 rate.limited with Retry-After before the provider sees the request. In Redis
 * mode the count is shared by every process of the deployment.
 */
const register = (url: string) =>
  registerClient(url, 'Rate test client', {
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  });

const token = (url: string) =>
  tokenRequest(url, { grant_type: 'authorization_code', code: 'no-such-code', client_id: 'no-such-client' });

async function expectRefused(res: Response): Promise<void> {
  const body = (await res.json()) as { error?: { code?: string } };
  expect([res.status, body.error?.code]).toEqual([429, 'rate.limited']);
  const retry = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retry)).toBe(true);
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
}

describe('OAuth registration and token endpoints: per-address limit (SQLite state)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ contacts: 50, companies: 10 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it(`registers ${OAUTH_ADDRESS_PER_MINUTE} clients a minute from one address, then answers 429 with Retry-After`, async () => {
    for (let i = 0; i < OAUTH_ADDRESS_PER_MINUTE; i++) {
      const res = await register(app.url);
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
    await expectRefused(await register(app.url));
    // The token endpoint has its own count: still answered by the provider (an unknown client).
    const other = await token(app.url);
    expect(other.status).not.toBe(429);
    await other.arrayBuffer();
  }, 120_000);

  it(`limits POST /oauth/token to ${OAUTH_ADDRESS_PER_MINUTE} a minute from one address`, async () => {
    let answered = 1; // the previous case sent one
    while (answered < OAUTH_ADDRESS_PER_MINUTE) {
      const res = await token(app.url);
      expect(res.status).not.toBe(429);
      expect(res.status).toBeGreaterThanOrEqual(400);
      await res.arrayBuffer();
      answered++;
    }
    await expectRefused(await token(app.url));
  }, 120_000);
});

describeRedis('OAuth per-address limit shared by two processes (Redis state)', () => {
  const prefix = testPrefix();
  let one: TestApp;
  let two: TestApp;
  const env = {
    CDS_STATE: 'redis',
    REDIS_URL,
    CDS_REDIS_PREFIX: prefix,
    CDS_SECRET: 'oauth-rate-secret-0123456789abcdef0123',
  };

  beforeAll(async () => {
    one = await startTestApp({ contacts: 50, companies: 10, env });
    two = await startTestApp({ contacts: 50, companies: 10, env });
    two.services.config.publicUrl = one.url;
  }, 120_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await dropPrefix(REDIS_URL, prefix);
  });

  it('counts registrations on either process against one limit', async () => {
    for (let i = 0; i < OAUTH_ADDRESS_PER_MINUTE; i++) {
      const res = await register(i % 2 === 0 ? one.url : two.url);
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
    await expectRefused(await register(one.url));
    await expectRefused(await register(two.url));
  }, 120_000);
});
