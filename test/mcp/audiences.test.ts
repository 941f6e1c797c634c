import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expectToolError } from '../helpers/errors.js';
import { allRows, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Saved audiences over MCP: save_audience, list_audiences, get_audience, and audience_id in count_matches,
 * find_contacts and start_export, through the real MCP SDK client.
 */

let app: TestApp;
let contacts: Row[];
const clients: Client[] = [];
beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 60 });
  contacts = await allRows(app, 'contacts');
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

type Result = { isError?: boolean; structuredContent?: any };

async function client(apiKey: string) {
  const c = new McpClient({ name: 'cds-test', version: '1.0.0' });
  await c.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }),
  );
  clients.push(c);
  return {
    list: () => c.listTools(),
    call: async (name: string, args: Record<string, unknown> = {}) =>
      (await c.callTool({ name, arguments: args })) as Result,
  };
}

const FILTER = { countries: ['us'] };
const inUs = () => contacts.filter((c) => c.country === 'us').length;

describe('audience tools', () => {
  it('lists the audience tools with their input schemas', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const tools = (await (await client(apiKey)).list()).tools;
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['save_audience', 'list_audiences', 'get_audience']) expect(byName.has(name)).toBe(true);
    expect(Object.keys(byName.get('save_audience')!.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['name', 'filter', 'description']),
    );
    for (const name of ['count_matches', 'find_contacts', 'start_export'])
      expect(Object.keys(byName.get(name)!.inputSchema.properties ?? {})).toContain('audience_id');
  });

  it('saves, lists and reads an audience, then uses it in count_matches, find_contacts and start_export', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const mcp = await client(apiKey);
    const saved = await mcp.call('save_audience', { name: 'US contacts', filter: FILTER });
    expect(saved.isError).toBeUndefined();
    const audience = saved.structuredContent.data;
    expect(audience).toMatchObject({ name: 'US contacts', filter: FILTER, history: [], last_count: null });
    const listed = await mcp.call('list_audiences', {});
    expect(listed.structuredContent.data.map((a: { id: string }) => a.id)).toEqual([audience.id]);
    expect(listed.structuredContent.page.total).toBe(1);

    const counted = await mcp.call('count_matches', { audience_id: audience.id });
    expect(counted.isError).toBeUndefined();
    expect(counted.structuredContent.data.count).toBe(inUs());
    const got = await mcp.call('get_audience', { id: audience.id });
    expect(got.structuredContent.data.history).toEqual([
      { release: app.services.engine.release()!.id, count: inUs(), counted_at: expect.any(String) },
    ]);

    const found = await mcp.call('find_contacts', { audience_id: audience.id, limit: 5 });
    expect(found.isError).toBeUndefined();
    expect(found.structuredContent.data).toHaveLength(Math.min(5, inUs()));
    const ids = new Set(contacts.filter((c) => c.country === 'us').map((c) => c.id));
    // Rows over MCP carry display labels as keys: the person id is the value starting per_.
    for (const r of found.structuredContent.data)
      expect(
        ids.has(Object.values(r as Record<string, unknown>).find((x) => String(x).startsWith('per_')) as string),
      ).toBe(true);

    const exported = await mcp.call('start_export', { audience_id: audience.id, dry_run: true });
    expect(exported.isError).toBeUndefined();
    expect(exported.structuredContent.data.dry_run).toBe(true);
  });

  it("refuses another account's audience (audience.not_found) and filter with audience_id (request.invalid)", async () => {
    const owner = await client((await app.createAccount('unlimited')).apiKey);
    const id = (await owner.call('save_audience', { name: 'mine', filter: FILTER })).structuredContent.data.id;
    const stranger = await client((await app.createAccount('unlimited')).apiKey);
    expectToolError(await stranger.call('get_audience', { id }), 'audience.not_found');
    expectToolError(await stranger.call('count_matches', { audience_id: id }), 'audience.not_found');
    expect((await stranger.call('list_audiences', {})).structuredContent.data).toEqual([]);
    expectToolError(await owner.call('count_matches', { audience_id: id, filter: {} }), 'request.invalid');
    expectToolError(
      await owner.call('save_audience', { name: 'bad', filter: { countries: ['atlantis'] } }),
      'filter.unknown_value',
    );
    expectToolError(await owner.call('save_audience', { name: '', filter: {} }), 'request.invalid');
  });
});
