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

/**
 * /mcp requires the `mcp` scope of an OAuth access token: a token this service issued for /mcp whose grant was
 * requested without `mcp` (here `openid` only) is refused 401 with a challenge naming the scope
 * (`error="insufficient_scope", scope="mcp"`); the same client authorized with `scope=mcp` is served. The
 * authorization page is driven over HTTP (the Chromium run is test/browser/oauth-mcp.test.ts).
 */
describe('OAuth: /mcp requires the mcp scope', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ contacts: 50, companies: 10 });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  /** Registers a client, signs in with the key and approves `scope`, and exchanges the code for tokens. */
  async function authorize(apiKey: string, scope: string): Promise<{ access_token: string; scope?: string }> {
    const reg = await registerClient(app.url, 'Scope Client');
    expect(reg.status).toBe(201);
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const { verifier, query } = authorizeRequest(clientId, scope, `${app.url}/mcp`);
    const jar = new CookieJar();
    const start = await go(jar, `${app.url}/oauth/authorize?${query}`);
    expect(start.status).toBe(303);
    const page = new URL(start.headers.get('location')!, app.url).pathname;
    const confirm = await approveOnPage(jar, app.url, page, apiKey);
    const back = await go(jar, new URL(confirm.headers.get('location')!, app.url).toString());
    expect(back.status).toBe(303);
    const location = back.headers.get('location')!;
    expect(location).toContain('code=');
    const code = new URL(location).searchParams.get('code');
    const exchanged = await tokenRequest(app.url, {
      grant_type: 'authorization_code',
      code: code!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    expect(exchanged.status).toBe(200);
    return (await exchanged.json()) as { access_token: string; scope?: string };
  }

  it('refuses a token for /mcp without the mcp scope, naming the scope in the challenge', async () => {
    const { apiKey } = await app.createAccount('pro', { name: 'Scoped' });
    const without = await authorize(apiKey, 'openid');
    expect((without.scope ?? '').split(' ')).not.toContain('mcp');
    const refused = await mcpToolsList(app.url, without.access_token);
    expect(refused.status).toBe(401);
    const challenge = refused.headers.get('www-authenticate') ?? '';
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="mcp"');
    expect(challenge).toContain(`resource_metadata="${app.url}/.well-known/oauth-protected-resource"`);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('auth.invalid_key');

    const granted = await authorize(apiKey, 'mcp');
    expect((granted.scope ?? '').split(' ')).toContain('mcp');
    const served = await mcpToolsList(app.url, granted.access_token);
    expect(served.status).toBe(200);
    await served.arrayBuffer();
  }, 120_000);
});
