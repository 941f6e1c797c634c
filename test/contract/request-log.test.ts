import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestLogEntry } from '../../src/domain/request-log.js';
import { consoleSignIn } from '../helpers/console-client.js';
import { expectError } from '../helpers/errors.js';
import { mcpTools } from '../helpers/mcp-tools.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The request log (GET /v1/requests, GET /v1/requests/{request_id}): REST, console and MCP tool calls of an account
 * with status, error code, credits, duration and key prefix; filters; tenancy; the cap; never a body. And `/`.
 */

let app: TestApp;
let key: string;
let accountId: string;
let other: string;
let prefix: string;
const clients: Client[] = [];
beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 60 });
  ({ apiKey: key, accountId } = await app.createAccount('unlimited'));
  other = (await app.createAccount('unlimited')).apiKey;
  prefix = (await app.request('GET', '/v1/keys', { key })).body.data[0].prefix;
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

type Entry = Record<string, any>;
const entry = async (id: string, k = key) => app.request('GET', `/v1/requests/${id}`, { key: k });

describe('request log', () => {
  it('finds a failed request by its request id, with its route, status, error code and key prefix', async () => {
    const failed = await app.request('GET', '/v1/exports/exp_doesnotexist', { key });
    expectError(failed, 404, 'export.not_found');
    const id = failed.body.request_id as string;
    const res = await entry(id);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      request_id: id,
      at: expect.any(String),
      face: 'rest',
      method: 'GET',
      route: '/v1/exports/:id',
      operation: 'exports.get',
      status: 404,
      error_code: 'export.not_found',
      credits: 0,
      duration_ms: expect.any(Number),
      key_prefix: prefix,
      client: null,
    });
    const list = await app.request('GET', '/v1/requests?status=4xx', { key });
    expect(list.body.data.map((e: Entry) => e.request_id)).toContain(id);
    // Another account: not in its log, 404 by id.
    expectError(await entry(id, other), 404, 'request.not_found');
    expect((await app.request('GET', '/v1/requests', { key: other })).body.data).toEqual([]);
    expectError(await entry('req_nothing'), 404, 'request.not_found');
  });

  it('records credits spent and never a body or a query string', async () => {
    const search = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: { title_query: 'zebracorn' }, limit: 3 },
    });
    expect(search.status).toBe(200);
    const found = await app.request('POST', '/v1/contacts/search', { key, body: { filter: {}, limit: 3 } });
    expect(found.body.data).toHaveLength(3);
    const e = (await entry(found.body.request_id)).body.data;
    expect(e).toMatchObject({
      method: 'POST',
      route: '/v1/contacts/search',
      status: 200,
      credits: 3,
      error_code: null,
    });
    await app.request('GET', '/v1/contacts/schema/country/values?q=zebracorn', { key });
    const all = await app.request('GET', '/v1/requests?limit=200', { key });
    expect(JSON.stringify(all.body.data)).not.toContain('zebracorn');
    const stored = await app.services.state.listRequestLog(accountId);
    expect(JSON.stringify(stored)).not.toContain('zebracorn');
  });

  it('filters by status code or class, route and error code, pages with the cursor; reading it is free and unlogged', async () => {
    for (let i = 0; i < 3; i++) await app.request('GET', '/v1/audiences/aud_missing', { key });
    await app.request('POST', '/v1/contacts/count', { key, body: { filter: { countries: ['atlantis'] } } });
    const before = (await app.request('GET', '/v1/credits', { key })).body.data.contact;
    const by404 = await app.request('GET', '/v1/requests?status=404&route=/v1/audiences', { key });
    expect(by404.body.data).toHaveLength(3);
    for (const e of by404.body.data) expect(e).toMatchObject({ status: 404, error_code: 'audience.not_found' });
    const byCode = await app.request('GET', '/v1/requests?error_code=filter.unknown_value', { key });
    expect(byCode.body.data).toHaveLength(1);
    expect(byCode.body.data[0]).toMatchObject({ status: 400, route: '/v1/contacts/count' });
    const twos = await app.request('GET', '/v1/requests?status=2xx', { key });
    for (const e of twos.body.data) expect(e.status).toBeGreaterThanOrEqual(200);
    for (const e of twos.body.data) expect(e.status).toBeLessThan(300);
    // Newest first; paging by cursor walks the same list.
    const all = (await app.request('GET', '/v1/requests?limit=200', { key })).body;
    const ats = all.data.map((e: Entry) => e.at);
    expect(ats).toEqual([...ats].sort().reverse());
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await app.request('GET', `/v1/requests?limit=4${q}`, { key });
      walked.push(...page.body.data.map((e: Entry) => e.request_id));
      cursor = page.body.page.next_cursor;
    } while (cursor);
    expect(walked).toEqual(all.data.map((e: Entry) => e.request_id));
    expect(all.page.total).toBe(all.data.length);
    expect(all.data.some((e: Entry) => e.operation.startsWith('requests.'))).toBe(false);
    expect((await app.request('GET', '/v1/credits', { key })).body.data.contact).toEqual(before);
    expectError(await app.request('GET', '/v1/requests?status=abc', { key }), 400, 'request.invalid');
    expectError(await app.request('GET', '/v1/requests?body=1', { key }), 400, 'request.invalid');
    expectError(await app.request('GET', '/v1/requests', {}), 401, 'auth.invalid_key');
  });

  it('logs MCP tool calls by tool name and request id, and console calls', async () => {
    const tools = await mcpTools(app, key, clients);
    await tools('count_matches', { filter: {} });
    const log = (await app.request('GET', '/v1/requests?route=count_matches', { key })).body.data;
    expect(log[0]).toMatchObject({
      face: 'mcp',
      method: null,
      route: 'count_matches',
      operation: 'contacts.count',
      status: 200,
    });
    const failed = await tools('get_export', { id: 'exp_missing' });
    expect(failed.code).toBe('export.not_found');
    const mcpFail = (await app.request('GET', '/v1/requests?route=get_export', { key })).body.data[0];
    expect(mcpFail).toMatchObject({ status: 404, error_code: 'export.not_found', key_prefix: prefix });
    expect((await entry(mcpFail.request_id)).body.data.route).toBe('get_export');
    const session = await consoleSignIn(app, key);
    const counted = await session.call('POST', '/app/api/op/contacts.count', { body: { filter: {} } });
    expect(counted.status).toBe(200);
    const viaConsole = (await entry(counted.body.request_id)).body.data;
    expect(viaConsole).toMatchObject({ face: 'console', route: '/v1/contacts/count', operation: 'contacts.count' });
    const listed = await session.call('GET', '/app/api/op/requests.list?status=4xx');
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThan(0);
  });

  it('keeps the last 1,000 requests of an account', async () => {
    const { apiKey, accountId: id } = await app.createAccount('unlimited');
    const base = Date.parse('2026-01-01T00:00:00.000Z');
    const made: RequestLogEntry[] = Array.from({ length: 1010 }, (_, i) => ({
      requestId: `req_seed${String(i).padStart(8, '0')}`,
      accountId: id,
      at: new Date(base + i * 1000).toISOString(),
      face: 'rest',
      method: 'GET',
      route: '/v1/credits',
      operation: 'credits.get',
      status: 200,
      errorCode: null,
      credits: 0,
      durationMs: 1,
      keyPrefix: null,
      client: null,
    }));
    await app.services.state.appendRequestLog(made.slice(0, 600), 1000);
    await app.services.state.appendRequestLog(made.slice(600), 1000);
    const failed = await app.request('GET', '/v1/exports/exp_x', { key: apiKey });
    const res = await app.request('GET', '/v1/requests?limit=1', { key: apiKey });
    expect(res.body.page.total).toBe(1000);
    expect(res.body.data[0].request_id).toBe(failed.body.request_id);
    expectError(await entry(made[10]!.requestId, apiKey), 404, 'request.not_found');
    expect((await entry(made[1009]!.requestId, apiKey)).status).toBe(200);
  });
});

describe('/', () => {
  it('sends a browser to /app and answers an API client with links', async () => {
    const html = await fetch(`${app.url}/`, {
      headers: { Accept: 'text/html,application/xhtml+xml' },
      redirect: 'manual',
    });
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe('/app');
    for (const accept of ['application/json', '*/*']) {
      const res = await fetch(`${app.url}/`, { headers: { Accept: accept } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { ok: boolean; links: Record<string, string> };
      expect(body.ok).toBe(true);
      expect(Object.keys(body.links).sort()).toEqual(['app', 'docs', 'health', 'mcp', 'openapi']);
      expect((await fetch(body.links.health!)).status).toBe(200);
      expect((await fetch(body.links.openapi!)).status).toBe(200);
    }
    expect((await fetch(`${app.url}/`, { method: 'POST' })).status).toBe(404);
  });
});
