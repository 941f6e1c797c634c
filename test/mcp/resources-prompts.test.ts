import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { filterKeysOf, publicColumns } from '../../src/domain/catalog/index.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually } from '../helpers/upload-page.js';

let app: TestApp;
const clients: Client[] = [];

beforeAll(async () => {
  app = await startTestApp({ contacts: 300, companies: 40, seed: 3 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

async function connect(apiKey: string): Promise<Client> {
  const client = new Client({ name: 'resources-prompts', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }),
  );
  clients.push(client);
  return client;
}

async function readJson(client: Client, uri: string): Promise<any> {
  const res = await client.readResource({ uri });
  expect(res.contents).toHaveLength(1);
  const content = res.contents[0] as { uri: string; mimeType?: string; text?: string };
  expect({ uri: content.uri, mimeType: content.mimeType }).toEqual({ uri, mimeType: 'application/json' });
  return JSON.parse(content.text!);
}

describe('MCP resources', () => {
  it('advertises resources and lists the contact schema, the company schema and the credits', async () => {
    const client = await connect((await app.createAccount('pro')).apiKey);
    expect(client.getServerCapabilities()?.resources).toBeDefined();
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual(
      ['cds://account/credits', 'cds://schema/companies', 'cds://schema/contacts'].sort(),
    );
    for (const r of resources) {
      expect(r.mimeType).toBe('application/json');
      expect(r.description!.length).toBeGreaterThan(20);
    }
  });

  it('the schema resources hold every public column and every filter key of their entity', async () => {
    const client = await connect((await app.createAccount('pro')).apiKey);
    for (const [uri, entity] of [
      ['cds://schema/contacts', 'contact'],
      ['cds://schema/companies', 'company'],
    ] as const) {
      const schema = await readJson(client, uri);
      expect(schema.columns.map((c: { name: string }) => c.name).sort()).toEqual(
        publicColumns(entity)
          .map((c) => c.name)
          .sort(),
      );
      expect(schema.filter_keys.map((k: { key: string }) => k.key).sort()).toEqual(
        filterKeysOf(entity)
          .map((k) => k.key)
          .sort(),
      );
      expect(schema.notes.length).toBeGreaterThan(0);
    }
  });

  it('the credits resource is the caller’s own and follows what the caller spends', async () => {
    const a = await connect((await app.createAccount('pro')).apiKey);
    const b = await connect((await app.createAccount('pro')).apiKey);
    const before = await readJson(a, 'cds://account/credits');
    const spent = (await a.callTool({ name: 'find_contacts', arguments: { filter: {}, limit: 3 } })) as unknown as {
      structuredContent: { data: unknown[]; quota: { contact_credits_used: number } };
    };
    expect(spent.structuredContent.quota.contact_credits_used).toBe(3);
    const used = (c: any) => c.contact.day?.used ?? c.contact.pool?.used;
    expect(typeof used(before)).toBe('number');
    // The charge is settled once the answer is written out: read until it shows (bounded).
    const after = await eventually(async () => {
      const c = await readJson(a, 'cds://account/credits');
      return used(c) > used(before) ? c : undefined;
    });
    expect(used(after) - used(before)).toBe(3);
    const other = await readJson(b, 'cds://account/credits');
    expect(used(other)).toBe(used(before));
  });

  it('an unknown resource is a protocol error (-32002), not a result', async () => {
    const client = await connect((await app.createAccount('pro')).apiKey);
    await expect(client.readResource({ uri: 'cds://schema/nothing' })).rejects.toMatchObject({ code: -32002 });
  });
});

describe('MCP prompts', () => {
  it('lists the two prompts with their arguments', async () => {
    const client = await connect((await app.createAccount('pro')).apiKey);
    expect(client.getServerCapabilities()?.prompts).toBeDefined();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['build_audience_and_export', 'enrich_csv']);
    const build = prompts.find((p) => p.name === 'build_audience_and_export')!;
    expect(build.arguments?.find((a) => a.name === 'audience')?.required).toBe(true);
  });

  it('renders each prompt with its arguments, naming only tools that tools/list holds', async () => {
    const client = await connect((await app.createAccount('pro')).apiKey);
    const tools = new Set((await client.listTools()).tools.map((t) => t.name));
    // listTools compiled every outputSchema (SDK client) in this process: let the app's timers run before calling.
    await new Promise((r) => setTimeout(r, 300));
    const build = await client.getPrompt({
      name: 'build_audience_and_export',
      arguments: { audience: 'VPs of sales in Germany', max_rows: '200' },
    });
    const enrich = await client.getPrompt({ name: 'enrich_csv', arguments: { file_description: 'work emails' } });
    for (const res of [build, enrich]) {
      expect(res.messages).toHaveLength(1);
      expect(res.messages[0]!.role).toBe('user');
    }
    const buildText = (build.messages[0]!.content as { text: string }).text;
    const enrichText = (enrich.messages[0]!.content as { text: string }).text;
    expect(buildText).toContain('VPs of sales in Germany');
    expect(buildText).toContain('max_rows 200');
    expect(enrichText).toContain('work emails');
    for (const text of [buildText, enrichText]) {
      // Every snake_case word that looks like a tool name (it has a verb prefix) is a listed tool.
      const named = [
        ...text.matchAll(/\b(?:count|find|start|get|check|create|enrich|service|list|lookup)_[a-z_]+\b/g),
      ].map((m) => m[0]);
      expect(named.length).toBeGreaterThan(3);
      expect(named.filter((n) => !tools.has(n))).toEqual([]);
    }
    for (const name of ['count_matches', 'find_contacts', 'start_export', 'get_export'])
      expect(buildText).toContain(name);
    for (const name of ['create_csv_enrichment_upload_link', 'check_enrichment_upload', 'get_enrichment_result'])
      expect(enrichText).toContain(name);
  });

  it('refuses an unknown prompt and a missing required argument with -32602', async () => {
    const client = await connect((await app.createAccount('pro')).apiKey);
    await expect(client.getPrompt({ name: 'no_such_prompt' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.getPrompt({ name: 'build_audience_and_export', arguments: {} })).rejects.toMatchObject({
      code: -32602,
    });
  });
});
