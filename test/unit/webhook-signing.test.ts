import { Webhook } from 'standardwebhooks';
import { nextRetryAt, RETRY_SCHEDULE_MS } from '../../src/domain/webhooks/types.js';
import { newWebhookSecret, openSecret, sealSecret, signMessage } from '../../src/jobs/webhooks/secrets.js';
import { checkWebhookUrl, parseWebhookUrl } from '../../src/jobs/webhooks/url-guard.js';

describe('webhook signatures and secrets', () => {
  it('signs as the standardwebhooks package signs, and its verify accepts ours', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const at = new Date();
    const ts = Math.floor(at.getTime() / 1000);
    const body = JSON.stringify({ type: 'ping', id: 'evt_x', created_at: at.toISOString(), data: {} });
    const ours = signMessage(secret, 'evt_x', ts, body);
    expect(ours).toBe(new Webhook(secret).sign('evt_x', at, body));
    const headers = { 'webhook-id': 'evt_x', 'webhook-timestamp': String(ts), 'webhook-signature': ours };
    expect(new Webhook(secret).verify(body, headers)).toMatchObject({ type: 'ping' });
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  });

  it('seals a secret so that only the service secret opens it, and any change is refused', () => {
    const secret = newWebhookSecret();
    const sealed = sealSecret('service-secret-1', secret);
    expect(sealed).not.toContain(secret.slice(6));
    expect(openSecret('service-secret-1', sealed)).toBe(secret);
    expect(sealSecret('service-secret-1', secret)).not.toBe(sealed);
    expect(() => openSecret('service-secret-2', sealed)).toThrow();
    const raw = Buffer.from(sealed.slice(3), 'base64');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
    expect(() => openSecret('service-secret-1', `v1.${raw.toString('base64')}`)).toThrow();
  });

  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h, then not again', () => {
    const t = new Date('2026-01-01T00:00:00Z');
    const hours = (h: number) => h * 3_600_000;
    expect(RETRY_SCHEDULE_MS).toEqual([
      5000,
      300_000,
      1_800_000,
      hours(2),
      hours(5),
      hours(10),
      hours(14),
      hours(20),
      hours(24),
    ]);
    expect(nextRetryAt(1, t)?.getTime()).toBe(t.getTime() + 5000);
    expect(nextRetryAt(9, t)?.getTime()).toBe(t.getTime() + hours(24));
    expect(nextRetryAt(10, t)).toBeNull();
  });
});

describe('webhook URLs', () => {
  it('with nothing allowed (CDS_WEBHOOK_ALLOW_HOSTS unset), loopback and plain http are refused', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'https://127.0.0.1/x', 'http://example.com/x', 'https://[::1]/x']) {
      expect(() => parseWebhookUrl(url, [])).toThrow(expect.objectContaining({ code: 'webhook.url_refused' }));
    }
    await expect(checkWebhookUrl('https://localhost/x', [])).rejects.toMatchObject({ code: 'webhook.url_refused' });
  });

  it('an allowed host may be loopback and plain http; no other host gains from it', async () => {
    expect(parseWebhookUrl('http://127.0.0.1:9/x', ['127.0.0.1']).href).toBe('http://127.0.0.1:9/x');
    expect((await checkWebhookUrl('http://localhost:9/x', ['localhost'])).hostname).toBe('localhost');
    expect(() => parseWebhookUrl('http://127.0.0.2:9/x', ['127.0.0.1'])).toThrow();
    expect(() => parseWebhookUrl('https://user:pw@127.0.0.1/x', ['127.0.0.1'])).toThrow();
  });

  it('accepts a public https address', () => {
    expect(parseWebhookUrl('https://93.184.216.34/hook', []).hostname).toBe('93.184.216.34');
  });
});
