import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, Page } from 'playwright-core';
import { oauthServer } from '../../src/oauth/provider.js';
import { subjectOf } from '../../src/oauth/subject.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeWithChromium, launchChromium } from './chromium.js';

/**
 * OAuth 2.1 for remote MCP clients, end to end: the MCP SDK client's own OAuth support (OAuthClientProvider, the
 * transport's authProvider, UnauthorizedError and finishAuth) discovers the authorization server from /mcp's 401,
 * registers itself, and the authorization page (a console page) is driven in Chromium: sign in with the account's
 * key, approve. Then tool calls are charged to that account, a refresh rotates the refresh token, revoking the key
 * or disconnecting the client ends the tokens, PKCE and resource indicators are enforced, and tenancy holds.
 */

/** The redirect target of the test client: a loopback server that keeps each authorization code it receives. */
class Callback {
  private server!: Server;
  private waiting: Array<(params: URLSearchParams) => void> = [];
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>You can close this window.</p>');
      this.waiting.shift()?.(params);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
  }

  next(): Promise<URLSearchParams> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** An MCP client application's OAuth state, kept in memory as the SDK asks. */
class MemoryOAuthProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  constructor(
    private readonly redirect: string,
    private readonly name: string,
  ) {}
  get redirectUrl(): string {
    return this.redirect;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

let app: TestApp;
let browser: Browser;
const callback = new Callback();
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 40, seed: 11 });
  await callback.start();
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  await browser?.close();
  await callback.close();
  await app?.close();
});

const mcpUrl = () => new URL(`${app.url}/mcp`);

/** The whole first connection: 401, discovery, registration, the page in Chromium, token exchange, connect. */
async function connectWithOAuth(
  apiKey: string,
  name: string,
  opts: { approve?: boolean; page?: Page } = {},
): Promise<{ client: Client; provider: MemoryOAuthProvider; page: Page }> {
  const provider = new MemoryOAuthProvider(callback.url, name);
  const first = new Client({ name, version: '1.0.0' });
  await expect(first.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }))).rejects.toThrow(
    UnauthorizedError,
  );
  expect(provider.info?.client_id).toBeTruthy();
  expect(provider.authorizationUrl?.href.startsWith(`${app.url}/oauth/authorize?`)).toBe(true);
  expect(provider.authorizationUrl?.searchParams.get('code_challenge_method')).toBe('S256');
  expect(provider.authorizationUrl?.searchParams.get('resource')).toBe(`${app.url}/mcp`);

  const page = opts.page ?? (await (await browser.newContext()).newPage());
  const codeArrives = callback.next();
  const seen: string[] = [];
  page.on('response', (r) =>
    seen.push(`${r.status()} ${r.request().method()} ${r.url()} -> ${r.headers().location ?? ''}`),
  );
  page.on('console', (m) => seen.push(`console: ${m.text()}`));
  await page.goto(provider.authorizationUrl!.href);
  if (await page.locator('#oauth-sign-in').count()) {
    await expect(page.locator('#client-name').textContent()).resolves.toBe(name);
    await page.getByLabel('API key').fill(apiKey);
    await page.locator('#sign-in').click();
  }
  await page
    .locator('#oauth-consent, #sign-in-error, #oauth-message')
    .first()
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);
  if (!(await page.locator('#oauth-consent').count()))
    throw new Error(`no consent page at ${page.url()}: ${await page.content()}`);
  expect(await page.locator('#client-name').textContent()).toBe(name);
  expect(await page.locator('#scopes').textContent()).toContain('mcp');
  await page.locator(opts.approve === false ? '#deny' : '#approve').click();
  const params = await Promise.race([
    codeArrives,
    new Promise<never>((_, reject) =>
      setTimeout(async () => reject(new Error(`no redirect to the client: ${page.url()} ${seen.join('\n')}`)), 15_000),
    ),
  ]);
  if (opts.approve === false) {
    expect(params.get('error')).toBe('access_denied');
    return { client: first, provider, page };
  }
  const code = params.get('code');
  expect(code).toBeTruthy();
  const transport = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
  await transport.finishAuth(code!);
  expect(provider.saved?.access_token).toBeTruthy();
  expect(provider.saved?.refresh_token).toBeTruthy();
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, provider, page };
}

