import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expectError } from '../helpers/errors.js';
import { mcpTools } from '../helpers/mcp-tools.js';
import { allRows, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** GET /v1/{contacts,companies}/schema/{column}/values?sort=count|value, checked against the stored rows. */

let app: TestApp;
let key: string;
let contacts: Row[];
let companies: Row[];
beforeAll(async () => {
  app = await startTestApp();
  key = (await app.createAccount('free')).apiKey;
  contacts = await allRows(app, 'contacts');
  companies = await allRows(app, 'companies');
});
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await app.close();
});

type Value = { value: string; label: string; count: number };

function countsOf(rows: Row[], column: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) {
    const v = r[column];
    for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string' && x !== '') m.set(x, (m.get(x) ?? 0) + 1);
  }
  return m;
}

describe('values sort', () => {
  it('sort=count lists countries most held first, each with its count of contacts', async () => {
    const res = await app.request('GET', '/v1/contacts/schema/country/values?sort=count&limit=1000', { key });
    expect(res.status).toBe(200);
    const values = res.body.data.values as Value[];
    const want = countsOf(contacts, 'country');
    const top = [...want].sort((a, b) => b[1] - a[1])[0]!;
    expect(values[0]).toMatchObject({ value: top[0], count: top[1] });
    for (let i = 1; i < values.length; i++) expect(values[i - 1]!.count).toBeGreaterThanOrEqual(values[i]!.count);
    for (const v of values) expect(v.count).toBe(want.get(v.value) ?? 0);
    // The demo data's largest country is among the first shown (not buried in code order).
    const plain = await app.request('GET', '/v1/contacts/schema/country/values?limit=1000', { key });
    expect((plain.body.data.values as Value[]).map((v) => v.value).sort()).toEqual(values.map((v) => v.value).sort());
  });

  it('sort=count applies after q and before limit; the default order is unchanged', async () => {
    const res = await app.request('GET', '/v1/contacts/schema/seniority/values?sort=count&limit=3', { key });
    const all = await app.request('GET', '/v1/contacts/schema/seniority/values?limit=100', { key });
    const want = (all.body.data.values as Value[]).slice().sort((a, b) => b.count - a.count);
    expect((res.body.data.values as Value[]).map((v) => v.count)).toEqual(want.slice(0, 3).map((v) => v.count));
    expect(res.body.data.truncated).toBe(true);
    const def = await app.request('GET', '/v1/contacts/schema/seniority/values?limit=100', { key });
    expect(def.body.data.values).toEqual(all.body.data.values);
  });

  it('sort=value orders by value; data-derived lists too', async () => {
    for (const column of ['industries', 'skills']) {
      const res = await app.request('GET', `/v1/contacts/schema/${column}/values?sort=value&limit=50`, { key });
      expect(res.status).toBe(200);
      const values = (res.body.data.values as Value[]).map((v) => v.value);
      expect(values.length).toBeGreaterThan(3);
      expect(values).toEqual(values.slice().sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    const skills = countsOf(contacts, 'skills');
    const res = await app.request('GET', '/v1/contacts/schema/skills/values?sort=value&limit=1000', { key });
    expect((res.body.data.values as Value[]).map((v) => [v.value, v.count])).toEqual(
      [...skills].sort((a, b) => (a[0] < b[0] ? -1 : 1)).slice(0, 1000),
    );
  });

  it('companies: sort=count by the companies holding the value', async () => {
    const res = await app.request('GET', '/v1/companies/schema/hq_country/values?sort=count&limit=1000', { key });
    expect(res.status).toBe(200);
    const values = res.body.data.values as Value[];
    const want = countsOf(companies, 'hq_country');
    for (let i = 1; i < values.length; i++) expect(values[i - 1]!.count).toBeGreaterThanOrEqual(values[i]!.count);
    for (const v of values) expect(v.count).toBe(want.get(v.value) ?? 0);
    expect(values[0]!.count).toBe(Math.max(...want.values()));
  });

  it('MCP get_values takes sort=count as the route does', async () => {
    const tools = await mcpTools(app, key, clients);
    const res = await tools('get_values', { column: 'country', sort: 'count', limit: 3 });
    const rest = await app.request('GET', '/v1/contacts/schema/country/values?sort=count&limit=3', { key });
    expect(res.data.values).toEqual(rest.body.data.values);
  });

  it('refuses another sort with request.invalid', async () => {
    const res = await app.request('GET', '/v1/contacts/schema/country/values?sort=popularity', { key });
    expectError(res, 400, 'request.invalid');
    expect(JSON.stringify(res.body.error)).toContain('sort');
  });
});
