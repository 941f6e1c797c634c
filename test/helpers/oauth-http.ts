import { createHash, randomBytes } from 'node:crypto';

/**
 * A remote MCP client's OAuth steps over plain HTTP (fetch, no browser), for the e2e tests that drive the
 * authorization server and its console page: registration, PKCE, the page's sign-in and approval with a cookie jar,
 * the token endpoint, and a tools/list on /mcp with the access token. The Chromium run is
 * test/browser/oauth-mcp.test.ts.
 */
export const REDIRECT = 'http://127.0.0.1:9/callback';

/** The cookies a browser would keep between the page's requests. */
export class CookieJar {
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

/** A request with the jar's cookies, redirects not followed, its Set-Cookie kept. */
export async function go(jar: CookieJar, url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, {
    redirect: 'manual',
    ...init,
    headers: { Cookie: jar.header(), ...(init.headers as Record<string, string> | undefined) },
  });
  jar.take(res);
  return res;
}

/** A form POST from the page at `origin`. */
export const form = (origin: string, body: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { Origin: origin, 'Content-Type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body).toString(),
});

/** POST /oauth/register of a public client (no secret) redirecting to REDIRECT. */
export const registerClient = (url: string, name: string, extra: Record<string, unknown> = {}) =>
  fetch(`${url}/oauth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      ...extra,
    }),
  });

/** POST /oauth/token with form parameters. */
export const tokenRequest = (url: string, params: Record<string, string>) =>
  fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });

/** tools/list on `url`/mcp with a bearer token. */
export const mcpToolsList = (url: string, token: string) =>
  fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });

/** A PKCE pair (S256) and the /oauth/authorize query asking for `scope` on `resource`. */
export function authorizeRequest(clientId: string, scope: string, resource: string) {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    scope,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource,
  });
  return { verifier, query };
}

/**
 * On the authorization page `page` (a path) of `base`: signs in with the key, reads the form's CSRF token and
 * approves; answers the confirmation's response (a 303 back to the provider). Fails the test on a wrong step.
 */
export async function approveOnPage(jar: CookieJar, base: string, page: string, apiKey: string): Promise<Response> {
  expect((await go(jar, `${base}${page}/sign-in`, form(base, { api_key: apiKey }))).status).toBe(303);
  const html = await (await go(jar, `${base}${page}`)).text();
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  expect(csrf).toBeTruthy();
  const confirm = await go(jar, `${base}${page}/confirm`, form(base, { csrf_token: csrf!, decision: 'approve' }));
  expect(confirm.status).toBe(303);
  return confirm;
}
