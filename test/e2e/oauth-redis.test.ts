import { createHash, randomBytes } from 'node:crypto';
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
const REDIRECT = 'http://127.0.0.1:9/callback';

class Jar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      const name = pair!.slice(0, at).trim();
      const value = pair!.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

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

  const go = async (jar: Jar, url: string, init: RequestInit = {}) => {
    const res = await fetch(url, {
      redirect: 'manual',
      ...init,
      headers: { Cookie: jar.header(), ...(init.headers as Record<string, string> | undefined) },
    });
    jar.take(res);
    return res;
  };
  const form = (origin: string, body: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  const mcp = (app: TestApp, token: string) =>
    fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
  const token = (app: TestApp, params: Record<string, string>) =>
    fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(params).toString(),
    });

  it('a grant made on one process works on the other: resume, exchange, use, refresh, and key revocation', async () => {
    const { apiKey, accountId } = await one.createAccount('pro', { name: 'Shared' });
    const reg = await fetch(`${two.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Shared Client',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(reg.status).toBe(201);
    const clientId = ((await reg.json()) as { client_id: string }).client_id;

    const verifier = randomBytes(32).toString('base64url');
    const q = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'mcp',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: `${one.url}/mcp`,
    });
    const jar = new Jar();
    const start = await go(jar, `${one.url}/oauth/authorize?${q}`);
    expect(start.status).toBe(303);
    const page = new URL(start.headers.get('location')!, one.url).pathname;
    expect(page).toMatch(/^\/app\/oauth\/authorize\/[\w-]+$/);

    expect((await go(jar, `${one.url}${page}/sign-in`, form(one.url, { api_key: apiKey }))).status).toBe(303);
    const html = await (await go(jar, `${one.url}${page}`)).text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    expect(csrf).toBeTruthy();
    const confirm = await go(
      jar,
      `${one.url}${page}/confirm`,
      form(one.url, { csrf_token: csrf!, decision: 'approve' }),
    );
    expect(confirm.status).toBe(303);
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
