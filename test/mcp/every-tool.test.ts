import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_CATALOG } from '../../src/domain/errors/index.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { modestProfile } from '../helpers/signal-targets.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { eventually, uploadPageClient } from '../helpers/upload-page.js';
import { outputProblems, precompile } from './schema-check.js';

type Result = { isError?: boolean; structuredContent?: any };

let app: TestApp;
let client: Client;
let rows: Row[];
let key: string;
/** The profile collect_signals collects, sized so that the pro plan's premium credits cover it. */
let author: string;
beforeAll(async () => {
  app = await startTestApp({ contacts: 1500, companies: 150, seed: 12, env: { CDS_SIGNALS_DELAY_MS: '0' } });
  key = (await app.createAccount('pro')).apiKey;
  rows = await allRows(app, 'contacts');
  author = await modestProfile(app, 'author');
  client = new Client({ name: 'every-tool', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': key } } }),
  );
});
afterAll(async () => {
  await client.close();
  await app.close();
});

/** Results whose structuredContent does not validate against the tool's outputSchema (checked with ajv here). */
const outside: string[] = [];
let listed: Tool[] = [];
const call = async (name: string, args: Record<string, unknown>) => {
  const res = (await client.callTool({ name, arguments: args })) as Result;
  const tool = listed.find((t) => t.name === name);
  outside.push(...(tool ? outputProblems(tool, res) : [`${name} is not listed`]));
  return res;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Every tool, called once with a valid input (a result that is not an error) and once with an invalid one
 * (a tool error carrying a catalog code). Tools that take no input have no invalid form; they are called
 * with unknown members, which they ignore. The list must match tools/list, so a new tool needs a line here.
 */
describe('every MCP tool: valid and invalid input', () => {
  it('covers every listed tool', async () => {
    listed = (await client.listTools()).tools;
    await precompile(listed);
    expect(listed.map((t) => t.name).sort()).toEqual(Object.keys(CASES()).sort());
  });

  it('answers each valid call and refuses each invalid one with a catalog code', async () => {
    const cases = CASES();
    const state: Record<string, string> = {};
    const problems: string[] = [];
    // Order matters: starting a job comes before reading it.
    for (const name of Object.keys(cases)) {
      const c = cases[name]!;
      await c.before?.(state);
      const ok = await call(name, typeof c.valid === 'function' ? c.valid(state) : c.valid);
      if (ok.isError) problems.push(`${name} valid -> ${JSON.stringify(ok.structuredContent).slice(0, 200)}`);
      else c.after?.(ok.structuredContent, state);
      if (c.invalid) {
        const bad = await call(name, c.invalid);
        const code = bad.structuredContent?.code as string | undefined;
        if (!bad.isError || !code || !(code in ERROR_CATALOG) || (c.code && code !== c.code))
          problems.push(`${name} invalid -> ${JSON.stringify(bad).slice(0, 200)}`);
      }
      if (c.wait) await sleep(c.wait);
    }
    expect(problems).toEqual([]);
    // Every result, answer or error, is what the tool's outputSchema says.
    expect(outside).toEqual([]);
  }, 120_000);
});

interface Case {
  valid: Record<string, unknown> | ((s: Record<string, string>) => Record<string, unknown>);
  invalid?: Record<string, unknown>;
  code?: string;
  after?: (out: any, s: Record<string, string>) => void;
  /** Work done before the valid call (e.g. the upload page steps that make a run to read). */
  before?: (s: Record<string, string>) => Promise<void>;
  wait?: number;
}

function CASES(): Record<string, Case> {
  const r =
    rows.find((x) =>
      [x.work_email, x.network, x.mobile_phone, x.company_domain, x.first_name, x.last_name].every(has),
    ) ?? rows.find((x) => has(x.work_email) && has(x.company_domain))!;
  return {
    service_health: { valid: {} },
    get_fair_use: { valid: { unexpected: 1 } },
    service_contacts_health: { valid: {} },
    get_available_columns: { valid: {} },
    create_csv_enrichment_upload_link: {
      valid: {},
      after: (out, s) => {
        s.upload_id = out.upload_id;
        s.upload_url = out.upload_url;
      },
    },
    check_enrichment_upload: {
      valid: (s) => ({ upload_id: s.upload_id }),
      invalid: { upload_id: 'upl_unknown' },
      code: 'upload.not_found',
    },
    check_enrichment_status: {
      before: async (s) => {
        const page = uploadPageClient(s.upload_url!);
        const up = await page.file(`Work email\r\n${r.work_email}\r\n`);
        s.run_id = (await page.post('start', { mapping: up.body.mapping })).body.run_id;
      },
      valid: (s) => ({ run_id: s.run_id }),
      invalid: { run_id: 'enr_unknown' },
      code: 'enrichment_run.not_found',
    },
    get_enrichment_result: {
      before: async (s) => {
        await eventually(async () =>
          (await app.services.state.getJob(s.run_id!))?.status === 'completed' ? true : undefined,
        );
      },
      valid: (s) => ({ run_id: s.run_id }),
      invalid: { run_id: 'enr_unknown' },
      code: 'enrichment_run.not_found',
    },
    count_matches: {
      valid: { filter: { countries: ['us'] } },
      invalid: { filter: { seniority: ['boss'] } },
      code: 'filter.unknown_value',
    },
    find_contacts: { valid: { filter: {}, limit: 3 }, invalid: { filter: {}, limit: 0 }, code: 'request.invalid' },
    save_audience: {
      valid: { name: 'every tool', filter: { seniority: ['vp'] } },
      invalid: { name: 'every tool', filter: { countrys: ['us'] } },
      code: 'filter.unknown_key',
      after: (out, s) => {
        s.audience_id = out.data.id;
      },
    },
    list_audiences: { valid: {}, invalid: { limit: 0 }, code: 'request.invalid' },
    get_audience: {
      valid: (s) => ({ id: s.audience_id }),
      invalid: { id: 'aud_unknown' },
      code: 'audience.not_found',
    },
    get_values: { valid: { column: 'seniority' }, invalid: { column: 'nope' }, code: 'column.not_found' },
    count_companies: { valid: { filter: {} }, invalid: { filter: { nope: 1 } }, code: 'filter.unknown_key' },
    find_companies: { valid: { filter: {}, limit: 2 }, invalid: { filter: {}, limit: 0 }, code: 'request.invalid' },
    get_companies: { valid: { inputs: [r.company_domain] }, invalid: { inputs: [] }, code: 'request.invalid' },
    enrich_contact: {
      valid: { inputs: [r.work_email] },
      invalid: { inputs: ['a@b.com'], mode: 'refresh' },
      code: 'enrich.mode_unavailable',
    },
    count_contacts: { valid: { countries: ['us'] }, invalid: { seniority: ['Boss'] }, code: 'filter.unknown_value' },
    search_contacts: {
      valid: { countries: ['us'], limit: 5 },
      invalid: { where_sql: 'DROP TABLE contacts' },
      code: 'request.invalid',
    },
    get_available_values: { valid: { filter: 'seniority' }, invalid: { filter: 'nope' }, code: 'filter.unknown_key' },
    service_get_emails_from_network_batch: {
      valid: { items: [{ network_url: r.network ?? 'https://www.network.com/in/x' }] },
      invalid: { items: Array.from({ length: 101 }, () => ({ network_url: 'x' })) },
      code: 'request.invalid',
    },
    service_get_network_urls_from_emails_batch: {
      valid: { items: [{ email: r.work_email }] },
      invalid: { items: [{}] },
      code: 'request.invalid',
    },
    service_enrich_person_batch: {
      valid: {
        items: [{ first_name: r.first_name ?? 'A', last_name: r.last_name ?? 'B', company_domain: r.company_domain }],
      },
      invalid: { items: [{ first_name: 'x' }] },
      code: 'request.invalid',
    },
    service_lookup_contact_by_phone: {
      valid: { phone: r.mobile_phone ?? '+14155550100' },
      invalid: {},
      code: 'request.invalid',
    },
    service_lookup_contacts_by_phone_batch: {
      valid: { phones: [r.mobile_phone ?? '+14155550100'] },
      invalid: { phones: 'x' },
      code: 'request.invalid',
    },
    service_lookup_colleagues: { valid: { company_domain: r.company_domain }, invalid: {}, code: 'request.invalid' },
    lookup_decision_makers: {
      valid: { company_domains: [r.company_domain] },
      invalid: { company_domains: [] },
      code: 'request.invalid',
    },
    start_export: {
      valid: { filter: { countries: ['us'] }, max_rows: 20 },
      invalid: { filter: {}, format: 'xlsx' },
      code: 'request.invalid',
      after: (out, s) => (s.exportA = out.data.export_id ?? out.data.id),
      wait: 1500,
    },
    get_export: { valid: (s) => ({ id: s.exportA }), invalid: { id: 'exp_nope' }, code: 'export.not_found' },
    export_contacts: {
      valid: { countries: ['gb'], max_rows: 10 },
      invalid: { colour: 'red' },
      code: 'filter.unknown_key',
      after: (out, s) => (s.exportB = out.export_id),
      wait: 1500,
    },
    check_contact_export: {
      valid: (s) => ({ export_id: s.exportB }),
      invalid: { export_id: 'exp_nope' },
      code: 'export.not_found',
    },
    collect_signals: {
      valid: () => ({ kind: 'network_profile', target: author }),
      invalid: { kind: 'network_profile', target: 'https://example.com/x' },
      code: 'request.invalid',
      after: (out, s) => (s.collect = out.data.job.id),
    },
    get_collect: { valid: (s) => ({ id: s.collect }), invalid: { id: 'col_nope' }, code: 'collect.not_found' },
    list_signals: {
      valid: (s) => ({ source_type: 'collect', source_id: s.collect }),
      invalid: { source_type: 'bogus' },
      code: 'request.invalid',
    },
  };
}
