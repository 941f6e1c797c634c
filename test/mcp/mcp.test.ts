import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { labelRow, unlabelRow } from '../../src/mcp/index.js';
import { MCP_ONLY_OPERATIONS, OPERATIONS } from '../../src/operations/index.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

type Result = { isError?: boolean; structuredContent?: any; content: { type: string; text?: string }[] };

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 1500, companies: 200, seed: 5 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'cds-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  const res = (await client.callTool({ name, arguments: args })) as Result;
  // Every result carries the same JSON as text for clients that read only text.
  expect(res.content[0]).toEqual({ type: 'text', text: JSON.stringify(res.structuredContent) });
  return res;
}

/** A raw JSON-RPC POST, to see HTTP statuses the SDK client hides behind an exception. */
function rawPost(
  headers: Record<string, string>,
  body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
) {
  return fetch(`${app.url}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
}

const mcpOps = [...OPERATIONS, ...MCP_ONLY_OPERATIONS].filter((op) => op.mcp);

describe('tools are generated from the operation table', () => {
  it('lists every operation that has an mcp spec, with its input schema, annotations and cost', async () => {
    const { apiKey } = await app.createAccount('pro');
    const client = await connect({ 'X-API-Key': apiKey });
    const { tools } = await client.listTools();
    // The SDK client compiled every tool's outputSchema inside listTools; the app serves from this process, so let
    // its timers close the keep-alive sockets that idled past their timeout meanwhile before the next call.
    await new Promise((r) => setTimeout(r, 300));
    expect(tools.map((t) => t.name).sort()).toEqual(mcpOps.map((op) => op.mcp!.tool).sort());
    for (const op of mcpOps) {
      const tool = tools.find((t) => t.name === op.mcp!.tool)!;
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations).toEqual({ title: op.summary, ...op.mcp!.annotations });
      expect(tool.description).toContain(op.description);
      expect(tool.description).toContain(`Cost: ${op.cost}.`);
    }
    const find = tools.find((t) => t.name === 'find_contacts')!;
    expect(Object.keys(find.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['filter', 'columns', 'limit', 'cursor']),
    );
    expect(find.inputSchema.properties!.limit).toMatchObject({ type: 'integer', maximum: 100, default: 100 });
    expect(find.description).toContain('At most 100 rows per MCP call');
    // count_matches takes a filter or a saved audience's id (audience_id), so neither is required by the schema.
    expect(Object.keys(tools.find((t) => t.name === 'count_matches')!.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['filter', 'audience_id']),
    );
  });

  it('an unknown tool is a protocol error, not a tool result', async () => {
    const client = await connect({ 'X-API-Key': (await app.createAccount('pro')).apiKey });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('authentication and Origin before the MCP layer', () => {
  it('no key or a bad key: 401 with the error envelope, and the client cannot connect', async () => {
    for (const headers of [{}, { 'X-API-Key': 'cds_not_a_key' }, { Authorization: 'Bearer cds_not_a_key' }] as Record<
      string,
      string
    >[]) {
      const res = await rawPost(headers);
      expect(res.status).toBe(401);
      const body = (await res.json()) as any;
      expect(body).toMatchObject({ ok: false, error: { code: 'auth.invalid_key' } });
      expect(body.request_id).toMatch(/^req_/);
      expect(body.quota).toBeUndefined();
      await expect(connect(headers)).rejects.toThrow();
    }
  });

  it('takes the key as X-API-Key or Authorization: Bearer', async () => {
    const { apiKey } = await app.createAccount('pro');
    for (const headers of [{ 'X-API-Key': apiKey }, { Authorization: `Bearer ${apiKey}` }] as Record<
      string,
      string
    >[]) {
      const client = await connect(headers);
      const res = await call(client, 'count_matches', { filter: {} });
      expect(res.isError).toBeUndefined();
      expect(res.structuredContent.data.count).toBeGreaterThan(0);
    }
  });

  it('refuses a foreign Origin with 403 request.origin_refused; loopback and no Origin pass', async () => {
    const { apiKey } = await app.createAccount('pro');
    const refused = await rawPost({ 'X-API-Key': apiKey, Origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as any).error).toMatchObject({
      code: 'request.origin_refused',
      field: 'header.Origin',
    });
    for (const origin of ['http://localhost:6274', 'http://127.0.0.1:3000', 'http://[::1]:8080']) {
      const ok = await rawPost({ 'X-API-Key': apiKey, Origin: origin });
      expect(ok.status).toBe(200);
      expect(((await ok.json()) as any).result.tools.length).toBe(mcpOps.length);
    }
    // The Origin check comes first: a refused Origin is refused even without a key.
    expect((await rawPost({ Origin: 'null' })).status).toBe(403);
  });

  it('a configured allow-list replaces the loopback default', async () => {
    const { apiKey } = await app.createAccount('pro');
    const saved = app.services.config.mcpAllowedOrigins;
    app.services.config.mcpAllowedOrigins = ['https://agents.example.org'];
    try {
      expect((await rawPost({ 'X-API-Key': apiKey, Origin: 'https://agents.example.org' })).status).toBe(200);
      expect((await rawPost({ 'X-API-Key': apiKey, Origin: 'http://localhost:6274' })).status).toBe(403);
      expect((await rawPost({ 'X-API-Key': apiKey })).status).toBe(200);
    } finally {
      app.services.config.mcpAllowedOrigins = saved;
    }
  });

  it('GET and DELETE answer 405 and an empty POST a parse error, as JSON-RPC errors (stateless server)', async () => {
    const { apiKey } = await app.createAccount('pro');
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${app.url}/mcp`, {
        method,
        headers: { 'X-API-Key': apiKey, Accept: 'text/event-stream' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    }
    const empty = await fetch(`${app.url}/mcp`, {
      method: 'POST',
      headers: {
        'X-API-Key': apiKey,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
  });
});

describe('each tool: a valid and an invalid input, the same answer as its REST route', () => {
  let client: Client;
  let key: string;
  beforeAll(async () => {
    key = (await app.createAccount('pro')).apiKey;
    client = await connect({ 'X-API-Key': key });
  });

  /** The invalid input fails over MCP with the very error body REST answers for it. */
  async function sameError(
    tool: string,
    args: Record<string, unknown>,
    method: string,
    path: string,
    restInput: unknown = args,
  ) {
    const res = await call(client, tool, args);
    const rest = await app.request(method, path, method === 'GET' ? { key } : { key, body: restInput });
    expect(rest.status).toBeGreaterThanOrEqual(400);
    expect(res.isError).toBe(true);
    expect(res.structuredContent).toEqual(rest.body.error);
    return res.structuredContent;
  }

  it('count_matches', async () => {
    const filter = { countries: ['us'] };
    const res = await call(client, 'count_matches', { filter });
    const rest = await app.request('POST', '/v1/contacts/count', { key, body: { filter } });
    expect(res.structuredContent).toEqual({
      data: rest.body.data,
      warnings: rest.body.warnings,
      quota: rest.body.quota,
    });
    expect(
      (await sameError('count_matches', { filter: { no_such_key: ['x'] } }, 'POST', '/v1/contacts/count')).code,
    ).toMatch(/^filter\./);
    expect(
      (await sameError('count_matches', { filter: { countries: ['atlantis'] } }, 'POST', '/v1/contacts/count')).code,
    ).toBe('filter.unknown_value');
  });

  it('find_contacts: labelled rows equal to the REST rows, limit clamped to 100', async () => {
    const args = {
      filter: { seniority: ['director', 'vp', 'manager'] },
      limit: 15,
      columns: ['name', 'Company Domain', 'country'],
    };
    const res = await call(client, 'find_contacts', args);
    const rest = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { ...args, columns: ['name', 'company_domain', 'country'] },
    });
    expect(rest.status).toBe(200);
    const rows = res.structuredContent.data as Record<string, unknown>[];
    expect(rows.length).toBe(15);
    expect(Object.keys(rows[0]!)).toEqual(['Contact ID', 'Full Name', 'Company Domain', 'Country']);
    expect(rows.map((r) => unlabelRow('contact', r))).toEqual(rest.body.data);
    expect(res.structuredContent.page).toEqual(rest.body.page);

    const big = await call(client, 'find_contacts', { filter: {}, limit: 500 });
    expect(big.structuredContent.data.length).toBe(100);
    expect(big.structuredContent.page.limit).toBe(100);
    // The cursor is the REST cursor: the next page over MCP continues where the first stopped.
    const next = await call(client, 'find_contacts', { filter: {}, cursor: big.structuredContent.page.next_cursor });
    const restNext = await app.request('POST', '/v1/contacts/search', {
      key,
      body: { filter: {}, limit: 100, cursor: big.structuredContent.page.next_cursor },
    });
    expect(next.structuredContent.data.map((r: any) => r['Contact ID'])).toEqual(
      restNext.body.data.map((r: any) => r.id),
    );

    expect(
      (await sameError('find_contacts', { filter: {}, columns: ['no_such_column'] }, 'POST', '/v1/contacts/search'))
        .code,
    ).toBe('request.invalid');
    expect((await sameError('find_contacts', { filter: {}, limit: 0 }, 'POST', '/v1/contacts/search')).field).toBe(
      'limit',
    );
  });

  it('get_values', async () => {
    const res = await call(client, 'get_values', { column: 'seniority' });
    const rest = await app.request('GET', '/v1/contacts/schema/seniority/values', { key });
    expect(res.structuredContent.data).toEqual(rest.body.data);
    expect(res.structuredContent.data.values.length).toBeGreaterThan(3);
    expect(
      (await sameError('get_values', { column: 'no_such_column' }, 'GET', '/v1/contacts/schema/no_such_column/values'))
        .code,
    ).toBe('column.not_found');
  });

  it('count_companies', async () => {
    const res = await call(client, 'count_companies', { filter: { hq_countries: ['us'] } });
    const rest = await app.request('POST', '/v1/companies/count', { key, body: { filter: { hq_countries: ['us'] } } });
    expect(res.structuredContent.data).toEqual(rest.body.data);
    expect(
      (await sameError('count_companies', { filter: { hq_countries: ['atlantis'] } }, 'POST', '/v1/companies/count'))
        .code,
    ).toBe('filter.unknown_value');
    expect((await sameError('count_companies', {}, 'POST', '/v1/companies/count')).code).toBe('request.invalid');
  });

  it('find_companies', async () => {
    const args = { filter: {}, limit: 7 };
    const res = await call(client, 'find_companies', args);
    const rest = await app.request('POST', '/v1/companies/search', { key, body: args });
    const rows = res.structuredContent.data as Record<string, unknown>[];
    expect(rows.length).toBe(7);
    expect(rows[0]).toHaveProperty('Company ID');
    expect(rows[0]).toHaveProperty('Company Name');
    expect(rows.map((r) => unlabelRow('company', r))).toEqual(rest.body.data);
    expect(
      (await sameError('find_companies', { filter: {}, cursor: 'not-a-cursor' }, 'POST', '/v1/companies/search')).code,
    ).toMatch(/^(request\.invalid|cursor\.expired)$/);
  });

  it('get_companies', async () => {
    const first = (await app.request('POST', '/v1/companies/search', { key, body: { filter: {}, limit: 2 } })).body
      .data as any[];
    const inputs = [first[0].domain ?? first[0].id, first[1].id, 'no-such-company-anywhere.example'];
    const res = await call(client, 'get_companies', { inputs });
    const rest = await app.request('POST', '/v1/companies/lookup', { key, body: { inputs } });
    const results = res.structuredContent.data as any[];
    expect(results.map((r) => r.matched)).toEqual([true, true, false]);
    expect(results[0].company).toHaveProperty('Company ID');
    expect(results.map((r) => ({ ...r, company: r.company && unlabelRow('company', r.company) }))).toEqual(
      rest.body.data,
    );
    expect((await sameError('get_companies', { inputs: [] }, 'POST', '/v1/companies/lookup')).code).toBe(
      'request.invalid',
    );
  });

  it('a family B row tool is bounded by its own face rule and labelled too (search_contacts)', async () => {
    if (!mcpOps.some((op) => op.mcp!.tool === 'search_contacts')) return;
    const res = await call(client, 'search_contacts', { limit: 500 });
    expect(res.isError).toBeUndefined();
    expect(res.structuredContent.contacts.length).toBe(100);
    expect(res.structuredContent.limit_clamped_from).toBe(500);
    expect(res.structuredContent.contacts[0]).toHaveProperty('Contact ID');
    const rest = await app.request('POST', '/api/v1/contacts/search', {
      key,
      keyHeader: 'x-api-key',
      body: { limit: 100 },
    });
    expect(res.structuredContent.contacts.map((r: Record<string, unknown>) => unlabelRow('contact', r))).toEqual(
      rest.body.contacts,
    );
  });

  it('service_health answers with the family B body', async () => {
    const res = await call(client, 'service_health', {});
    const rest = await app.request('GET', '/api/health');
    expect(res.structuredContent).toEqual({
      service: rest.body.service,
      version: rest.body.version,
      status: rest.body.status,
    });
    expect(res.structuredContent.service).toBe('contact-data-service');
  });
});

