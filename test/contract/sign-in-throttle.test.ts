import { ADDRESS_FAILURES, CREDENTIAL_FAILURES } from '../../src/face/sign-in-throttle.js';
import { expectError } from '../helpers/errors.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from '../state/store-factories.js';

/**
 * Issue 42 finding 4: the console sign-in had no throttle; the operator throttle counted per process (two processes
 * allowed 20 failures a minute) and after 10 failures from an address refused the correct token as well. One throttle
 * (src/face/sign-in-throttle.ts) now guards every sign-in, counts failures per address and credential prefix (and per
 * address), lets a right credential through, and is shared in Redis mode.
 */

const OPERATOR = 'operator-secret-token-0123456789abcdef';
const SECRET = 'sign-in-throttle-secret-0123456789abcdef';
const right = { Authorization: `Bearer ${OPERATOR}` };
const wrong = (i = 0) => ({ Authorization: `Bearer wrong-token-${String(i).padStart(4, '0')}-0123456789abcdef` });
const operatorCall = (app: TestApp, headers: Record<string, string>) =>
  app.request('GET', '/v1/admin/accounts/acc_x', { headers });
const consoleSignIn = (app: TestApp, apiKey: string) =>
  fetch(`${app.url}/app/api/session`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ api_key: apiKey }),
  }).then(async (r) => ({ status: r.status, headers: r.headers, body: (await r.json()) as any }));
/** A key-shaped secret that is nobody's key; `prefix` is its first 8 characters after `cds_`. */
const fakeKey = (prefix: string) => `cds_${prefix}${'x'.repeat(32)}`;

function cases(mode: 'sqlite' | 'redis', open: () => Promise<TestApp[]>, close: () => Promise<void>) {
  let apps: TestApp[];
  beforeAll(async () => {
    apps = await open();
  });
  afterAll(close);

  it(`${mode}: operator — wrong tokens lock their prefix out (429, Retry-After), the right token still passes`, async () => {
    const [app] = apps;
    for (let i = 0; i < CREDENTIAL_FAILURES; i++)
      expectError(await operatorCall(app!, wrong()), 401, 'auth.invalid_key');
    const refused = await operatorCall(app!, wrong());
    expectError(refused, 429, 'rate.limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The right token from the same address is not locked out by the wrong ones.
    expectError(await operatorCall(app!, right), 404, 'account.not_found');
    for (const a of apps) a.clock.advance(61_000);
    expectError(await operatorCall(app!, wrong()), 401, 'auth.invalid_key');
  });

  it(`${mode}: console sign-in — a key's prefix is locked after ${CREDENTIAL_FAILURES} failures, the right key passes`, async () => {
    const [app] = apps;
    const { apiKey } = await app!.createAccount('pro');
    for (let i = 0; i < CREDENTIAL_FAILURES; i++) {
      const res = await consoleSignIn(app!, fakeKey('Guessing'));
      expect([res.status, res.body.error?.code]).toEqual([401, 'auth.invalid_key']);
    }
    const refused = await consoleSignIn(app!, fakeKey('Guessing'));
    expect([refused.status, refused.body.error?.code]).toEqual([429, 'rate.limited']);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await consoleSignIn(app!, apiKey)).status).toBe(200);
    for (const a of apps) a.clock.advance(61_000);
  });

  it(`${mode}: many credentials from one address lock the address, except a credential known to be right`, async () => {
    const [app] = apps;
    const { apiKey } = await app!.createAccount('pro');
    expect((await consoleSignIn(app!, apiKey)).status).toBe(200); // known right from now on
    for (let i = 0; i < ADDRESS_FAILURES; i++) {
      const res = await consoleSignIn(app!, fakeKey(`Try${String(i).padStart(5, '0')}`));
      expect(res.status).toBe(401);
    }
    // A new credential is refused unchecked: guessing many credentials is throttled too.
    const next = await consoleSignIn(app!, fakeKey('NewGuess'));
    expect([next.status, next.body.error?.code]).toEqual([429, 'rate.limited']);
    expect(next.body.error.message).toMatch(/from this address/);
    // The key that signed in before still does.
    expect((await consoleSignIn(app!, apiKey)).status).toBe(200);
    for (const a of apps) a.clock.advance(61_000);
    expect((await consoleSignIn(app!, fakeKey('NewGuess'))).status).toBe(401);
  });
}

describe('one sign-in throttle (SQLite state, one process)', () => {
  let app: TestApp;
  cases(
    'sqlite',
    async () => {
      app = await startTestApp({ contacts: 50, companies: 10, env: { CDS_ADMIN_TOKEN: OPERATOR } });
      return [app];
    },
    async () => app?.close(),
  );
});

describeRedis('one sign-in throttle (Redis state, shared by two processes)', () => {
  const prefix = testPrefix();
  const apps: TestApp[] = [];
  const env = {
    CDS_STATE: 'redis',
    REDIS_URL,
    CDS_REDIS_PREFIX: prefix,
    CDS_SECRET: SECRET,
    CDS_ADMIN_TOKEN: OPERATOR,
  };
  cases(
    'redis',
    async () => {
      apps.push(await startTestApp({ contacts: 50, companies: 10, env }));
      apps.push(await startTestApp({ contacts: 50, companies: 10, env }));
      return apps;
    },
    async () => {
      for (const a of apps) await a.close();
      await dropPrefix(REDIS_URL, prefix);
    },
  );

  it('redis: failures on one process count on the other (not 10 per process)', async () => {
    const [a, b] = apps;
    for (const x of apps) x.clock.advance(61_000);
    const half = CREDENTIAL_FAILURES / 2;
    for (let i = 0; i < half; i++) expectError(await operatorCall(a!, wrong(7)), 401, 'auth.invalid_key');
    for (let i = 0; i < half; i++) expectError(await operatorCall(b!, wrong(7)), 401, 'auth.invalid_key');
    expectError(await operatorCall(a!, wrong(7)), 429, 'rate.limited');
    expectError(await operatorCall(b!, wrong(7)), 429, 'rate.limited');
    expectError(await operatorCall(b!, right), 404, 'account.not_found');
  });
});
