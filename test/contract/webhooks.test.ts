import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, sealSecret } from '../../src/jobs/webhooks/secrets.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { headersOf, type Received, type Receiver, signedWith, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Webhooks over real HTTP: the app delivers to a real receiver on loopback (allowed by CDS_WEBHOOK_ALLOW_HOSTS), and
 * every signature is checked with the `standardwebhooks` package (or, where the test moves the clock past the
 * package's 5-minute timestamp window, with a plain HMAC written in the test).
 */
let app: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({
    // The package checks the timestamp against the real time: the app's clock starts at it.
    now: new Date().toISOString(),
    env: { CDS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', CDS_WEBHOOK_TIMEOUT_MS: '400' },
  });
});
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const SCHEDULE_MS = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 504e5, 72e6, 864e5];

async function endpoint(key: string, events: string[], url = receiver.url) {
  const res = await app.request('POST', '/v1/webhooks', { key, body: { url, events } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

/** The requests received from the index `from` on, once `count` of them came. */
async function next(count: number, from: number): Promise<Received[]> {
  await receiver.waitFor(from + count);
  return receiver.received.slice(from, from + count);
}

async function until<T>(fn: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((res) => setTimeout(res, 25));
  }
}

/** The endpoint's delivery log once it holds `count` attempts (the outcome is recorded after the answer came). */
async function logOf(key: string, id: string, count: number): Promise<any[]> {
  let log: any[] = [];
  for (let i = 0; i < 400 && log.length < count; i++) {
    log = (await app.request('GET', `/v1/webhooks/${id}/deliveries`, { key })).body.data;
    if (log.length < count) await new Promise((res) => setTimeout(res, 25));
  }
  expect(log.length).toBeGreaterThanOrEqual(count);
  return log;
}

function verify(secret: string, r: Received): any {
  return new Webhook(secret).verify(r.body, headersOf(r));
}

describe('webhook endpoints', () => {
  it('creates, reads, changes and deletes an endpoint; the secret is shown once', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const created = await app.request('POST', '/v1/webhooks', {
      key: apiKey,
      body: { url: receiver.url, events: ['export.completed'], description: 'CRM' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    expect(created.body.data).toMatchObject({ url: receiver.url, events: ['export.completed'], enabled: true });
    const id = created.body.data.id;
    const got = await app.request('GET', `/v1/webhooks/${id}`, { key: apiKey });
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    expect(got.body.data.health).toBe('new');
    const patched = await app.request('PATCH', `/v1/webhooks/${id}`, {
      key: apiKey,
      body: { events: ['export.completed', 'alert.leads'], description: null },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ events: ['export.completed', 'alert.leads'], description: null });
    const list = await app.request('GET', '/v1/webhooks', { key: apiKey });
    expect(list.body.data.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await app.request('DELETE', `/v1/webhooks/${id}`, { key: apiKey })).body.data).toEqual({
      id,
      deleted: true,
    });
    expect((await app.request('GET', `/v1/webhooks/${id}`, { key: apiKey })).status).toBe(404);
  });

  it("refuses unknown members, unknown events and another account's endpoint (404)", async () => {
    const a = await app.createAccount('unlimited');
    const b = await app.createAccount('unlimited');
    const bad = await app.request('POST', '/v1/webhooks', {
      key: a.apiKey,
      body: { url: receiver.url, events: ['export.completed'], secret: 'mine' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('request.invalid');
    const unknownEvent = await app.request('POST', '/v1/webhooks', {
      key: a.apiKey,
      body: { url: receiver.url, events: ['export.started'] },
    });
    expect(unknownEvent.status).toBe(400);
    expect(unknownEvent.body.error.code).toBe('request.invalid');
    const { id } = await endpoint(a.apiKey, ['export.completed']);
    for (const [method, path, body] of [
      ['GET', `/v1/webhooks/${id}`, undefined],
      ['PATCH', `/v1/webhooks/${id}`, { enabled: false }],
      ['DELETE', `/v1/webhooks/${id}`, undefined],
      ['POST', `/v1/webhooks/${id}/rotate-secret`, undefined],
      ['POST', `/v1/webhooks/${id}/test`, undefined],
      ['GET', `/v1/webhooks/${id}/deliveries`, undefined],
    ] as const) {
      const res = await app.request(method, path, { key: b.apiKey, ...(body ? { body } : {}) });
      expect({ path, method, status: res.status, code: res.body.error?.code }).toEqual({
        path,
        method,
        status: 404,
        code: 'webhook.not_found',
      });
    }
    expect((await app.request('GET', `/v1/webhooks/${id}`, { key: a.apiKey })).status).toBe(200);
  });

  it('holds at most 10 endpoints an account', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    for (let i = 0; i < 10; i++) await endpoint(apiKey, ['key.revoked']);
    const res = await app.request('POST', '/v1/webhooks', {
      key: apiKey,
      body: { url: receiver.url, events: ['key.revoked'] },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('webhooks.limit_reached');
  });

  // Every spelling the upload page's sheet-link guard refuses (test/unit/upload-address-guard.test.ts), as a host.
  const refusedHosts = [
    '127.0.0.2',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '[::1]',
    '[::]',
    '[fe80::1]',
    '[fd00:ec2::254]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[::ffff:169.254.169.254]',
    '[64:ff9b::10.0.0.1]',
    '[::7f00:1]',
    '[::127.0.0.1]',
    '[::ffff:0:7f00:1]',
    '[64:ff9b:1::a00:1]',
    '[2002:7f00:1::1]',
    '[2001:0:4136:e378:8000:63bf:3fff:fdd2]',
    '2130706434',
    '0x7f000002',
    'localhost',
  ];
  it.each(refusedHosts)('refuses https://%s/ (400 webhook.url_refused)', async (host) => {
    const { apiKey } = await app.createAccount('unlimited');
    const res = await app.request('POST', '/v1/webhooks', {
      key: apiKey,
      body: { url: `https://${host}/hook`, events: ['export.completed'] },
    });
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code: 'webhook.url_refused' });
  });

  it.each([
    'http://hooks.example.com/x',
    'ftp://hooks.example.com/x',
    'https://user:pw@hooks.example.com/x',
    'not a url',
  ])('refuses %s', async (url) => {
    const { apiKey } = await app.createAccount('unlimited');
    const res = await app.request('POST', '/v1/webhooks', { key: apiKey, body: { url, events: ['export.completed'] } });
    expect({ status: res.status, code: res.body.error?.code }).toEqual({ status: 400, code: 'webhook.url_refused' });
  });
});

describe('webhook deliveries', () => {
  it('delivers export.completed after the export, signed, with the documented body and a download link', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const { secret } = await endpoint(apiKey, ['export.completed', 'export.failed']);
    const from = receiver.received.length;
    const started = await app.request('POST', '/v1/exports', {
      key: apiKey,
      body: { filter: { countries: ['us'] }, max_rows: 5 },
    });
    expect(started.status).toBe(202);
    const exportId = started.body.data.export_id;
    const [r] = await next(1, from);
    const body = verify(secret, r!);
    expect(body).toMatchObject({
      type: 'export.completed',
      data: { export_id: exportId, family: 'A', rows_exported: 5 },
    });
    expect(body.id).toBe(r!.headers['webhook-id']);
    expect(body.id).toMatch(/^evt_/);
    // The polling route agrees, and the link in the body downloads the same file.
    const polled = await app.request('GET', `/v1/exports/${exportId}`, { key: apiKey });
    expect(polled.body.data.status).toBe('completed');
    expect(body.data.links.self).toBe(`${app.url}/v1/exports/${exportId}`);
    const file = await fetch(body.data.download_url);
    expect(file.status).toBe(200);
    expect((await file.text()).trim().split('\n')).toHaveLength(6);
    // Nothing beyond ids, counts and links: no contact row in the body.
    expect(Object.keys(body.data).sort()).toEqual(
      ['download_url', 'expires_at', 'export_id', 'family', 'links', 'rows_exported'].sort(),
    );
  });

  it('delivers key.revoked to the account that revoked it', async () => {
    const { accountId, apiKey } = await app.createAccount('unlimited');
    const { secret } = await endpoint(apiKey, ['key.revoked']);
    const [key] = await app.services.state.listKeys(accountId);
    const from = receiver.received.length;
    const res = await app.request('DELETE', `/v1/keys/${key!.id}`, { key: apiKey });
    expect(res.status).toBe(200);
    const [r] = await next(1, from);
    expect(verify(secret, r!)).toMatchObject({
      type: 'key.revoked',
      data: { key_id: key!.id, prefix: key!.prefix, revoked_at: res.body.data.revoked_at },
    });
  });

  it('a receiver failing twice then answering gets the same webhook-id three times; the log shows 3 attempts', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const { id, secret } = await endpoint(apiKey, ['export.completed']);
    const from = receiver.received.length;
    receiver.behaviour = (n) => (n === from || n === from + 1 ? 503 : 204);
    try {
      const ping = await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
      expect(ping.status).toBe(202);
      await next(1, from);
      app.clock.set((await logOf(apiKey, id, 1))[0].next_retry_at);
      await next(2, from);
      app.clock.set((await logOf(apiKey, id, 2))[0].next_retry_at);
      const got = await next(3, from);
      const ids = got.map((r) => r.headers['webhook-id']);
      expect(ids).toEqual([ping.body.data.event_id, ping.body.data.event_id, ping.body.data.event_id]);
      for (const r of got) expect(signedWith(secret, r)).toBe(true);
      const log = await logOf(apiKey, id, 3);
      expect(log.map((a) => [a.attempt, a.ok, a.status_code])).toEqual([
        [3, true, 204],
        [2, false, 503],
        [1, false, 503],
      ]);
      expect(log.every((a) => a.delivery_id === ping.body.data.delivery_id)).toBe(true);
      expect(Date.parse(log[2].next_retry_at) - Date.parse(log[2].at)).toBe(5_000);
      expect(Date.parse(log[1].next_retry_at) - Date.parse(log[1].at)).toBe(300_000);
      expect((await app.request('GET', `/v1/webhooks/${id}`, { key: apiKey })).body.data.health).toBe('healthy');
    } finally {
      receiver.behaviour = () => 204;
      app.clock.set(new Date());
    }
  });

  it('a receiver that never answers is retried on the schedule, then the delivery is marked failed', async () => {
    const silent = await startReceiver(() => 'hang');
    try {
      const { apiKey } = await app.createAccount('unlimited');
      const { id } = await endpoint(apiKey, ['export.completed'], silent.url);
      await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
      for (let attempt = 1; attempt <= 10; attempt++) {
        await silent.waitFor(attempt);
        const last = (await logOf(apiKey, id, attempt))[0];
        expect(last.attempt).toBe(attempt);
        expect(last.error).toMatch(/no answer within 400 ms/);
        if (attempt < 10) {
          expect(Date.parse(last.next_retry_at) - Date.parse(last.at)).toBe(SCHEDULE_MS[attempt - 1]);
          // Not before its time: nothing more comes while the clock stands still.
          await new Promise((res) => setTimeout(res, 300));
          expect(silent.received).toHaveLength(attempt);
          app.clock.set(last.next_retry_at);
        } else expect(last.next_retry_at).toBeNull();
      }
      await new Promise((res) => setTimeout(res, 500));
      expect(silent.received).toHaveLength(10);
      expect(new Set(silent.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      const failing = (await app.request('GET', `/v1/webhooks/${id}`, { key: apiKey })).body.data;
      expect(failing).toMatchObject({ enabled: true, health: 'failing' });
      // Failing for 5 days since the first failure: the next failed attempt disables the endpoint, and GET says why.
      app.clock.set(Date.parse(failing.failing_since) + 5 * 86_400_000);
      await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
      await silent.waitFor(11);
      const disabled = await until(async () => {
        const e = (await app.request('GET', `/v1/webhooks/${id}`, { key: apiKey })).body.data;
        return e.enabled ? undefined : e;
      });
      expect(disabled).toMatchObject({ health: 'disabled', failing_since: failing.failing_since });
      expect(disabled.disabled_reason).toMatch(/failed since .*5 days.*no answer within 400 ms/);
      // Its deliveries now fail without being sent; re-enabling starts over.
      await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
      const skipped = (await logOf(apiKey, id, 12))[0];
      expect(skipped.error).toMatch(/not sent: the endpoint is disabled/);
      expect(silent.received).toHaveLength(11);
      const back = await app.request('PATCH', `/v1/webhooks/${id}`, { key: apiKey, body: { enabled: true } });
      expect(back.body.data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    } finally {
      await silent.close();
      app.clock.set(new Date());
    }
  });

  it('after a rotation, both secrets sign for 24 hours, then only the new one', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const { id, secret: old } = await endpoint(apiKey, ['export.completed']);
    const rotated = await app.request('POST', `/v1/webhooks/${id}/rotate-secret`, { key: apiKey });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.data.secret as string;
    expect(fresh).not.toBe(old);
    const from = receiver.received.length;
    await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
    const [r] = await next(1, from);
    expect(verify(old, r!)).toMatchObject({ type: 'ping', data: { webhook_id: id } });
    expect(verify(fresh, r!)).toMatchObject({ type: 'ping' });
    app.clock.advance(24 * 3_600_000 + 1000);
    try {
      await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
      const [late] = await next(1, from + 1);
      expect(signedWith(fresh, late!)).toBe(true);
      expect(signedWith(old, late!)).toBe(false);
    } finally {
      app.clock.set(new Date());
    }
  });

  it('follows no redirect, fails at once on a 4xx, reads at most 4 KB of an answer', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const odd = await startReceiver((n) => [302, 404, 200][n] ?? 204);
    try {
      const { id } = await endpoint(apiKey, ['export.completed'], odd.url);
      for (let i = 0; i < 3; i++) await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
      await odd.waitFor(3);
      const log = (await logOf(apiKey, id, 3)).reverse();
      expect(log.map((a) => [a.status_code, a.ok, a.next_retry_at])).toEqual([
        [302, false, null],
        [404, false, null],
        [200, true, null],
      ]);
      expect(log[0].error).toBe('redirects are not followed');
      await new Promise((res) => setTimeout(res, 600));
      expect(odd.received).toHaveLength(3);
    } finally {
      await odd.close();
    }
  });

  it('checks the address when it connects: a name resolving to loopback is refused on every attempt', async () => {
    const { accountId, apiKey } = await app.createAccount('unlimited');
    const port = new URL(receiver.url).port;
    // Saved as a stored endpoint whose name now resolves to loopback (the create route refuses it outright).
    const e = await app.services.state.createWebhook(
      {
        accountId,
        url: `https://localhost:${port}/hook`,
        description: null,
        events: ['export.completed'],
        secretSealed: sealSecret(app.services.secret, newWebhookSecret()),
        creditsLowThreshold: null,
        now: app.clock.now(),
      },
      10,
    );
    const from = receiver.received.length;
    await app.request('POST', `/v1/webhooks/${e.id}/test`, { key: apiKey });
    const [attempt] = await logOf(apiKey, e.id, 1);
    expect(attempt.ok).toBe(false);
    expect(attempt.error).toMatch(/resolves to a private, loopback, link-local or metadata address/);
    expect(attempt.next_retry_at).not.toBeNull();
    expect(receiver.received.length).toBe(from);
  });

  it('replays a delivery with the same webhook-id', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const { id, secret } = await endpoint(apiKey, ['export.completed']);
    const from = receiver.received.length;
    const ping = await app.request('POST', `/v1/webhooks/${id}/test`, { key: apiKey });
    await next(1, from);
    const replay = await app.request('POST', `/v1/webhooks/${id}/deliveries/${ping.body.data.delivery_id}/replay`, {
      key: apiKey,
    });
    expect(replay.status).toBe(202);
    const [first, again] = await next(2, from);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verify(secret, again!)).toMatchObject({ type: 'ping' });
    const missing = await app.request('POST', `/v1/webhooks/${id}/deliveries/dlv_nothere123/replay`, { key: apiKey });
    expect(missing.body.error.code).toBe('webhook.delivery_not_found');
  });
});