describe('credits through the same operations', () => {
  it('find_contacts spends one contact credit per row, shown in the quota and in GET /v1/account', async () => {
    const { apiKey } = await app.createAccount('starter');
    const before = (await app.request('GET', '/v1/account', { key: apiKey })).body.quota;
    const client = await connect({ 'X-API-Key': apiKey });
    const res = await call(client, 'find_contacts', { filter: {}, limit: 12 });
    expect(res.structuredContent.data.length).toBe(12);
    expect(res.structuredContent.quota.contact_credits_used).toBe(12);
    expect(res.structuredContent.quota.today_remaining).toBe(before.today_remaining - 12);
    const count = await call(client, 'count_matches', { filter: {} });
    expect(count.structuredContent.quota.contact_credits_used).toBe(0);
    const after = (await app.request('GET', '/v1/account', { key: apiKey })).body.quota;
    expect(after.month_remaining).toBe(before.month_remaining - 12);
    expect(after.today_remaining).toBe(before.today_remaining - 12);
  });

  it('a spent free pool: a page is cut to the credits left, then 402 as a tool error', async () => {
    const { apiKey } = await app.createAccount('free');
    const client = await connect({ 'X-API-Key': apiKey });
    const first = await call(client, 'find_contacts', { filter: {}, limit: 100 });
    expect(first.structuredContent.quota.month_remaining).toBe(0);
    const spent = await call(client, 'find_contacts', { filter: {}, limit: 5 });
    expect(spent.isError).toBe(true);
    expect(spent.structuredContent.code).toBe('contact_credits.exhausted');
    expect(spent.structuredContent.details).toMatchObject({ binding: 'month' });
  });
});

