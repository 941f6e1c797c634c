import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Webhook } from 'standardwebhooks';
import { checkCreditsLow } from '../../src/jobs/webhooks/deliver.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';
import { headersOf, type Received, type Receiver, startReceiver } from '../helpers/webhook-receiver.js';

/**
 * Each event type is delivered after its cause, with the documented body, to a real receiver on loopback; every
 * signature checked with the `standardwebhooks` package.
 */
let app: TestApp;
let receiver: Receiver;
const clients: Client[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  app = await startTestApp({
    now: new Date().toISOString(),
    env: { CDS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1', CDS_SIGNALS_DELAY_MS: '0' },
  });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
  await receiver.close();
});

async function subscribe(key: string, events: string[], extra: Record<string, unknown> = {}) {
  const res = await app.request('POST', '/v1/webhooks', { key, body: { url: receiver.url, events, ...extra } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; secret: string };
}

/** The bodies (verified) sent with this endpoint's secret, once `count` came. */
async function bodiesFor(secret: string, count: number): Promise<any[]> {
  const wh = new Webhook(secret);
  const mine = (r: Received) => {
    try {
      return [wh.verify(r.body, headersOf(r))];
    } catch {
      return [];
    }
  };
  return eventually(async () => {
    const got = receiver.received.flatMap(mine);
    return got.length >= count ? got : undefined;
  });
}

describe('each event type, after its cause', () => {
  it('collect.completed carries the counts the polling route shows', async () => {
    const { apiKey } = await app.createAccount('pro');
    const { secret } = await subscribe(apiKey, ['collect.completed', 'collect.failed']);
    const started = await app.request('POST', '/v1/signals/collect', {
      key: apiKey,
      body: { kind: 'network_profile', target: 'https://network.com/in/webhook-target-1' },
    });
    expect(started.status).toBe(202);
    const id = started.body.data.id ?? started.body.data.job?.id;
    const [body] = await bodiesFor(secret, 1);
    const polled = (await app.request('GET', `/v1/signals/collect/${id}`, { key: apiKey })).body.data;
    expect(polled.status).toMatch(/completed|partial|no_matches/);
    expect(body).toMatchObject({
      type: 'collect.completed',
      data: {
        collect_id: id,
        signals: polled.signals,
        leads: polled.leads,
        contacts_matched: polled.contacts_matched,
        links: { self: `${app.url}/v1/signals/collect/${id}` },
      },
    });
    expect(body.id).toMatch(/^evt_/);
    expect(Date.parse(body.created_at)).toBeGreaterThan(0);
  });

  it('alert.leads names the alert, the run and its counts when a run found leads', async () => {
    const { apiKey } = await app.createAccount('pro');
    const { secret } = await subscribe(apiKey, ['alert.leads']);
    const alert = await app.request('POST', '/v1/signals/alerts', {
      key: apiKey,
      body: { kind: 'network_profile', target: 'https://network.com/in/webhook-alert-1' },
    });
    expect(alert.status).toBe(201);
    const poll = await app.request('POST', `/v1/signals/alerts/${alert.body.data.id}/poll`, { key: apiKey });
    expect(poll.status).toBe(202);
    const runId = poll.body.data.job.id;
    const done = await eventually(async () => {
      const a = (await app.request('GET', `/v1/signals/alerts/${alert.body.data.id}`, { key: apiKey })).body.data;
      return a.last_run && !['queued', 'running'].includes(a.last_run.status) ? a : undefined;
    });
    expect(done.last_run.leads).toBeGreaterThan(0);
    const [body] = await bodiesFor(secret, 1);
    expect(body).toMatchObject({
      type: 'alert.leads',
      data: { alert_id: alert.body.data.id, run_id: runId, leads: done.last_run.leads },
    });
  });

  it('enrichment_run.completed carries the run id, its counts and the signed result link that downloads the CSV', async () => {
    const { apiKey } = await app.createAccount('pro');
    const { secret } = await subscribe(apiKey, ['enrichment_run.completed']);
    const client = new Client({ name: 'cds-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), {
        requestInit: { headers: { 'X-API-Key': apiKey } },
      }),
    );
    clients.push(client);
    const link = ((await client.callTool({ name: 'create_csv_enrichment_upload_link', arguments: {} })) as any)
      .structuredContent.upload_url as string;
    const page = uploadPageClient(link);
    const up = await page.file('Email\r\nnobody@example.com\r\nsomeone@example.org\r\n');
    expect(up.status).toBe(200);
    const start = await page.post('start', { mapping: up.body.mapping });
    expect(start.status).toBeLessThan(300);
    const [body] = await bodiesFor(secret, 1);
    expect(body).toMatchObject({ type: 'enrichment_run.completed', data: { processed_rows: 2 } });
    const runId = body.data.run_id as string;
    expect(runId).toMatch(/^enr_/);
    expect(Object.keys(body.data).sort()).toEqual([
      'credits_charged',
      'links',
      'matched_rows',
      'processed_rows',
      'result_expires_at',
      'result_url',
      'run_id',
    ]);
    expect(body.data.links).toEqual({ self: `${app.url}/v1/enrichment-runs/${runId}` });
    // The link is the polling route's: same file, signed, bound to the account's key, valid one hour.
    const polled = (await app.request('GET', `/v1/enrichment-runs/${runId}`, { key: apiKey })).body.data;
    expect(polled.status).toBe('completed');
    const linkPath = (u: string) => new URL(u).pathname;
    const params = (u: string) => Object.fromEntries(new URL(u).searchParams);
    expect(linkPath(body.data.result_url)).toBe(linkPath(polled.result_url));
    expect(Object.keys(params(body.data.result_url)).sort()).toEqual(Object.keys(params(polled.result_url)).sort());
    expect(params(body.data.result_url).key).toBe(params(polled.result_url).key);
    const ttl = Date.parse(body.data.result_expires_at) - Date.parse(body.created_at);
    expect(ttl).toBeGreaterThan(59 * 60_000);
    expect(ttl).toBeLessThanOrEqual(61 * 60_000);
    expect(Date.parse(body.data.result_expires_at)).toBe(Number(params(body.data.result_url).expires) * 1000);
    // Downloaded through the link from the webhook body alone (no API key): the result CSV.
    const csv = await fetch(body.data.result_url);
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text.split(/\r?\n/)[0]).toContain('Match status');
    expect(text).toContain('nobody@example.com');
    expect(text).toContain('someone@example.org');
    // A tampered signature is refused.
    const bad = new URL(body.data.result_url);
    // (a middle character: base64url's unused trailing bits could leave a changed last one decoding the same)
    const sig = bad.searchParams.get('sig')!;
    bad.searchParams.set('sig', `${sig.slice(0, 5)}${sig[5] === 'A' ? 'B' : 'A'}${sig.slice(6)}`);
    expect((await fetch(bad)).status).toBeGreaterThanOrEqual(400);
  });

  it('credits.low is sent once per window when the binding window falls below the threshold', async () => {
    const { apiKey } = await app.createAccount('pro');
    const credits = (await app.request('GET', '/v1/credits', { key: apiKey })).body.data;
    expect(credits).toBeDefined();
    const { id, secret } = await subscribe(apiKey, ['credits.low'], { credits_low_threshold: 1_000_000_000 });
    // The sender's own check runs every 2 s; run it here too: it is idempotent per window.
    await checkCreditsLow(app.services);
    const [body] = await bodiesFor(secret, 1);
    expect(body).toMatchObject({ type: 'credits.low', data: { threshold: 1_000_000_000 } });
    expect(['day', 'month']).toContain(body.data.binding);
    expect(body.data.remaining).toBeLessThan(1_000_000_000);
    expect(await checkCreditsLow(app.services)).toBe(0);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await bodiesFor(secret, 1)).toHaveLength(1);
    // A threshold below what is left sends nothing.
    const other = await app.createAccount('pro');
    const quiet = await subscribe(other.apiKey, ['credits.low'], { credits_low_threshold: 1 });
    expect(await checkCreditsLow(app.services)).toBe(0);
    expect(receiver.received.some((r) => r.body.includes(quiet.id))).toBe(false);
    expect(id).toMatch(/^whk_/);
  });

  it('export.failed is sent for an export that failed', async () => {
    const { accountId, apiKey } = await app.createAccount('unlimited');
    const { secret } = await subscribe(apiKey, ['export.failed']);
    // A failed end written through the store (as the runner writes it after the last retry).
    const { job } = await app.services.state.createJob({
      id: 'exp_webhookfailed1',
      accountId,
      kind: 'export',
      payload: { family: 'A' },
      now: app.clock.now(),
    });
    expect(
      await app.services.state.finishJob(job.id, { status: 'failed', error: 'disk full', charge: 0 }, app.clock.now()),
    ).toBe(true);
    const [body] = await bodiesFor(secret, 1);
    expect(body).toMatchObject({
      type: 'export.failed',
      data: { export_id: job.id, error: 'disk full', links: { self: `${app.url}/v1/exports/${job.id}` } },
    });
    // Ending it again invents nothing.
    expect(
      await app.services.state.finishJob(job.id, { status: 'failed', error: 'again', charge: 0 }, app.clock.now()),
    ).toBe(false);
    await new Promise((r) => setTimeout(r, 600));
    expect(await bodiesFor(secret, 1)).toHaveLength(1);
  });
});
