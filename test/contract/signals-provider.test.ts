import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpNetworkSource } from '../../src/network-signals/http/http-provider.js';
import { SourceError } from '../../src/network-signals/port.js';
import { expectError } from '../helpers/errors.js';
import { allRows } from '../helpers/rows.js';
import { allSignals, type SignalsApp, startSignalsApp, waitCollect } from './signals-support.js';

/**
 * The HTTP provider adapter against a small provider started here on 127.0.0.1, speaking the documented
 * contract (POST /estimate, POST /collect). Each target slug selects a behaviour.
 */
const TOKEN = 'provider-token-1';
let server: Server;
let providerUrl: string;
let app: SignalsApp;
let storedUrl: string;
const calls: { path: string; slug: string; body: any; auth: string | undefined }[] = [];
const count = (path: string, slug: string) => calls.filter((c) => c.path === path && c.slug === slug).length;

const item = (n: number, extra: Record<string, unknown> = {}) => ({
  name: `Person ${n}`,
  headline: n % 2 ? `Engineer ${n}` : null,
  profile_url: `https://network.com/in/provider-person-${n}`,
  engagement: n % 3 ? 'reaction' : 'comment',
  post_url: 'https://network.com/posts/a-post',
  at: `2026-11-0${1 + (n % 8)}T10:00:00Z`,
  ...extra,
});

