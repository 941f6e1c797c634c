import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { parseCsv } from '../helpers/csv.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { outputProblems, precompile, problems } from './schema-check.js';

/**
 * An agent that knows nothing but tools/list: it builds its filter from the values the input schema lists (enum,
 * examples), checks each call against the input schema before sending it, reads every answer by the names the
 * output schema gives (data, page.next_cursor, the row id's label, export_id, status, url) and checks it against
 * that schema. No filter key, value or answer member comes from a constant of this test.
 */
let app: TestApp;
let client: Client;
let tools: Tool[];

beforeAll(async () => {
  app = await startTestApp({ contacts: 600, companies: 80, seed: 21 });
  const { apiKey } = await app.createAccount('pro');
  client = new Client({ name: 'schema-only-agent', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }),
  );
});
afterAll(async () => {
  await client.close();
  await app.close();
});

type Json = Record<string, any>;

/** A tool by name, as tools/list holds it. */
const tool = (name: string): Tool => {
  const t = tools.find((x) => x.name === name);
  if (!t) throw new Error(`tools/list has no ${name}`);
  return t;
};

/** The answer variant of an output schema (the first of anyOf; the others are the quote and the error). */
const answerOf = (t: Tool): Json => (t.outputSchema!.anyOf as Json[])[0]!;

/** Calls a tool the way a careful agent does: arguments checked against the input schema, answer against the output. */
async function use(name: string, args: Json): Promise<Json> {
  const t = tool(name);
  expect({ name, args: problems(t.inputSchema, args) }).toEqual({ name, args: [] });
  const res = (await client.callTool({ name, arguments: args })) as { isError?: boolean; structuredContent?: Json };
  expect(outputProblems(t, res)).toEqual([]);
  if (res.isError) throw new Error(`${name}: ${JSON.stringify(res.structuredContent)}`);
  return res.structuredContent!;
}

it('counts an audience, pages it, exports it and reads the CSV, from the schemas alone', async () => {
  tools = (await client.listTools()).tools;
  await precompile(tools);

  // 1. Which tools: a free read-only count with a filter, a paged search, an export with its status tool.
  const count = tool('count_matches');
  expect(count.annotations?.readOnlyHint).toBe(true);
  expect(count.description).toMatch(/free/i);
  const filterSchema = (count.inputSchema.properties as Json).filter as Json;

  // 2. Candidate filters from the values the schema lists: each closed-list value of a list key, alone and with the
  //    first example of a long list (countries). The agent wants an audience of a few pages.
  const keys = filterSchema.properties as Json;
  const closed = Object.entries(keys).filter(([, s]) => Array.isArray(s.items?.enum)) as [string, Json][];
  const long = Object.entries(keys).find(([, s]) => Array.isArray(s.items?.examples)) as [string, Json];
  expect(closed.length).toBeGreaterThan(3);
  expect(long).toBeDefined();
  const candidates: Json[] = [];
  for (const [key, s] of closed)
    for (const value of s.items.enum as string[]) {
      candidates.push({ [key]: [value] });
      candidates.push({ [key]: [value], [long[0]]: [long[1].items.examples[0]] });
    }
  let chosen: { filter: Json; count: number } | undefined;
  for (const filter of candidates) {
    const answer = await use('count_matches', { filter });
    const n = answer.data.count as number;
    if (n >= 9 && n <= 40) {
      chosen = { filter, count: n };
      break;
    }
  }
  expect(chosen).toBeDefined();
  const { filter, count: total } = chosen!;

  // 3. Page through it with the search tool: page size from the schema's bounds, the cursor member from the output
  //    schema's page, rows identified by the label the row schema requires.
  const find = tool('find_contacts');
  const findProps = find.inputSchema.properties as Json;
  const limit = Math.min(4, findProps.limit.maximum as number);
  const answer = answerOf(find);
  expect(answer.properties.page.properties.next_cursor).toBeDefined();
  const cursorMember = Object.keys(findProps).find((k) => /cursor/.test(k))!;
  const idLabel = (find.outputSchema!.$defs as Json).row.required[0] as string;
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await use('find_contacts', { filter, limit, ...(cursor ? { [cursorMember]: cursor } : {}) });
    expect(page.data.length).toBeLessThanOrEqual(limit);
    seen.push(...page.data.map((row: Json) => row[idLabel] as string));
    cursor = page.page.next_cursor;
    pages++;
  } while (cursor && pages < 20);
  expect(cursor).toBeNull();
  expect(pages).toBeGreaterThanOrEqual(3);
  expect(seen).toHaveLength(total);
  expect(new Set(seen).size).toBe(total);

  // 4. Export: the quote first (dry_run, as the description offers), then the job, polled with the status tool
  //    named in the description until the state the description names.
  const start = tool('start_export');
  expect((start.inputSchema.properties as Json).dry_run).toBeDefined();
  const quote = await use('start_export', { filter, dry_run: true });
  expect(quote.data.sufficient).toBe(true);
  const started = await use('start_export', { filter });
  const exportIdMember = Object.keys(answerOf(start).properties.data.anyOf[0].properties).find(
    (k) => k === 'export_id',
  )!;
  const exportId = started.data[exportIdMember] as string;
  expect(start.description).toMatch(/completed/);
  const poll = tool('get_export');
  const idArg = (poll.inputSchema.required as string[])[0]!;
  let job: Json = {};
  for (let i = 0; i < 100; i++) {
    job = (await use('get_export', { [idArg]: exportId })).data;
    if (job.status === 'completed' || job.status === 'failed') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(job.status).toBe('completed');
  expect(job.rows_exported).toBe(total);

  // 5. The result link: a CSV with a header and one line per contact.
  const link = new URL(job.url as string, app.url);
  const csv = await fetch(link);
  expect(csv.status).toBe(200);
  const records = parseCsv(await csv.text()).filter((r) => r.some((cell) => cell !== ''));
  expect(records).toHaveLength(total + 1);
  const idColumn = records[0]!.indexOf('id');
  expect(idColumn).toBeGreaterThanOrEqual(0);
  expect(new Set(records.slice(1).map((r) => r[idColumn]))).toEqual(new Set(seen));
}, 120_000);

