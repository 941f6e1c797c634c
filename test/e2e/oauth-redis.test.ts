import {
  approveOnPage,
  authorizeRequest,
  CookieJar,
  go,
  mcpToolsList,
  REDIRECT,
  registerClient,
  tokenRequest,
} from '../helpers/oauth-http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from '../state/store-factories.js';

/**
 * OAuth across processes (Redis state): two app processes with one Redis and one secret share the authorization
 * server's interactions, clients, grants and tokens. The sign-in and approval start on one process and resume on
 * the other (its signed cookies verify there), the token is exchanged, used and refreshed on either, and revoking the
 * key on one ends the token on the other. The page is driven over HTTP here (the Chromium run is
 * test/browser/oauth-mcp.test.ts).
 */
const SECRET = 'oauth-redis-secret-0123456789abcdef0123';
describeRedis('OAuth shared by two processes (Redis state)', () => {
  const prefix = testPrefix();
  let one: TestApp;
  let two: TestApp;
  const env = { CDS_STATE: 'redis', REDIS_URL, CDS_REDIS_PREFIX: prefix, CDS_SECRET: SECRET };

  beforeAll(async () => {
    one = await startTestApp({ contacts: 50, companies: 10, env });
    two = await startTestApp({ contacts: 50, companies: 10, env });
    // One deployment has one public URL (the issuer and the token audience), whichever process answers.
    two.services.config.publicUrl = one.url;
  }, 120_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await dropPrefix(REDIS_URL, prefix);
  });

  const mcp = (app: TestApp, token: string) => mcpToolsList(app.url, token);
  const token = (app: TestApp, params: Record<string, string>) => tokenRequest(app.url, params);

  it('a grant made on one process works on the other: resume, exchange, use, refresh, and key revocation', async () => {
    const { apiKey, accountId } = await one.createAccount('pro', { name: 'Shared' });
    const reg = await registerClient(two.url, 'Shared Client');
    expect(reg.status).toBe(201);
    const clientId = ((await reg.json()) as { client_id: string }).client_id;

    const { verifier, query } = authorizeRequest(clientId, 'mcp', `${one.url}/mcp`);
    const jar = new CookieJar();
    const start = await go(jar, `${one.url}/oauth/authorize?${query}`);
    expect(start.status).toBe(303);
    const page = new URL(start.headers.get('location')!, one.url).pathname;
    expect(page).toMatch(/^\/app\/oauth\/authorize\/[\w-]+$/);

    const confirm = await approveOnPage(jar, one.url, page, apiKey);
    // Resumed on the other process.
    const resume = new URL(confirm.headers.get('location')!, one.url);
    const back = await go(jar, `${two.url}${resume.pathname}`);
    expect(back.status).toBe(303);
    const code = new URL(back.headers.get('location')!).searchParams.get('code');
    expect(code).toBeTruthy();

    const exchanged = await token(two, {
      grant_type: 'authorization_code',
      code: code!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(exchanged.status).toBe(200);
    const first = (await exchanged.json()) as { access_token: string; refresh_token: string };
    expect((await mcp(one, first.access_token)).status).toBe(200);
    expect((await mcp(two, first.access_token)).status).toBe(200);

    const refreshed = await token(one, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect((await mcp(two, second.access_token)).status).toBe(200);

    // The key revoked through one process ends the token on the other at once.
    const [key] = await two.services.state.listKeys(accountId);
    await two.services.state.revokeKey(accountId, key!.id, two.clock.now());
    expect((await mcp(one, second.access_token)).status).toBe(401);
    // The rotated refresh token is refused on either process.
    const reuse = await token(two, {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(reuse.status).toBe(400);
  });
});
