import { createHash, randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * /mcp requires the `mcp` scope of an OAuth access token: a token this service issued for /mcp whose grant was
 * requested without `mcp` (here `openid` only) is refused 401 with a challenge naming the scope
 * (`error="insufficient_scope", scope="mcp"`); the same client authorized with `scope=mcp` is served. The
 * authorization page is driven over HTTP (the Chromium run is test/browser/oauth-mcp.test.ts).
 */
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

describe('OAuth: /mcp requires the mcp scope', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ contacts: 50, companies: 10 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
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
  const form = (body: Record<string, string>): RequestInit => ({
    method: 'POST',
    headers: { Origin: app.url, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  const mcp = (token: string) =>
    fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });

  /** Registers a client, signs in with the key and approves `scope`, and exchanges the code for tokens. */
  async function authorize(apiKey: string, scope: string): Promise<{ access_token: string; scope?: string }> {
    const reg = await fetch(`${app.url}/oauth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client_name: 'Scope Client',
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
      scope,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      resource: `${app.url}/mcp`,
    });
    const jar = new Jar();
    const start = await go(jar, `${app.url}/oauth/authorize?${q}`);
    expect(start.status).toBe(303);
    const page = new URL(start.headers.get('location')!, app.url).pathname;
    expect((await go(jar, `${app.url}${page}/sign-in`, form({ api_key: apiKey }))).status).toBe(303);
    const html = await (await go(jar, `${app.url}${page}`)).text();
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
    expect(csrf).toBeTruthy();
    const confirm = await go(jar, `${app.url}${page}/confirm`, form({ csrf_token: csrf!, decision: 'approve' }));
    expect(confirm.status).toBe(303);
    const back = await go(jar, new URL(confirm.headers.get('location')!, app.url).toString());
    expect(back.status).toBe(303);
    const location = back.headers.get('location')!;
    expect(location).toContain('code=');
    const code = new URL(location).searchParams.get('code');
    const exchanged = await fetch(`${app.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: code!,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
      }).toString(),
    });
    expect(exchanged.status).toBe(200);
    return (await exchanged.json()) as { access_token: string; scope?: string };
  }

  it('refuses a token for /mcp without the mcp scope, naming the scope in the challenge', async () => {
    const { apiKey } = await app.createAccount('pro', { name: 'Scoped' });
    const without = await authorize(apiKey, 'openid');
    expect((without.scope ?? '').split(' ')).not.toContain('mcp');
    const refused = await mcp(without.access_token);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp"');
    expect(challenge).toContain(`resource_metadata="${app.url}/.well-known/oauth-protected-resource"`);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('auth.invalid_key');

    const granted = await authorize(apiKey, 'mcp');
    expect((granted.scope ?? '').split(' ')).toContain('mcp');
    const served = await mcp(granted.access_token);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
  }, 120_000);
});