function handle(req: IncomingMessage, res: ServerResponse, raw: string) {
  const path = req.url!.replace(/^\/api/, '').replace(/^\//, '');
  const body = JSON.parse(raw || '{}');
  const slug = String(body.target ?? '')
    .split('/')
    .pop()!;
  calls.push({ path, slug, body, auth: req.headers.authorization });
  const send = (status: number, payload: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  };
  if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { error: 'bad token' });
  if (path === 'estimate') {
    if (slug === 'missing') return send(404, { error: 'no such profile' });
    if (slug === 'estimate-down') return send(503, { error: 'down' });
    if (slug === 'flaky-estimate' && count('estimate', slug) === 1) return send(503, { error: 'warming up' });
    return send(200, { count: slug === 'partial' ? 2 : 3 });
  }
  if (path !== 'collect') return send(404, {});
  if (slug === 'slow') return void setTimeout(() => send(200, { items: [], next_cursor: null }), 1500);
  if (slug === 'garbage') return send(200, { items: [{ name: 5 }], next_cursor: null });
  if (slug === 'notjson') return send(200, 'oops, not json');
  if (slug === 'flaky-collect' && count('collect', slug) === 1) return send(502, 'bad gateway');
  if (slug === 'partial')
    return send(200, { items: Array.from({ length: 10 }, (_, i) => item(100 + i)), next_cursor: null });
  // Two pages: person 1 twice (reaction, then comment), a stored contact, person 2.
  if (body.cursor === null)
    return send(200, { items: [item(1), item(1, { engagement: 'comment' })], next_cursor: 'page-2' });
  return send(200, { items: [item(3, { profile_url: storedUrl, name: 'Stored Person' }), item(2)], next_cursor: null });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  app = await startSignalsApp({
    contacts: 500,
    companies: 100,
    env: {
      CDS_SIGNALS_PROVIDER_URL: providerUrl,
      CDS_SIGNALS_PROVIDER_TOKEN: TOKEN,
      CDS_SIGNALS_PROVIDER_TIMEOUT_MS: '200',
      CDS_SIGNALS_PROVIDER_RETRIES: '2',
      CDS_SIGNALS_PROVIDER_BACKOFF_MS: '10',
    },
  });
  storedUrl = (await allRows(app, 'contacts')).find((r) => r.network)!.network;
});
afterAll(async () => {
  await app.shutdown();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const collect = (key: string, slug: string, extra: Record<string, unknown> = {}) =>
  app.request('POST', '/v1/signals/collect', {
    key,
    body: { kind: 'network_profile', target: `https://network.com/in/${slug}`, wait: true, ...extra },
  });
const premium = async (key: string) => (await app.request('GET', '/v1/credits', { key })).body.data.premium;

describe('HTTP signals provider', () => {
  it('collects page by page with the cursor and the token, and matches stored contacts', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await collect(apiKey, 'ok');
    expect(res.status).toBe(202);
    expect(res.body.data.job).toMatchObject({
      status: 'completed',
      hold: 6,
      signals: 4,
      leads: 3,
      scrape_outcome: { source: 'http', reason: 'source_exhausted' },
    });
    const sent = calls.filter((c) => c.slug === 'ok');
    expect(sent.map((c) => c.path)).toEqual(['estimate', 'collect', 'collect']);
    expect(sent.every((c) => c.auth === `Bearer ${TOKEN}`)).toBe(true);
    expect(sent[0]!.body).toEqual({ kind: 'network_profile', target: 'https://network.com/in/ok' });
    expect(sent[1]!.body).toEqual({
      kind: 'network_profile',
      target: 'https://network.com/in/ok',
      cursor: null,
      limit: 100,
    });
    expect(sent[2]!.body.cursor).toBe('page-2');
    const rows = await allSignals(app, apiKey, `source_id=${res.body.data.job.id}`);
    expect(rows.map((r) => [r.name, r.engagement, r.lead, r.contact !== null])).toEqual([
      ['Person 1', 'reaction', true, false],
      ['Person 1', 'comment', false, false],
      ['Stored Person', 'comment', true, true],
      ['Person 2', 'reaction', true, false],
    ]);
    expect(rows[0]).toMatchObject({
      headline: 'Engineer 1',
      post_url: 'https://network.com/posts/a-post',
      at: '2026-11-02T10:00:00.000Z',
    });
    expect(rows[2].contact.network).toBe(storedUrl);
    expect(await premium(apiKey)).toMatchObject({ used: 3, held: 0 });
  });

  it('retries a 5xx with backoff: an estimate and a collect page that fail once still succeed', async () => {
    const { apiKey } = await app.createAccount('pro');
    expect((await collect(apiKey, 'flaky-estimate')).status).toBe(202);
    expect(count('estimate', 'flaky-estimate')).toBe(2);
    const res = await collect(apiKey, 'flaky-collect');
    expect(res.body.data.job.status).toBe('completed');
    expect(count('collect', 'flaky-collect')).toBe(3); // 502, then the two pages
  });

  it('a provider that does not answer in time fails the job after bounded retries; nothing is charged', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await collect(apiKey, 'slow');
    const job = res.body.data.job;
    expect(job.status).toBe('failed');
    expect(job.error).toBe(
      'The signals provider gave no answer within 200 ms after 3 attempts; start the collect again in a few minutes.',
    );
    expect(count('collect', 'slow')).toBe(3);
    const status = await waitCollect(app, apiKey, job.id);
    expect(status).toMatchObject({
      status: 'failed',
      error: job.error,
      signals: 0,
      premium_credits: { held: 0, charged: 0 },
    });
    expect(await premium(apiKey)).toMatchObject({ used: 0, held: 0 });
  });

  it.each([
    ['garbage', 'item 0: `name` is missing'],
    ['notjson', 'the body is not a JSON object'],
  ])('a malformed answer (%s) fails the job at once with an actionable error', async (slug, detail) => {
    const { apiKey } = await app.createAccount('pro');
    const job = (await collect(apiKey, slug)).body.data.job;
    expect(job.status).toBe('failed');
    expect(job.error).toContain('malformed');
    expect(job.error).toContain(detail);
    expect(job.error).toContain('start the collect again later');
    expect(count('collect', slug)).toBe(1);
  });

  it('an unknown target answers 400; a provider down at sizing time answers 503', async () => {
    const { apiKey } = await app.createAccount('pro');
    const missing = await collect(apiKey, 'missing');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatchObject({ code: 'request.invalid', field: 'target' });
    expect(missing.body.error.message).toContain('does not know https://network.com/in/missing');
    const down = await collect(apiKey, 'estimate-down');
    expectError(down, 503, 'data.unavailable');
    expect(down.body.error.hint).toContain('HTTP 503 after 3 attempts');
    expect(await premium(apiKey)).toMatchObject({ held: 0, used: 0 });
  });

  it('more unique engagers than the hold: the job stops at the hold and ends partial (status: completed)', async () => {
    const { apiKey } = await app.createAccount('pro');
    const job = (await collect(apiKey, 'partial')).body.data.job;
    expect(job).toMatchObject({
      status: 'partial',
      hold: 4,
      signals: 4,
      leads: 4,
      scrape_outcome: { reason: 'hold_exhausted' },
    });
    const status = await waitCollect(app, apiKey, job.id);
    expect(status).toMatchObject({
      status: 'completed',
      requested: 2,
      signals: 4,
      leads: 4,
      premium_credits: { held: 0, charged: 4 },
      error: null,
    });
    expect(await premium(apiKey)).toMatchObject({ used: 4, held: 0 });
  });

  it('a refused token is reported for the operator', async () => {
    const source = new HttpNetworkSource({
      url: providerUrl,
      token: 'wrong',
      timeoutMs: 200,
      retries: 2,
      backoffMs: 10,
    });
    const target = { kind: 'network_profile' as const, url: 'https://network.com/in/ok', slug: 'ok' };
    await expect(source.estimate(target)).rejects.toThrow(SourceError);
    await expect(source.estimate(target)).rejects.toThrow('CDS_SIGNALS_PROVIDER_TOKEN');
  });
});