it('family B: counts, pages by offset, exports and reads the CSV, from the schemas alone', async () => {
  tools ??= (await client.listTools()).tools;
  await precompile(tools);

  // Candidate filters: each value of each top-level filter whose schema lists fixed values (the enum of its list form).
  const count = tool('count_contacts');
  expect(count.annotations?.readOnlyHint).toBe(true);
  const props = count.inputSchema.properties as Json;
  const fixed = Object.entries(props).filter(([, s]) => Array.isArray(s.anyOf?.[0]?.items?.enum)) as [string, Json][];
  expect(fixed.length).toBeGreaterThan(3);
  const countMember = Object.keys(answerOf(count).properties).find((k) => answerOf(count).properties[k].anyOf)!;
  let chosen: { filters: Json; count: number } | undefined;
  outer: for (const [name, s] of fixed)
    for (const value of s.anyOf[0].items.enum as string[]) {
      const n = (await use('count_contacts', { [name]: [value] }))[countMember] as number;
      if (n >= 9 && n <= 40) {
        chosen = { filters: { [name]: [value] }, count: n };
        break outer;
      }
    }
  expect(chosen).toBeDefined();
  const { filters, count: total } = chosen!;

  // Offset paging: the next offset is the answer's next_offset, null at the end.
  const search = tool('search_contacts');
  const limit = 5;
  expect(answerOf(search).properties.next_offset).toBeDefined();
  const rowsMember = Object.keys(answerOf(search).properties).find(
    (k) => answerOf(search).properties[k].items?.$ref === '#/$defs/row',
  )!;
  const idLabel = (search.outputSchema!.$defs as Json).row.required[0] as string;
  const seen: string[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const page = await use('search_contacts', { filters, limit, offset });
    seen.push(...page[rowsMember].map((row: Json) => row[idLabel] as string));
    offset = page.next_offset;
  }
  expect(seen).toHaveLength(total);
  expect(new Set(seen).size).toBe(total);

  // Export: quote, start, poll the status tool until its completed state, read the link.
  const quote = await use('export_contacts', { filters, dry_run: true });
  expect(quote.sufficient).toBe(true);
  const started = await use('export_contacts', { filters });
  const poll = tool('check_contact_export');
  const idArg = (poll.inputSchema.required as string[])[0]!;
  let job: Json = {};
  for (let i = 0; i < 100; i++) {
    job = await use('check_contact_export', { [idArg]: started[idArg] });
    if (job.job_status === 'completed' || job.job_status === 'failed') break;
    await new Promise((r) => setTimeout(r, 200));
  }
  expect(poll.description).toMatch(/completed/);
  expect(job.job_status).toBe('completed');
  const csv = await fetch(new URL(job.export_url as string, app.url));
  expect(csv.status).toBe(200);
  const records = parseCsv(await csv.text()).filter((r) => r.some((cell) => cell !== ''));
  expect(records).toHaveLength(total + 1);
  // Family B CSVs head their columns with display labels, as MCP rows are keyed.
  const idColumn = records[0]!.indexOf(idLabel);
  expect(idColumn).toBeGreaterThanOrEqual(0);
  expect(new Set(records.slice(1).map((r) => r[idColumn]))).toEqual(new Set(seen));
}, 120_000);
