import { createHash } from 'node:crypto';
import { consoleSignIn } from '../helpers/console-client.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The web console's security and its use of the operations, over real HTTP: sign-in and the session cookie's flags,
 * CSRF, tenancy, the end of a session (sign-out, a revoked key, expiry), and answers equal to the API's.
 */
const redisUrl = process.env.REDIS_URL;
consoleSuite('SQLite state', {});
if (redisUrl) {
  consoleSuite('Redis state', {
    CDS_STATE: 'redis',
    REDIS_URL: redisUrl,
    CDS_REDIS_PREFIX: `cds-console-${process.pid}-${Date.now()}:`,
    CDS_SECRET: 'console-test-secret-0123456789-abcdefghij',
  });
} else {
  process.stdout.write('SKIPPED web console tests on Redis state: REDIS_URL is not set\n');
}

function consoleSuite(store: string, env: Record<string, string>): void {
  describe(`web console (/app) on ${store}: sessions, CSRF, tenancy`, () => {
    let app: TestApp;
    let a: { accountId: string; apiKey: string };
    let b: { accountId: string; apiKey: string };

    beforeAll(async () => {
      app = await startTestApp({ contacts: 600, companies: 80, env });
      a = await app.createAccount('pro', { name: 'A' });
      b = await app.createAccount('pro', { name: 'B' });
    });
    afterAll(async () => {
      await app.close();
    });

    it('redirects a page without a session to sign-in, and refuses the JSON routes with 401', async () => {
      for (const path of ['/app', '/app/integrations', '/app/audience', '/app/exports', '/app/activity']) {
        const res = await fetch(`${app.url}${path}`, { redirect: 'manual' });
        expect(res.status).toBe(302);
        expect(res.headers.get('location')).toBe('/app/sign-in');
      }
      const signIn = await fetch(`${app.url}/app/sign-in`);
      expect(signIn.status).toBe(200);
      expect(await signIn.text()).toContain('id="api-key"');
      const api = await app.request('GET', '/app/api/session');
      expect(api.status).toBe(401);
      expect(api.body.error.code).toBe('auth.invalid_key');
      const op = await app.request('GET', '/app/api/op/credits.get');
      expect(op.status).toBe(401);
      // A forged or malformed cookie is no session either.
      const forged = await fetch(`${app.url}/app`, {
        headers: { Cookie: `cds_session=${'x'.repeat(43)}` },
        redirect: 'manual',
      });
      expect(forged.status).toBe(302);
    });

    it('sets an HttpOnly, SameSite=Strict session cookie scoped to /app with an expiry; Secure over https', async () => {
      const c = await consoleSignIn(app, a.apiKey);
      const flags = c.setCookie.split(';').map((f) => f.trim());
      expect(flags[0]).toMatch(/^cds_session=[A-Za-z0-9_-]{43}$/);
      expect(flags).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/app']));
      const maxAge = Number(flags.find((f) => f.startsWith('Max-Age='))?.slice(8));
      expect(maxAge).toBeGreaterThan(12 * 3600 - 5);
      expect(maxAge).toBeLessThanOrEqual(12 * 3600);
      // Plain http on a loopback address: no Secure flag (the browser would drop the cookie).
      expect(flags).not.toContain('Secure');
      // The key is not in the answer, the token only in the cookie, and the store keeps only the token's SHA-256.
      const signIn = await fetch(`${app.url}/app/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ api_key: a.apiKey }),
      });
      const text = await signIn.text();
      expect(text).not.toContain(a.apiKey);
      const token = /cds_session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1] ?? '';
      expect(text).not.toContain(token);
      const hash = createHash('sha256').update(token).digest('hex');
      expect((await app.services.state.getSession(hash, app.clock.now()))?.accountId).toBe(a.accountId);
      expect(await app.services.state.getSession(token, app.clock.now())).toBeUndefined();

      const publicUrl = app.services.config.publicUrl;
      app.services.config.publicUrl = 'https://contacts.example.org';
      try {
        // Over https the cookie is `__Host-` prefixed (Secure, Path=/, no Domain): only this host can set it.
        const secure = await fetch(`${app.url}/app/api/session`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ api_key: a.apiKey }),
        });
        const [session, ...others] = secure.headers.getSetCookie();
        const secureFlags = session!.split(';').map((f) => f.trim());
        expect(secureFlags[0]).toMatch(/^__Host-cds_session=[A-Za-z0-9_-]{43}$/);
        expect(secureFlags).toEqual(expect.arrayContaining(['Secure', 'Path=/', 'HttpOnly', 'SameSite=Strict']));
        expect(secureFlags.some((f) => /^Domain=/i.test(f))).toBe(false);
        // An unprefixed session cookie of an earlier build is cleared.
        expect(others).toEqual([expect.stringMatching(/^cds_session=;.*Path=\/app.*Max-Age=0/)]);
        const secureToken = secureFlags[0]!.slice('__Host-cds_session='.length);
        const read = (cookie: string) => fetch(`${app.url}/app/api/session`, { headers: { Cookie: cookie } });
        expect((await read(`__Host-cds_session=${secureToken}`)).status).toBe(200);
        // The unprefixed name (which a sibling subdomain or a plain-http page could plant) is not read over https.
        expect((await read(`cds_session=${secureToken}`)).status).toBe(401);
      } finally {
        app.services.config.publicUrl = publicUrl;
      }
    });

    it('refuses a wrong key and a sign-in from another origin', async () => {
      const wrong = await app.request('POST', '/app/api/session', { body: { api_key: 'cds_nope' } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('set-cookie')).toBeNull();
      const cross = await app.request('POST', '/app/api/session', {
        body: { api_key: a.apiKey },
        headers: { Origin: 'https://evil.example' },
      });
      expect(cross.status).toBe(403);
      expect(cross.body.error.code).toBe('request.origin_refused');
      expect(cross.headers.get('set-cookie')).toBeNull();
      // Behind a proxy that rewrites Host, the page's origin is the service's public URL: accepted.
      const publicUrl = app.services.config.publicUrl;
      app.services.config.publicUrl = 'https://contacts.example.org';
      try {
        const proxied = await app.request('POST', '/app/api/session', {
          body: { api_key: a.apiKey },
          headers: { Origin: 'https://contacts.example.org' },
        });
        expect(proxied.status).toBe(200);
      } finally {
        app.services.config.publicUrl = publicUrl;
      }
    });

    it('requires the CSRF token on every state-changing request', async () => {
      const c = await consoleSignIn(app, a.apiKey);
      const filter = { countries: ['us'] };
      for (const csrf of [null, '', 'x'.repeat(43), `${c.csrf.slice(0, -1)}${c.csrf.endsWith('A') ? 'B' : 'A'}`]) {
        const res = await c.call('POST', '/app/api/op/contacts.count', { body: { filter }, csrf });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('request.origin_refused');
      }
      const noCsrfRevoke = await c.call('DELETE', '/app/api/op/keys.revoke?id=key_x', { csrf: null });
      expect(noCsrfRevoke.status).toBe(403);
      const noCsrfOut = await c.call('DELETE', '/app/api/session', { csrf: null });
      expect(noCsrfOut.status).toBe(403);
      // Another session's token is no good either.
      const other = await consoleSignIn(app, a.apiKey);
      expect((await c.call('POST', '/app/api/op/contacts.count', { body: { filter }, csrf: other.csrf })).status).toBe(
        403,
      );
      // With it: the same answer as the API.
      const ok = await c.call('POST', '/app/api/op/contacts.count', { body: { filter } });
      const rest = await app.request('POST', '/v1/contacts/count', { key: a.apiKey, body: { filter } });
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual(rest.body.data);
      // A GET needs none, and only the operations the console uses are reachable, each by its own method.
      expect((await c.call('GET', '/app/api/op/credits.get', { csrf: null })).status).toBe(200);
      expect((await c.call('GET', '/app/api/op/admin.accounts.get?id=x')).status).toBe(404);
      expect((await c.call('GET', '/app/api/op/contacts.count')).status).toBe(404);
    });

    it("answers 404 for another account's ids, and lists only the account's own", async () => {
      const rest = await app.request('POST', '/v1/exports', {
        key: b.apiKey,
        body: { filter: { countries: ['us'] }, max_rows: 3 },
      });
      expect(rest.status).toBe(202);
      const bExport = rest.body.data.export_id as string;
      const bKey = (await app.request('GET', '/v1/keys', { key: b.apiKey })).body.data[0].id as string;
      const c = await consoleSignIn(app, a.apiKey);
      const get = await c.call('GET', `/app/api/op/exports.get?id=${bExport}`);
      expect(get.status).toBe(404);
      expect(get.body.error.code).toBe('export.not_found');
      const revoke = await c.call('DELETE', `/app/api/op/keys.revoke?id=${bKey}`);
      expect(revoke.status).toBe(404);
      expect(revoke.body.error.code).toBe('key.not_found');
      expect((await app.request('GET', '/v1/credits', { key: b.apiKey })).status).toBe(200);
      const list = await c.call('GET', '/app/api/exports');
      expect(list.status).toBe(200);
      expect(list.body.data.map((x: { export_id: string }) => x.export_id)).not.toContain(bExport);
      // B's own console lists it.
      const cb = await consoleSignIn(app, b.apiKey);
      expect(
        (await cb.call('GET', '/app/api/exports')).body.data.map((x: { export_id: string }) => x.export_id),
      ).toContain(bExport);
    });

    it('ends the session on sign-out, on expiry, and when its key is revoked elsewhere', async () => {
      const c = await consoleSignIn(app, a.apiKey);
      const session = await c.call('GET', '/app/api/session');
      expect(session.status).toBe(200);
      // The key's requests in flight (the spec's 2): the console's pages never send more at once.
      expect(session.body.in_flight_limit).toBe(2);
      const out = await c.call('DELETE', '/app/api/session');
      expect(out.status).toBe(200);
      expect(out.headers.get('set-cookie')).toMatch(/cds_session=;.*Max-Age=0/);
      expect((await c.call('GET', '/app/api/session')).status).toBe(401);
      expect((await c.call('GET', '/app', { csrf: null })).status).toBe(302);

      const d = await consoleSignIn(app, a.apiKey);
      app.clock.advance(12 * 3_600_000 + 1000);
      try {
        expect((await d.call('GET', '/app/api/session')).status).toBe(401);
      } finally {
        app.clock.advance(-(12 * 3_600_000 + 1000));
      }

      const fresh = await app.createAccount('pro', { name: 'C' });
      const e = await consoleSignIn(app, fresh.apiKey);
      const keyId = (await app.request('GET', '/v1/keys', { key: fresh.apiKey })).body.data[0].id;
      expect((await app.request('DELETE', `/v1/keys/${keyId}`, { key: fresh.apiKey })).status).toBe(200);
      expect((await e.call('GET', '/app/api/session')).status).toBe(401);
    });

    it('refuses spending calls of a suspended account, as the API does, and keeps its reads', async () => {
      const acct = await app.createAccount('pro', { name: 'S' });
      const c = await consoleSignIn(app, acct.apiKey);
      await app.services.state.setAccountStatus(acct.accountId, 'suspended');
      const search = await c.call('POST', '/app/api/op/contacts.search', { body: { filter: {}, limit: 1 } });
      const rest = await app.request('POST', '/v1/contacts/search', {
        key: acct.apiKey,
        body: { filter: {}, limit: 1 },
      });
      expect(search.status).toBe(403);
      expect(search.body.error.code).toBe('account.suspended');
      expect(rest.body.error.code).toBe(search.body.error.code);
      const credits = await c.call('GET', '/app/api/op/credits.get');
      expect(credits.status).toBe(200);
      expect(credits.headers.get('cache-control')).toBe('no-store');
    });

    it("replaces the browser's session when it signs in again", async () => {
      const first = await consoleSignIn(app, a.apiKey);
      const res = await fetch(`${app.url}/app/api/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: first.cookie },
        body: JSON.stringify({ api_key: a.apiKey }),
      });
      expect(res.status).toBe(200);
      const token = /cds_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
      expect(token).toBeTruthy();
      expect(token).not.toBe(first.token);
      expect((await first.call('GET', '/app/api/session')).status).toBe(401);
    });

    it('keeps a session that revoked its own key only to create the next one, then moves it to that key', async () => {
      const acct = await app.createAccount('pro', { name: 'D' });
      const c = await consoleSignIn(app, acct.apiKey);
      const keyId = (await c.call('GET', '/app/api/op/keys.list')).body.data[0].id;
      const revoked = await c.call('DELETE', `/app/api/op/keys.revoke?id=${keyId}`);
      expect(revoked.status).toBe(200);
      expect((await app.request('GET', '/v1/credits', { key: acct.apiKey })).status).toBe(401);
      const count = await c.call('POST', '/app/api/op/contacts.count', { body: { filter: {} } });
      expect(count.status).toBe(401);
      expect((await c.call('GET', '/app/api/op/credits.get')).status).toBe(200);
      // Lists that hand out signed links (downloads, upload pages) wait for the next key too.
      expect((await c.call('GET', '/app/api/exports')).status).toBe(401);
      expect((await c.call('GET', '/app/api/activity')).status).toBe(401);
      const created = await c.call('POST', '/app/api/op/keys.create', { body: { name: 'next' } });
      expect(created.status).toBe(201);
      const secret = created.body.data.api_key as string;
      expect((await app.request('GET', '/v1/credits', { key: secret })).status).toBe(200);
      expect((await c.call('GET', '/app/api/session')).body.key_id).toBe(created.body.data.id);
      expect((await c.call('POST', '/app/api/op/contacts.count', { body: { filter: {} } })).status).toBe(200);
      expect((await c.call('GET', '/app/api/activity')).status).toBe(200);
      // A second key is refused by the one-active-key rule, as over the API.
      const second = await c.call('POST', '/app/api/op/keys.create', { body: {} });
      expect(second.status).toBe(409);
      expect(second.body.error.code).toBe('key.limit_reached');
    });

    it('serves pages with a strict CSP and no inline script or style, and only files of web/', async () => {
      const c = await consoleSignIn(app, a.apiKey);
      const page = await c.call('GET', '/app/audience', { csrf: null });
      expect(page.status).toBe(200);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      const html = page.body as string;
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\sstyle=/);
      expect(html).not.toMatch(/https?:\/\//);
      expect(html).not.toContain(a.apiKey);
      const asset = await fetch(`${app.url}/app/assets/app.js`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toContain('text/javascript');
      for (const bad of ['/app/assets/../package.json', '/app/assets/%2e%2e/package.json', '/app/assets/x.json']) {
        expect((await fetch(`${app.url}${bad}`)).status).toBe(404);
      }
    });

    it('charts what the console spends per day and line, as the operations charge it', async () => {
      const acct = await app.createAccount('pro', { name: 'E' });
      const c = await consoleSignIn(app, acct.apiKey);
      const search = await c.call('POST', '/app/api/op/contacts.search', {
        body: { filter: { countries: ['us'] }, limit: 4 },
      });
      expect(search.status).toBe(200);
      const rows = search.body.data.length as number;
      expect(search.body.quota.contact_credits_used).toBe(rows);
      // Charged once the answer is written out: the record follows within moments.
      const today = app.clock.now().toISOString().slice(0, 10);
      let usage = await c.call('GET', '/app/api/usage');
      for (let i = 0; i < 40 && usage.body.data.records.length === 0; i++) {
        await new Promise((r) => setTimeout(r, 50));
        usage = await c.call('GET', '/app/api/usage');
      }
      expect(usage.status).toBe(200);
      const { days, lines, records } = usage.body.data;
      expect(days).toHaveLength(30);
      expect(days.at(-1)).toBe(today);
      expect(lines).toEqual(['search', 'export', 'enrich', 'lookups', 'signals']);
      expect(records).toEqual([{ day: today, kind: 'contact', line: 'search', credits: rows }]);
      // A family B colleague lookup with the same key is charged to the lookups line.
      const lookup = await app.request('POST', '/api/v1/contacts/lookup/colleagues', {
        key: acct.apiKey,
        keyHeader: 'x-api-key',
        body: { company_domain: search.body.data[0].company_domain, limit: 2 },
      });
      expect(lookup.status).toBe(200);
      const looked = lookup.body.returned as number;
      expect(looked).toBeGreaterThan(0);
      let after = records;
      for (let i = 0; i < 40 && after.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 50));
        after = (await c.call('GET', '/app/api/usage')).body.data.records;
      }
      expect(after).toEqual([
        { day: today, kind: 'contact', line: 'lookups', credits: looked },
        { day: today, kind: 'contact', line: 'search', credits: rows },
      ]);
    });
  });
}

describe('web console (/app): limits shared with the API', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      contacts: 300,
      companies: 50,
      env: { CDS_RATE_PER_MINUTE: '5', CDS_RATE_CONCURRENT: '3' },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it("counts console calls against the key's rate limits, with the API's headers and 429", async () => {
    const acct = await app.createAccount('pro');
    const c = await consoleSignIn(app, acct.apiKey);
    for (let i = 0; i < 3; i++)
      expect((await app.request('GET', '/v1/credits', { key: acct.apiKey })).status).toBe(200);
    const fourth = await c.call('GET', '/app/api/op/credits.get');
    expect(fourth.status).toBe(200);
    expect(fourth.headers.get('ratelimit')).toMatch(/r=1;/);
    expect((await c.call('GET', '/app/api/exports')).status).toBe(200);
    const refused = await c.call('POST', '/app/api/op/contacts.count', { body: { filter: {} } });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('rate.limited');
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await app.request('GET', '/v1/credits', { key: acct.apiKey })).status).toBe(429);
    // The session tells the console the key's in-flight limit as this server applies it.
    expect((await c.call('GET', '/app/api/session')).body.in_flight_limit).toBe(3);
  });
});
