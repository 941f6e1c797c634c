import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { type Entity, FAMILY_B_PARAMS, filterKeysOf, LISTS, publicColumns } from '../../src/domain/catalog/index.js';
import { ERROR_CATALOG } from '../../src/domain/errors/index.js';
import { WHERE_MAX_DEPTH, WHERE_MAX_IN_VALUES, WHERE_MAX_LEAVES } from '../../src/domain/query/limits.js';
import { INLINE_ENUM_MAX } from '../../src/mcp/filter-schema.js';
import { exampleInput } from '../../src/operations/examples/index.js';
import { MCP_ONLY_OPERATIONS, OPERATIONS } from '../../src/operations/index.js';
import type { Operation } from '../../src/operations/types.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { ajv07, ajv2020, outputProblems, precompile, problems } from './schema-check.js';

type Json = Record<string, any>;
type Result = { isError?: boolean; structuredContent?: any };

let app: TestApp;
let client: Client;
let tools: Tool[];
const byName = (name: string) => tools.find((t) => t.name === name)!;

beforeAll(async () => {
  app = await startTestApp({ contacts: 400, companies: 60, seed: 7 });
  const { apiKey } = await app.createAccount('pro');
  client = new Client({ name: 'tool-schemas', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }),
  );
  tools = (await client.listTools()).tools;
  await precompile(tools);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

const mcpOps = [...OPERATIONS, ...MCP_ONLY_OPERATIONS].filter((op) => op.mcp);
const toolOf = (op: Operation) => byName(op.mcp!.tool);
const entries = (op: Operation) => (op.input as unknown as { entries?: Record<string, unknown> }).entries ?? {};
/** Family A tools taking a `filter`, with the entity it filters (from the operation table, not a list here). */
const familyAFilterOps = () =>
  mcpOps
    .filter((op) => op.family === 'A' && 'filter' in entries(op))
    .map((op) => ({ op, entity: (/compan/.test(op.path) ? 'company' : 'contact') as Entity }));
/** Family B tools taking the flat filters. */
const familyBFilterOps = () => mcpOps.filter((op) => op.family === 'B' && 'job_titles' in entries(op));
const filterOf = (tool: Tool) => (tool.inputSchema.properties as Json).filter as Json;

describe('every tool schema is valid JSON Schema', () => {
  it('lists 32 or more tools, each with an input and an output schema of type object', () => {
    expect(tools.length).toBeGreaterThanOrEqual(32);
    for (const t of tools) {
      expect({ name: t.name, input: t.inputSchema.type, output: t.outputSchema?.type }).toEqual({
        name: t.name,
        input: 'object',
        output: 'object',
      });
    }
  });

  it('compiles under ajv strict mode, draft-07 and draft 2020-12', async () => {
    const failures: string[] = [];
    for (const t of tools) {
      for (const [draft, ajv] of [
        ['draft-07', ajv07],
        ['2020-12', ajv2020],
      ] as const) {
        for (const which of ['inputSchema', 'outputSchema'] as const) {
          try {
            ajv.compile(t[which] as object);
          } catch (e) {
            failures.push(`${t.name} ${which} (${draft}): ${(e as Error).message.slice(0, 200)}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The app serves from this process: let its timers run (idle keep-alive sockets close) after the long compile, so
    // the next call does not pick a socket the server is closing.
    await new Promise((r) => setTimeout(r, 200));
  });
});

describe('portable input schemas', () => {
  it('every input schema gives one type per schema (no type arrays a single-type dialect would refuse)', () => {
    const withArrays = tools.filter((t) => /"type":\[/.test(JSON.stringify(t.inputSchema))).map((t) => t.name);
    expect(withArrays).toEqual([]);
  });
});

describe('annotations, costs and quotes', () => {
  it('every tool states its four hints truthfully, its cost, and a dry_run quote where it spends', () => {
    const failures: string[] = [];
    for (const op of mcpOps) {
      const t = toolOf(op);
      const a = t.annotations ?? {};
      const hints = [a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint];
      if (!hints.every((h) => typeof h === 'boolean')) failures.push(`${t.name}: a hint is missing`);
      if (!t.description?.includes(`Cost: ${op.cost}.`)) failures.push(`${t.name}: no cost in the description`);
      // Spending changes the account (credits), and a second call spends again.
      if (op.spends && (a.readOnlyHint || a.idempotentHint))
        failures.push(`${t.name}: spends, yet read-only or idempotent`);
      if (a.readOnlyHint && a.destructiveHint) failures.push(`${t.name}: read-only and destructive`);
      if (a.destructiveHint !== (op.method === 'DELETE')) failures.push(`${t.name}: destructive is not "deletes"`);
      if (op.spends) {
        const dry = (t.inputSchema.properties as Json).dry_run;
        if (!dry || !/dry_run: true/.test(t.description ?? ''))
          failures.push(`${t.name}: spends without a dry_run quote`);
      }
    }
    expect(failures).toEqual([]);
    // Only collecting signals reads outside the service's own data (the network source).
    expect(tools.filter((t) => t.annotations?.openWorldHint).map((t) => t.name)).toEqual(['collect_signals']);
  });
});

describe('typed filters: every catalog key is in the schema', () => {
  it('family A: every contact and company filter key, and where, in each filter-taking tool', () => {
    const ops = familyAFilterOps();
    expect(ops.map((o) => o.op.mcp!.tool)).toEqual(
      expect.arrayContaining(['count_matches', 'find_contacts', 'start_export', 'count_companies', 'find_companies']),
    );
    for (const { op, entity } of ops) {
      const filter = filterOf(toolOf(op));
      const keys = Object.keys(filter.properties).sort();
      expect({ tool: op.mcp!.tool, keys }).toEqual({
        tool: op.mcp!.tool,
        keys: [...filterKeysOf(entity).map((d) => d.key), 'where'].sort(),
      });
      expect(filter.additionalProperties).toBe(false);
      for (const def of filterKeysOf(entity)) {
        const s = filter.properties[def.key];
        expect(typeof s.description).toBe('string');
        if (def.type === 'list') {
          expect({ key: def.key, type: s.type, maxItems: s.maxItems }).toEqual({
            key: def.key,
            type: 'array',
            maxItems: def.maxValues,
          });
          const list = def.list ? LISTS[def.list] : undefined;
          if (list && !list.fromData && list.values.length <= INLINE_ENUM_MAX) {
            expect(s.items.enum).toEqual(list.values.map((v) => v.slug));
          } else if (list) {
            // Too long to inline (or read from the data): the description names the tool that lists the values.
            expect(s.description).toMatch(/get_values/);
            if (list.values.length) expect(s.items.examples.length).toBeGreaterThan(0);
          }
        }
        if (def.type === 'month') expect(s.pattern).toBe('^\\d{4}-(0[1-9]|1[0-2])$');
        if (def.type === 'integer') expect(s.type).toBe('integer');
        if (def.type === 'boolean') expect(s.type).toBe('boolean');
      }
    }
  });

  it('family B: every flat filter at the top level and in filters, with closed values as enum', () => {
    const ops = familyBFilterOps();
    expect(ops.map((op) => op.mcp!.tool)).toEqual(
      expect.arrayContaining(['search_contacts', 'count_contacts', 'export_contacts']),
    );
    for (const op of ops) {
      const props = toolOf(op).inputSchema.properties as Json;
      for (const def of FAMILY_B_PARAMS) {
        expect({
          tool: op.mcp!.tool,
          name: def.name,
          top: !!props[def.name],
          nested: !!props.filters.properties[def.name],
        }).toEqual({ tool: op.mcp!.tool, name: def.name, top: true, nested: true });
        if (def.allowed?.length) {
          const one = def.type === 'string[]' ? props[def.name].anyOf[1] : props[def.name];
          expect(one.enum).toEqual(def.allowed);
        }
      }
    }
  });
});

describe('the values tools', () => {
  it('get_values takes each column its enum lists, and every filter key names a column of that enum', async () => {
    const columns = (byName('get_values').inputSchema.properties as Json).column.enum as string[];
    expect(columns).toEqual(expect.arrayContaining(['country', 'industries', 'seniority', 'skills']));
    const failures: string[] = [];
    for (const column of columns) {
      const res = (await client.callTool({ name: 'get_values', arguments: { column, limit: 3 } })) as Result;
      if (res.isError) failures.push(`${column}: ${JSON.stringify(res.structuredContent)}`);
    }
    for (const { op } of familyAFilterOps()) {
      for (const [key, s] of Object.entries(filterOf(toolOf(op)).properties as Json)) {
        const named = /get_values tool with column "([a-z_]+)"/.exec(String(s.description))?.[1];
        if (named && !columns.includes(named)) failures.push(`${op.mcp!.tool}.${key} names column ${named}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('get_available_values takes every family B filter by name', () => {
    const names = (byName('get_available_values').inputSchema.properties as Json).filter.enum;
    expect(names).toEqual(FAMILY_B_PARAMS.map((d) => d.name));
  });
});

describe('the where tree', () => {
  const v = (filter: unknown) => problems(byName('count_matches').inputSchema, { filter });
  const leaf = { field: 'country', op: 'eq', value: 'us' };
  const nest = (depth: number): Json => (depth === 0 ? leaf : { and: [nest(depth - 1)] });

  it(`takes ${WHERE_MAX_DEPTH} nested groups and refuses ${WHERE_MAX_DEPTH + 1}`, () => {
    expect(v({ where: nest(WHERE_MAX_DEPTH) })).toEqual([]);
    expect(v({ where: nest(WHERE_MAX_DEPTH + 1) })).not.toEqual([]);
  });

  it('bounds groups, in lists and what each column takes', () => {
    const many = (n: number) => Array.from({ length: n }, () => leaf);
    expect(v({ where: { or: many(WHERE_MAX_LEAVES) } })).toEqual([]);
    expect(v({ where: { or: many(WHERE_MAX_LEAVES + 1) } })).not.toEqual([]);
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
    expect(v({ where: { field: 'title', op: 'in', value: values(WHERE_MAX_IN_VALUES) } })).toEqual([]);
    expect(v({ where: { field: 'title', op: 'in', value: values(WHERE_MAX_IN_VALUES + 1) } })).not.toEqual([]);
    // A number column takes numbers and no contains; a boolean column eq and neq; a record contains and exists.
    expect(v({ where: { field: 'company_employee_count', op: 'gte', value: 50 } })).toEqual([]);
    expect(v({ where: { field: 'company_employee_count', op: 'gte', value: 'fifty' } })).not.toEqual([]);
    expect(v({ where: { field: 'company_employee_count', op: 'contains', value: 5 } })).not.toEqual([]);
    expect(v({ where: { field: 'has_phone', op: 'gt', value: true } })).not.toEqual([]);
    expect(v({ where: { field: 'experience', op: 'contains', value: 'engineer' } })).toEqual([]);
    expect(v({ where: { field: 'experience', op: 'eq', value: 'engineer' } })).not.toEqual([]);
    // exists needs no value; every other operator does; in takes a list and eq does not.
    expect(v({ where: { field: 'mobile_phone', op: 'exists' } })).toEqual([]);
    expect(v({ where: { field: 'title', op: 'eq' } })).not.toEqual([]);
    expect(v({ where: { field: 'title', op: 'in', value: 'cto' } })).not.toEqual([]);
    expect(v({ where: { field: 'title', op: 'eq', value: ['cto'] } })).not.toEqual([]);
    // Unknown fields and members, and a node with two groups.
    expect(v({ where: { field: 'no_such_column', op: 'eq', value: 'x' } })).not.toEqual([]);
    expect(v({ where: { ...leaf, extra: 1 } })).not.toEqual([]);
    expect(v({ where: { and: [leaf], or: [leaf] } })).not.toEqual([]);
    expect(v({ where: { not: { or: [leaf, { field: 'signals', op: 'in', value: ['founder'] }] } } })).toEqual([]);
  });

  it('names every public column of its entity as a leaf field', () => {
    for (const [tool, entity] of [
      ['count_matches', 'contact'],
      ['count_companies', 'company'],
    ] as const) {
      const defs = byName(tool).inputSchema.$defs as Json;
      expect(defs[`where_${entity}_leaf`].properties.field.enum.sort()).toEqual(
        publicColumns(entity)
          .map((c) => c.name)
          .sort(),
      );
    }
  });
});

describe('examples and wrong input', () => {
  it("each tool's documented example validates against its input schema", () => {
    const failures: string[] = [];
    let checked = 0;
    for (const op of mcpOps) {
      for (const ex of op.examples ?? []) {
        checked++;
        const p = problems(toolOf(op).inputSchema, exampleInput(ex));
        if (p.length) failures.push(`${op.mcp!.tool} "${ex.summary}": ${p.join('; ')}`);
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });

  it('a wrong type is refused by every tool that takes a member, and an unknown member by every closed schema', () => {
    const failures: string[] = [];
    for (const op of mcpOps) {
      const tool = toolOf(op);
      const base = op.examples?.[0] ? exampleInput(op.examples[0]) : {};
      const props = (tool.inputSchema.properties ?? {}) as Json;
      for (const [name, s] of Object.entries(props)) {
        // An object where a scalar or a list is expected.
        if (s.type === 'object' || s.anyOf?.some((a: Json) => a.type === 'object')) continue;
        if (problems(tool.inputSchema, { ...base, [name]: { wrong: true } }).length === 0)
          failures.push(`${tool.name}.${name} took an object`);
      }
      if (
        tool.inputSchema.additionalProperties === false &&
        problems(tool.inputSchema, { ...base, zz_unknown: 1 }).length === 0
      )
        failures.push(`${tool.name} took an unknown member`);
    }
    expect(failures).toEqual([]);
  });

  it('a wrong filter key or value type is refused by the schema and by the tool alike', async () => {
    const cases: Array<[string, Json]> = [
      ['count_matches', { filter: { countrys: ['us'] } }],
      ['count_matches', { filter: { countries: 'us' } }],
      ['count_matches', { filter: { seniority: ['boss'] } }],
      ['count_matches', { filter: { employee_count_min: '50' } }],
      ['count_matches', { filter: { last_round_after: '2024' } }],
      ['count_matches', { filter: {}, limt: 5 }],
      ['count_companies', { filter: { headcount_bands: ['huge'] } }],
      ['count_contacts', { job_titlez: ['cto'] }],
      ['count_contacts', { filters: { seniority: ['Boss'] } }],
      ['count_contacts', { require_phone: 'yes' }],
      ['find_contacts', { filter: {}, limit: 'ten' }],
    ];
    const failures: string[] = [];
    for (const [name, args] of cases) {
      const schemaSays = problems(byName(name).inputSchema, args);
      const res = (await client.callTool({ name, arguments: args })) as Result;
      if (schemaSays.length === 0 || !res.isError)
        failures.push(
          `${name} ${JSON.stringify(args)}: schema ${schemaSays.length ? 'refused' : 'took'}, tool ${res.isError ? 'refused' : 'took'}`,
        );
    }
    expect(failures).toEqual([]);
  });

  it('what the schema takes the tool takes: enum values of every closed family A list key count without error', async () => {
    const failures: string[] = [];
    for (const { op, entity } of familyAFilterOps().filter((o) => /count/.test(o.op.mcp!.tool))) {
      const filter = filterOf(toolOf(op));
      for (const def of filterKeysOf(entity)) {
        const s = filter.properties[def.key];
        const value = s.items?.enum ?? s.items?.examples;
        if (!value) continue;
        const args = { filter: { [def.key]: value.slice(0, 5) } };
        expect(problems(toolOf(op).inputSchema, args)).toEqual([]);
        const res = (await client.callTool({ name: op.mcp!.tool, arguments: args })) as Result;
        if (res.isError) failures.push(`${op.mcp!.tool} ${def.key}: ${JSON.stringify(res.structuredContent)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe('structured results validate against the output schema', () => {
  it('rows with every column, paging, dry-run quotes and errors', async () => {
    const calls: Array<[string, Json]> = [
      ['find_contacts', { filter: {}, columns: ['*'], limit: 20 }],
      ['find_contacts', { filter: {}, limit: 2, dry_run: true }],
      ['find_companies', { filter: {}, columns: ['*'], limit: 20 }],
      ['search_contacts', { limit: 5 }],
      ['search_contacts', { limit: 5, dry_run: true }],
      ['count_matches', { filter: { seniority: ['vp'] } }],
      ['count_contacts', { seniority: ['VP'] }],
      ['start_export', { filter: { seniority: ['vp'] }, dry_run: true }],
      ['count_matches', { filter: { countrys: ['us'] } }],
      ['get_export', { export_id: 'exp_unknown' }],
    ];
    const failures: string[] = [];
    for (const [name, args] of calls) {
      const res = (await client.callTool({ name, arguments: args })) as Result;
      failures.push(...outputProblems(byName(name), res));
    }
    expect(failures).toEqual([]);
    // Rows are keyed by label, as the schema's row says.
    const rowDef = (byName('find_contacts').outputSchema!.$defs as Json).row;
    const res = (await client.callTool({ name: 'find_contacts', arguments: { filter: {}, limit: 1 } })) as Result;
    expect(Object.keys(res.structuredContent.data[0])).toContain(rowDef.required[0]);
  });

  it("every catalog error code fits the error variant of every tool's output schema", () => {
    const failures: string[] = [];
    for (const t of tools)
      for (const code of Object.keys(ERROR_CATALOG)) {
        const p = outputProblems(t, { structuredContent: { code, message: 'm.', hint: 'h.' }, isError: true });
        if (p.length) failures.push(`${t.name} ${code}: ${p[0]}`);
      }
    expect(failures).toEqual([]);
  });

  it('a result outside the schema is caught (the check is not vacuous)', () => {
    const tool = byName('count_matches');
    expect(outputProblems(tool, { structuredContent: { data: { count: 'many' }, warnings: [] } })).not.toEqual([]);
    expect(outputProblems(tool, { structuredContent: { count: 3 } })).not.toEqual([]);
    expect(outputProblems(tool, { structuredContent: { code: 'filter.unknown_key' }, isError: true })).not.toEqual([]);
  });
});