/**
 * The account's contact credits over REST. A reused keep-alive connection the server closed at that very moment
 * (its idle timeout, reached on a loaded machine) fails with ECONNRESET before any request was read; that one case
 * is sent again, as an HTTP client does for an idempotent GET.
 */
async function credits(key: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await app.request('GET', '/v1/credits', { key })).body.data.contact;
    } catch (e) {
      const code = ((e as Error).cause as { code?: string } | undefined)?.code;
      if (code !== 'ECONNRESET' || attempt > 0) throw e;
    }
  }
}

function mcpPost(token: string | undefined, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }) {
  return fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

function tokenRequest(params: Record<string, string>) {
  return fetch(`${app.url}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
}

async function register(name: string): Promise<string> {
  const res = await fetch(`${app.url}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [callback.url],
      grant_types: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_method: 'none',
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

const S256 = (v: string) => createHash('sha256').update(v).digest('base64url');

function authorizeUrl(clientId: string, extra: Record<string, string>): string {
  const u = new URL(`${app.url}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: callback.url,
    scope: 'mcp',
    state: 'st',
    ...extra,
  }))
    u.searchParams.set(k, v);
  return u.href;
}

/** The authorization endpoint's answer without following it: where it sends the browser. */
async function authorizeRedirect(url: string): Promise<URL> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBeGreaterThanOrEqual(300);
  expect(res.status).toBeLessThan(400);
  return new URL(res.headers.get('location') ?? '', app.url);
}

describeWithChromium('OAuth 2.1 sign-in for remote MCP clients', () => {
  it('an unauthenticated /mcp call answers 401 with the resource metadata URL; the metadata documents the server', async () => {
    const res = await mcpPost(undefined);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${app.url}/.well-known/oauth-protected-resource"`,
    );
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('auth.invalid_key');
    const bad = await mcpPost('not-a-token-0123456789abcdef');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toContain('error="invalid_token"');

    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const prm = (await (await fetch(`${app.url}${path}`)).json()) as Record<string, unknown>;
      expect(prm).toMatchObject({ resource: `${app.url}/mcp`, authorization_servers: [app.url] });
    }
    const as = (await (await fetch(`${app.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(as).toMatchObject({
      issuer: app.url,
      authorization_endpoint: `${app.url}/oauth/authorize`,
      token_endpoint: `${app.url}/oauth/token`,
      registration_endpoint: `${app.url}/oauth/register`,
      revocation_endpoint: `${app.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(as.response_types_supported).toEqual(['code']);
  });

  it('discovery, registration, sign-in and approval in Chromium, token exchange; tool calls charge the account', async () => {
    const a = await app.createAccount('pro', { name: 'Account A' });
    const b = await app.createAccount('pro', { name: 'Account B' });
    const { client, provider } = await connectWithOAuth(a.apiKey, 'Hosted Assistant');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('find_contacts');

    const [aBefore, bBefore] = [await credits(a.apiKey), await credits(b.apiKey)];
    const res = (await client.callTool({ name: 'find_contacts', arguments: { filter: {}, limit: 3 } })) as {
      isError?: boolean;
    };
    expect(res.isError).toBeFalsy();
    const [aAfter, bAfter] = [await credits(a.apiKey), await credits(b.apiKey)];
    expect(aAfter.day.used - aBefore.day.used).toBe(3);
    expect(bAfter).toEqual(bBefore);

    // The state store keeps the token's SHA-256 only, and no copy of it in the record.
    const bearer = provider.saved!.access_token;
    const now = new Date();
    expect(await app.services.state.oauthFind('AccessToken', bearer, now)).toBeUndefined();
    const stored = await app.services.state.oauthFind(
      'AccessToken',
      createHash('sha256').update(bearer).digest('hex'),
      now,
    );
    expect(stored?.accountId === null && stored.payload.accountId).toBeTruthy();
    expect(JSON.stringify(stored)).not.toContain(bearer);

    // The request log names the OAuth client where a key prefix would be (written every 250 ms).
    let logged: Array<{ route: string; client: string | null }> = [];
    for (let i = 0; i < 40 && !logged.some((e) => e.route === 'find_contacts'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      logged = (await app.request('GET', '/v1/requests', { key: a.apiKey })).body.data;
    }
    expect(logged.find((e) => e.route === 'find_contacts')?.client).toBe('Hosted Assistant');

    // The account's key is not what the client holds: its access token is not an API key on REST.
    expect((await app.request('GET', '/v1/credits', { key: provider.saved!.access_token })).status).toBe(401);
  });

  it('a refresh rotates the refresh token: the old one is refused afterwards, the new access token works', async () => {
    const a = await app.createAccount('pro', { name: 'Refresher' });
    const { client, provider } = await connectWithOAuth(a.apiKey, 'Refreshing Client');
    const old = provider.saved!;
    // The stored access token is no longer accepted: the SDK's auth() refreshes with the refresh token and retries.
    provider.saved = { ...old, access_token: 'expired-token-0000000000000000000000000000' };
    const again = new Client({ name: 'again', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    clients.push(again);
    await again.listTools();
    expect(provider.saved!.refresh_token).toBeTruthy();
    expect(provider.saved!.refresh_token).not.toBe(old.refresh_token);
    expect(provider.saved!.access_token).not.toBe(old.access_token);

    const reuse = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: old.refresh_token!,
      client_id: String(provider.info!.client_id),
    });
    expect(reuse.status).toBe(400);
    expect(((await reuse.json()) as { error: string }).error).toBe('invalid_grant');
    await client.close();
  });

  it('revoking the key ends its tokens at once; API keys keep working on /mcp', async () => {
    const a = await app.createAccount('pro', { name: 'Revoker' });
    const { provider } = await connectWithOAuth(a.apiKey, 'Revoked Client');
    const token = provider.saved!.access_token;
    expect((await mcpPost(token)).status).toBe(200);
    expect((await mcpPost(a.apiKey)).status).toBe(200);
    const keys = (await app.request('GET', '/v1/keys', { key: a.apiKey })).body.data as Array<{ id: string }>;
    expect((await app.request('DELETE', `/v1/keys/${keys[0]!.id}`, { key: a.apiKey })).status).toBe(200);
    expect((await mcpPost(token)).status).toBe(401);
    // Its refresh token gives nothing usable either: the grant's subject (account and key) no longer exists.
    const refreshed = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: String(provider.info!.client_id),
    });
    if (refreshed.status === 200) {
      const fresh = (await refreshed.json()) as { access_token: string };
      expect((await mcpPost(fresh.access_token)).status).toBe(401);
    } else expect(refreshed.status).toBe(400);
  });

  it('suspending the account refuses its token as it refuses the key', async () => {
    const a = await app.createAccount('pro', { name: 'Suspended' });
    const { provider } = await connectWithOAuth(a.apiKey, 'Suspended Client');
    await app.services.state.setAccountStatus(a.accountId, 'suspended');
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'find_contacts', arguments: { filter: {}, limit: 2 } },
    };
    const [viaToken, viaKey] = [await mcpPost(provider.saved!.access_token, call), await mcpPost(a.apiKey, call)];
    expect(viaToken.status).toBe(viaKey.status);
    const codeOf = async (res: Response) =>
      ((await res.json()) as { result?: { structuredContent?: { code?: string } } }).result?.structuredContent?.code;
    const [t, k] = [await codeOf(viaToken), await codeOf(viaKey)];
    expect(k).toBe('account.suspended');
    expect(t).toBe(k);
  });

  it('PKCE is required and must match: missing or plain is refused at authorization, a wrong verifier at the token endpoint', async () => {
    const clientId = await register('PKCE Client');
    const missing = await authorizeRedirect(authorizeUrl(clientId, {}));
    expect(missing.origin + missing.pathname).toBe(callback.url);
    expect(missing.searchParams.get('error')).toBe('invalid_request');
    expect(missing.searchParams.get('error_description')).toMatch(/PKCE/);
    const plain = await authorizeRedirect(
      authorizeUrl(clientId, { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }),
    );
    expect(plain.searchParams.get('error')).toBe('invalid_request');

    // A real code with a known challenge (the page in Chromium), then the wrong verifier.
    const a = await app.createAccount('pro', { name: 'PKCE' });
    const verifier = randomBytes(32).toString('base64url');
    const page = await (await browser.newContext()).newPage();
    const arrives = callback.next();
    await page.goto(authorizeUrl(clientId, { code_challenge: S256(verifier), code_challenge_method: 'S256' }));
    await page.getByLabel('API key').fill(a.apiKey);
    await page.locator('#sign-in').click();
    await page.locator('#approve').click();
    const code = (await arrives).get('code')!;
    const base = { grant_type: 'authorization_code', code, redirect_uri: callback.url, client_id: clientId };
    const wrong = await tokenRequest({ ...base, code_verifier: randomBytes(32).toString('base64url') });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { error: string }).error).toBe('invalid_grant');
    const none = await tokenRequest(base);
    expect(none.status).toBe(400);
  });

  it('a token for another resource is refused: the server issues none, and /mcp refuses one minted for another audience', async () => {
    const clientId = await register('Resource Client');
    const verifier = randomBytes(32).toString('base64url');
    const other = await authorizeRedirect(
      authorizeUrl(clientId, {
        code_challenge: S256(verifier),
        code_challenge_method: 'S256',
        resource: 'https://other.example/api',
      }),
    );
    expect(other.searchParams.get('error')).toBe('invalid_target');

    // A token of this very server, for the same account and key, whose audience is not /mcp.
    const a = await app.createAccount('pro', { name: 'Audience' });
    const key = (await app.services.state.listKeys(a.accountId))[0]!;
    const { provider } = await oauthServer(app.services);
    const ProviderAccessToken = provider.AccessToken as unknown as new (
      v: Record<string, unknown>,
    ) => { save(): Promise<string> };
    const foreign = await new ProviderAccessToken({
      accountId: subjectOf(a.accountId, key.id),
      clientId,
      grantId: 'grant-of-nothing',
      aud: 'https://other.example/api',
      scope: 'mcp',
      gty: 'authorization_code',
    }).save();
    expect((await mcpPost(foreign)).status).toBe(401);
  });

  it("tenancy: account B's token acts for B only; denying leaves the client without a token", async () => {
    const a = await app.createAccount('pro', { name: 'Tenant A' });
    const b = await app.createAccount('pro', { name: 'Tenant B' });
    const { client } = await connectWithOAuth(b.apiKey, 'Tenant Client');
    const [aBefore, bBefore] = [await credits(a.apiKey), await credits(b.apiKey)];
    await client.callTool({ name: 'find_contacts', arguments: { filter: {}, limit: 2 } });
    expect((await credits(b.apiKey)).day.used - bBefore.day.used).toBe(2);
    expect(await credits(a.apiKey)).toEqual(aBefore);
    // An export of A is not found through B's token.
    const started = await app.request('POST', '/v1/exports', { key: a.apiKey, body: { filter: {}, max_rows: 5 } });
    expect(started.status).toBeLessThan(300);
    const exportId = started.body.data.export_id as string;
    expect((await app.request('GET', `/v1/exports/${exportId}`, { key: a.apiKey })).status).toBe(200);
    const read = (await client.callTool({ name: 'get_export', arguments: { id: exportId } })) as {
      isError?: boolean;
      structuredContent?: { code?: string };
    };
    expect(read.isError).toBe(true);
    expect(JSON.stringify(read)).toContain('export.not_found');

    const denied = await connectWithOAuth(a.apiKey, 'Denied Client', { approve: false });
    expect(denied.provider.saved).toBeUndefined();
  });

  it('the Integrations page lists the connected client and disconnects it, which ends its tokens', async () => {
    const a = await app.createAccount('pro', { name: 'Integrator' });
    const { provider, page } = await connectWithOAuth(a.apiKey, 'Console Listed Client');
    const token = provider.saved!.access_token;
    expect((await mcpPost(token)).status).toBe(200);
    // The browser signed in on the authorization page: the console session is the same one.
    await page.goto(`${app.url}/app/integrations`);
    const row = page.locator('#oauth-clients li', { hasText: 'Console Listed Client' });
    await row.waitFor();
    await row.getByRole('button', { name: /Disconnect/ }).click();
    await page.locator('#oauth-clients-status', { hasText: 'Disconnected' }).waitFor();
    expect(await page.locator('#oauth-clients li', { hasText: 'Console Listed Client' }).count()).toBe(0);
    expect((await mcpPost(token)).status).toBe(401);
    const reuse = await tokenRequest({
      grant_type: 'refresh_token',
      refresh_token: provider.saved!.refresh_token!,
      client_id: String(provider.info!.client_id),
    });
    expect(reuse.status).toBe(400);
  });
});