describe('concurrency', () => {
  // Two calls in flight per key: the per-key concurrency limit (2) holds over MCP as over REST.
  it('two clients calling at the same time get their own answers', async () => {
    const a = await connect({ 'X-API-Key': (await app.createAccount('pro')).apiKey });
    const b = await connect({ 'X-API-Key': (await app.createAccount('pro')).apiKey });
    const { apiKey: restKey } = await app.createAccount('pro');
    const filters = [{ countries: ['us'] }, { exclude_countries: ['us'] }];
    const rounds = await Promise.all(
      [0, 1].flatMap(() => [
        call(a, 'find_contacts', { filter: filters[0], limit: 10, columns: ['country'] }),
        call(b, 'find_contacts', { filter: filters[1], limit: 10, columns: ['country'] }),
      ]),
    );
    const want = await Promise.all(
      filters.map(
        async (filter) =>
          (
            await app.request('POST', '/v1/contacts/search', {
              key: restKey,
              body: { filter, limit: 10, columns: ['country'] },
            })
          ).body.data,
      ),
    );
    rounds.forEach((res, i) => {
      expect(res.isError).toBeUndefined();
      expect(res.structuredContent.data.map((r: Record<string, unknown>) => unlabelRow('contact', r))).toEqual(
        want[i % 2],
      );
    });
  });
});

describe('labels', () => {
  it('labelRow and unlabelRow are inverse and keep unknown keys', () => {
    const row = { id: 'per_1', company_domain: 'acme.com', work_email: 'a@acme.com', not_a_column: 1 };
    const labelled = labelRow('contact', row);
    expect(labelled).toEqual({
      'Contact ID': 'per_1',
      'Company Domain': 'acme.com',
      'Work Email': 'a@acme.com',
      not_a_column: 1,
    });
    expect(unlabelRow('contact', labelled)).toEqual(row);
  });
});
