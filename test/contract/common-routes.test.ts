import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ErrorCode } from '../../src/domain/errors/index.js';
import { OPERATIONS } from '../../src/operations/index.js';
import type { Operation } from '../../src/operations/types.js';
import { completedEnrichmentRun } from '../helpers/enrichment-run.js';
import { expectError, expectToolError } from '../helpers/errors.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { modestProfile } from '../helpers/signal-targets.js';
import { type ApiResponse, startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * One table of route tests over the operation table: every operation that takes a key answers 401 without one
 * and with a revoked one; every spending operation answers 403 account.suspended for a suspended account (and
 * every free one keeps working); every operation that charges credits answers 402 when none are left; every
 * operation that reads an id answers 404 for another account's id. A new operation needs a line in EXAMPLES
 * (a valid input), or the coverage test fails.
 */

const OPERATOR = 'route-table-operator-0123456789abcdef';
const BROKE = {
  name: 'Broke',
  contact: { kind: 'windows', daily: 0, monthly: 0 },
  premiumMonthly: 0,
  alerts: true,
  maxActiveAlerts: 100,
};

/** An unlimited plan whose search fair use is nearly spent: 3 rows a day (export and enrich untouched). */
const TIGHT = {
  name: 'Tight',
  contact: {
    kind: 'unlimited',
    fairUse: {
      search: { daily: 3, monthly: 1000 },
      export: { daily: 1000, monthly: 1000 },
      enrich: { daily: 1000, monthly: 1000 },
    },
  },
  premiumMonthly: 0,
  alerts: false,
  maxActiveAlerts: 0,
};

let app: TestApp;
let rows: Row[];
/** A contact with every identifier the lookup examples need. */
let r: Row;
/** A stored company, for the company lookup. */
let company: Row;
beforeAll(async () => {
  app = await startTestApp({
    contacts: 800,
    companies: 120,
    seed: 21,
    // Webhook endpoints of the table point at loopback (nothing listens there; no case waits for a delivery).
    env: { CDS_ADMIN_TOKEN: OPERATOR, CDS_SIGNALS_DELAY_MS: '0', CDS_WEBHOOK_ALLOW_HOSTS: '127.0.0.1' },
    plans: { broke: BROKE, tight: TIGHT },
  });
  rows = await allRows(app, 'contacts');
  company = (await allRows(app, 'companies')).find((x) => has(x.domain))!;
  r = rows.find((x) => [x.work_email, x.network, x.mobile_phone, x.company_domain, x.first_name].every(has))!;
  for (const name of Object.keys(profile) as (keyof typeof profile)[]) profile[name] = await modestProfile(app, name);
});

/** The network profiles the signals examples name, sized so that every quote is sufficient (modestProfile). */
const profile = { collect: '', alert: '', poll: '' };
afterAll(async () => app.close());

/** A valid input of each operation; path parameters are taken from it, the rest is the body or query string. */
type Example = (ids: Record<string, string>) => Record<string, unknown>;
const EXAMPLES: Record<string, Example> = {
  'health.get': () => ({}),
  'service.health': () => ({}),
  'account.get': () => ({}),
  'credits.get': () => ({}),
  'contacts.schema': () => ({}),
  'contacts.values': () => ({ column: 'seniority' }),
  'companies.schema': () => ({}),
  'companies.values': () => ({ column: 'industries' }),
  'contacts.count': () => ({ filter: { countries: ['us'] } }),
  'contacts.search': () => ({ filter: {}, limit: 3 }),
  'companies.count': () => ({ filter: {} }),
  'companies.search': () => ({ filter: {}, limit: 2 }),
  'companies.lookup': () => ({ inputs: [company.domain] }),
  'enrichments.create': () => ({ inputs: [r.work_email] }),
  'exports.create': () => ({ filter: { countries: ['us'] }, max_rows: 5 }),
  'exports.get': (ids) => ({ id: ids.exportA ?? 'exp_none' }),
  'signals.collect': () => ({ kind: 'network_profile', target: profile.collect }),
  'signals.collect.get': (ids) => ({ id: ids.collect ?? 'col_none' }),
  'signals.list': () => ({}),
  'signals.alerts.create': () => ({ kind: 'network_profile', target: profile.alert }),
  'signals.alerts.list': () => ({}),
  'signals.alerts.get': (ids) => ({ id: ids.alert ?? 'alr_none' }),
  'signals.alerts.update': (ids) => ({ id: ids.alert ?? 'alr_none', active: true }),
  'signals.alerts.delete': (ids) => ({ id: ids.alert ?? 'alr_none' }),
  'signals.alerts.poll': (ids) => ({ id: ids.alert ?? 'alr_none' }),
  'b.contacts.search': () => ({ countries: ['us'], limit: 3 }),
  'b.contacts.count': () => ({ countries: ['us'] }),
  'b.contacts.export': () => ({ countries: ['gb'], max_rows: 5 }),
  'b.contacts.export.get': (ids) => ({ export_id: ids.exportB ?? 'exp_none' }),
  'b.filter_values': () => ({ filter: 'seniority' }),
  'b.contacts.health': () => ({}),
  'b.usage.fair_use': () => ({}),
  'b.enrich.from_network': () => ({ items: [{ network_url: r.network }] }),
  'b.enrich.from_email': () => ({ items: [{ email: r.work_email }] }),
  'b.enrich.from_person': () => ({
    items: [{ first_name: r.first_name, last_name: r.last_name ?? 'X', company_domain: r.company_domain }],
  }),
  'b.lookup.phone': () => ({ phone: r.mobile_phone }),
  'b.lookup.phones': () => ({ phones: [r.mobile_phone] }),
  'b.lookup.colleagues': () => ({ company_domain: r.company_domain }),
  'b.lookup.decision_makers': () => ({ company_domains: [r.company_domain] }),
  'b.domain_lists.create': () => ({ name: 'targets', domains: [r.company_domain] }),
  'b.domain_lists.list': () => ({}),
  'keys.list': () => ({}),
  'keys.create': () => ({ name: 'second' }),
  'keys.revoke': (ids) => ({ id: ids.key ?? 'key_none' }),
  'feedback.send': () => ({ message: 'route table' }),
  'admin.accounts.create': () => ({ plan: 'pro' }),
  'admin.accounts.get': (ids) => ({ id: ids.account ?? 'acc_none' }),
  'admin.accounts.suspend': (ids) => ({ id: ids.account ?? 'acc_none' }),
  'admin.accounts.resume': (ids) => ({ id: ids.account ?? 'acc_none' }),
  'admin.optouts.list': () => ({ type: 'email', limit: 5 }),
  'admin.optouts.add': () => ({ type: 'email', values: ['route@table.example'] }),
  'admin.optouts.remove': () => ({ type: 'email', values: ['route@table.example'] }),
  'admin.optouts.audit': () => ({ limit: 5 }),
  'enrichment_uploads.create': () => ({}),
  'enrichment_runs.list': () => ({ limit: 5 }),
  'enrichment_runs.get': (ids) => ({ id: ids.run ?? 'enr_none' }),
  'audiences.create': () => ({ name: 'route table', filter: { countries: ['us'] } }),
  'audiences.list': () => ({ limit: 5 }),
  'audiences.get': (ids) => ({ id: ids.audience ?? 'aud_none' }),
  'audiences.count': (ids) => ({ id: ids.audience ?? 'aud_none' }),
  'audiences.update': (ids) => ({ id: ids.audience ?? 'aud_none', name: 'route table, renamed' }),
  // Last of the audience's: it ends the audience the owner's cases read.
  'audiences.delete': (ids) => ({ id: ids.audience ?? 'aud_none' }),
  'requests.list': () => ({ limit: 5 }),
  'requests.get': (ids) => ({ request_id: ids.request ?? 'req_none' }),
  'webhooks.create': () => ({ url: 'http://127.0.0.1:9/route-table', events: ['export.completed'] }),
  'webhooks.list': () => ({}),
  'webhooks.get': (ids) => ({ id: ids.webhook ?? 'whk_none' }),
  'webhooks.update': (ids) => ({ id: ids.webhook ?? 'whk_none', description: 'route table' }),
  'webhooks.rotate_secret': (ids) => ({ id: ids.webhook ?? 'whk_none' }),
  'webhooks.test': (ids) => ({ id: ids.webhook ?? 'whk_none' }),
  'webhooks.deliveries': (ids) => ({ id: ids.webhook ?? 'whk_none' }),
  'webhooks.replay': (ids) => ({ id: ids.webhook ?? 'whk_none', delivery_id: ids.delivery ?? 'dlv_none' }),
  // Last of the endpoint's: it ends the endpoint the owner's cases read.
  'webhooks.delete': (ids) => ({ id: ids.webhook ?? 'whk_none' }),
};

/** Sends one operation's input the way its route takes it. */
async function call(op: Operation, input: Record<string, unknown>, key?: string): Promise<ApiResponse> {
  const rest = { ...input };
  const path = op.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = String(rest[name]);
    delete rest[name];
    return encodeURIComponent(value);
  });
  if (op.method === 'GET' || op.method === 'DELETE') {
    const query = new URLSearchParams(
      Object.entries(rest).map(([k, v]): [string, string] => [k, Array.isArray(v) ? v.join(',') : String(v)]),
    ).toString();
    return app.request(op.method, query ? `${path}?${query}` : path, key ? { key } : {});
  }
  return app.request(op.method, path, { ...(key ? { key } : {}), body: rest });
}

const keyed = OPERATIONS.filter((op) => op.auth === 'key');
const spending = keyed.filter((op) => op.spends);
const free = keyed.filter((op) => !op.spends);
const charging = keyed.filter((op) => op.charges);
const exhausted: Record<string, ErrorCode> = {
  contact: 'contact_credits.exhausted',
  premium: 'premium_credits.exhausted',
};

describe('the route table covers the operation table', () => {
  it('every operation has a valid example, and every example names an operation', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(OPERATIONS.map((op) => op.name).sort());
  });

  it('every valid example answers 2xx for an account with credits', async () => {
    const failures: string[] = [];
    for (const op of OPERATIONS) {
      // A fresh account each: one export at a time per account, one active key.
      const { apiKey, accountId } = await app.createAccount('pro');
      if (op.name === 'keys.revoke' || op.name === 'keys.create' || op.name.startsWith('admin.')) continue;
      if (/:(\w+_)?id\b/.test(op.path)) continue; // read by id: covered by the 404 table with real ids
      const res = await call(op, EXAMPLES[op.name]!({}), apiKey);
      if (res.status >= 300) failures.push(`${op.name} -> ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      expect((await app.services.state.getAccount(accountId))?.status).toBe('active');
    }
    expect(failures).toEqual([]);
  });
});

describe.each(keyed.map((op) => [op.name, op] as const))('%s', (_name, op) => {
  it('answers 401 auth.invalid_key without a key, and with a revoked key', async () => {
    expectError(await call(op, EXAMPLES[op.name]!({})), 401, 'auth.invalid_key');
    const { apiKey, accountId } = await app.createAccount('pro');
    const keyId = (await app.services.state.listKeys(accountId))[0]!.id;
    await app.services.state.revokeKey(accountId, keyId, app.clock.now());
    expectError(await call(op, EXAMPLES[op.name]!({}), apiKey), 401, 'auth.invalid_key');
  });
});

describe.each(spending.map((op) => [op.name, op] as const))('%s (spends)', (_name, op) => {
  it('answers 403 account.suspended for a suspended account', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    await app.services.state.setAccountStatus(accountId, 'suspended');
    expectError(await call(op, EXAMPLES[op.name]!({}), apiKey), 403, 'account.suspended');
  });
});

describe('free operations keep working for a suspended account', () => {
  it.each(free.map((op) => [op.name, op] as const))('%s', async (_name, op) => {
    const { apiKey, accountId } = await app.createAccount('pro');
    await app.services.state.setAccountStatus(accountId, 'suspended');
    const res = await call(op, EXAMPLES[op.name]!({}), apiKey);
    expect(res.body?.error?.code).not.toBe('account.suspended');
  });
});

describe.each(charging.map((op) => [op.name, op] as const))('%s (charges)', (_name, op) => {
  it('answers 402 when the account has no credits of its kind left', async () => {
    const { apiKey, accountId } = await app.createAccount('broke');
    const ids: Record<string, string> = {};
    if (op.name === 'signals.alerts.poll') {
      const alert = await app.services.state.createAlert(
        {
          accountId,
          kind: 'network_profile',
          target: 'https://www.network.com/in/broke',
          intervalMinutes: 60,
          maxFollowers: null,
          now: app.clock.now(),
        },
        100,
      );
      ids.alert = alert.id;
    }
    expectError(await call(op, EXAMPLES[op.name]!(ids), apiKey), 402, exhausted[op.charges!]!);
  });
});

/** Operations that read or change one of the caller's records by id, with the code a stranger's id answers. */
const BY_ID: Record<string, ErrorCode> = {
  'exports.get': 'export.not_found',
  'b.contacts.export.get': 'export.not_found',
  'signals.collect.get': 'collect.not_found',
  'signals.alerts.get': 'alert.not_found',
  'signals.alerts.update': 'alert.not_found',
  'signals.alerts.poll': 'alert.not_found',
  // Last of the alert's: it ends the alert the owner's cases above read.
  'signals.alerts.delete': 'alert.not_found',
  'enrichment_runs.get': 'enrichment_run.not_found',
  'audiences.get': 'audience.not_found',
  'audiences.count': 'audience.not_found',
  'audiences.update': 'audience.not_found',
  'audiences.delete': 'audience.not_found',
  'requests.get': 'request.not_found',
  'webhooks.get': 'webhook.not_found',
  'webhooks.update': 'webhook.not_found',
  'webhooks.rotate_secret': 'webhook.not_found',
  'webhooks.test': 'webhook.not_found',
  'webhooks.deliveries': 'webhook.not_found',
  'webhooks.replay': 'webhook.not_found',
  'webhooks.delete': 'webhook.not_found',
  'keys.revoke': 'key.not_found',
};

describe("another account's ids", () => {
  let owner: { apiKey: string; accountId: string };
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    owner = await app.createAccount('pro');
    const byName = (name: string) => OPERATIONS.find((op) => op.name === name)!;
    const made = async (name: string) => {
      const res = await call(byName(name), EXAMPLES[name]!(ids), owner.apiKey);
      expect(res.status).toBeLessThan(300);
      return res.body;
    };
    ids.exportA = (await made('exports.create')).data.export_id;
    // One export runs at a time per account: the second starts once the first has ended.
    for (let i = 0; i < 100; i++) {
      const a = await call(byName('exports.get'), { id: ids.exportA }, owner.apiKey);
      if (a.body.data.status !== 'queued' && a.body.data.status !== 'running') break;
      await new Promise((done) => setTimeout(done, 100));
    }
    ids.exportB = (await made('b.contacts.export')).export_id;
    ids.collect = (await made('signals.collect')).data.job.id;
    ids.alert = (await made('signals.alerts.create')).data.id;
    ids.audience = (await made('audiences.create')).data.id;
    ids.webhook = (await made('webhooks.create')).data.id;
    ids.delivery = (await made('webhooks.test')).data.delivery_id;
    ids.run = (await completedEnrichmentRun(app, owner.apiKey)).runId;
    // Any answered request of the owner's is in its request log once the log's buffer is written (every 250 ms).
    ids.request = (await made('account.get')).request_id;
    for (let i = 0; i < 50; i++) {
      const listed = await call(byName('requests.list'), { limit: 100 }, owner.apiKey);
      if (listed.body.data.some((e: { request_id: string }) => e.request_id === ids.request)) break;
      await new Promise((done) => setTimeout(done, 100));
    }
    ids.key = (await app.services.state.listKeys(owner.accountId))[0]!.id;
  });

  it('every operation with an id in its path is in the table', () => {
    const withId = keyed.filter((op) => /:\w+/.test(op.path) && !/:column/.test(op.path)).map((op) => op.name);
    expect(withId.sort()).toEqual(Object.keys(BY_ID).sort());
  });

  it.each(Object.entries(BY_ID))('%s answers 404 %s to a stranger, and 2xx to the owner', async (name, code) => {
    const op = OPERATIONS.find((o) => o.name === name)!;
    const stranger = await app.createAccount('pro');
    expectError(await call(op, EXAMPLES[name]!(ids), stranger.apiKey), 404, code);
    if (name === 'keys.revoke') return; // the owner's revoke would end the owner's key for the next cases
    const own = await call(op, EXAMPLES[name]!(ids), owner.apiKey);
    expect(own.status).toBeLessThan(300);
  });

  it("signals.list with another account's collect id lists nothing of it", async () => {
    const stranger = await app.createAccount('pro');
    const op = OPERATIONS.find((o) => o.name === 'signals.list')!;
    const res = await call(op, { source_type: 'collect', source_id: ids.collect }, stranger.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it("a family B search naming another account's domain list does not read it", async () => {
    const lists = OPERATIONS.find((o) => o.name === 'b.domain_lists.create')!;
    const made = await call(lists, EXAMPLES['b.domain_lists.create']!({}), owner.apiKey);
    expect(made.status).toBeLessThan(300);
    const listId = made.body.domain_list_id;
    expect(typeof listId).toBe('string');
    const stranger = await app.createAccount('pro');
    const search = OPERATIONS.find((o) => o.name === 'b.contacts.search')!;
    const res = await call(search, { domain_list_id: listId, limit: 1 }, stranger.apiKey);
    const none = await call(search, { domain_list_id: 'dl_never_made', limit: 1 }, stranger.apiKey);
    // The stranger learns nothing: the answer is the one a list that never existed gets.
    expectError(res, 400, 'request.invalid');
    expect(res.body.error.field).toBe(none.body.error.field);
    expect(res.body.error.code).toBe(none.body.error.code);
    expect((await call(search, { domain_list_id: listId, limit: 1 }, owner.apiKey)).status).toBe(200);
  });
});

describe('operator routes', () => {
  const operatorOps = OPERATIONS.filter((op) => op.auth === 'operator');
  // Each case signs in wrongly twice; a minute apart, the cases stay under the failed sign-in bound (10 a minute).
  beforeEach(() => app.clock.advance(60_001));
  it.each(operatorOps.map((op) => [op.name, op] as const))(
    '%s answers 401 without a token and 403 auth.oauth_required to an API key',
    async (_name, op) => {
      const { apiKey, accountId } = await app.createAccount('pro');
      expectError(await call(op, EXAMPLES[op.name]!({ account: accountId })), 401, 'auth.invalid_key');
      expectError(await call(op, EXAMPLES[op.name]!({ account: accountId }), apiKey), 403, 'auth.oauth_required');
      const res = await app.request(op.method, op.path.replace(':id', accountId), {
        headers: { Authorization: `Bearer ${OPERATOR}` },
        ...(op.method === 'POST' ? { body: EXAMPLES[op.name]!({ account: accountId }) } : {}),
      });
      expect(res.status).toBeLessThan(300);
    },
  );

  it('an unknown account id answers 404 account.not_found', async () => {
    const res = await app.request('GET', '/v1/admin/accounts/acc_nobody', {
      headers: { Authorization: `Bearer ${OPERATOR}` },
    });
    expectError(res, 404, 'account.not_found');
  });
});

describe('the same rules over MCP', () => {
  /** An MCP client of the real SDK holding one key. */
  async function client(apiKey: string): Promise<Client> {
    const c = new Client({ name: 'route-table', version: '1.0.0' });
    const headers = { 'X-API-Key': apiKey };
    await c.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers } }));
    return c;
  }
  const tools = spending.filter((op) => op.mcp);

  it('every spending tool answers account.suspended for a suspended account', async () => {
    const { apiKey, accountId } = await app.createAccount('pro');
    await app.services.state.setAccountStatus(accountId, 'suspended');
    const c = await client(apiKey);
    try {
      for (const op of tools) {
        const result = await c.callTool({ name: op.mcp!.tool, arguments: EXAMPLES[op.name]!({}) });
        expectToolError(result as { isError?: boolean; structuredContent?: any }, 'account.suspended');
      }
    } finally {
      await c.close();
    }
  });

  it('every charging tool answers its 402 code when no credits are left', async () => {
    const { apiKey } = await app.createAccount('broke');
    const c = await client(apiKey);
    try {
      for (const op of tools.filter((o) => o.charges)) {
        const result = await c.callTool({ name: op.mcp!.tool, arguments: EXAMPLES[op.name]!({}) });
        expectToolError(result as { isError?: boolean; structuredContent?: any }, exhausted[op.charges!]!);
      }
    } finally {
      await c.close();
    }
  });
});

describe('family A operations refuse members they do not name', () => {
  const familyA = OPERATIONS.filter((op) => op.family === 'A' && op.auth === 'key');

  it.each(familyA.map((op) => [op.name, op] as const))(
    '%s over REST: 400 request.invalid naming it',
    async (_n, op) => {
      const { apiKey } = await app.createAccount('pro');
      const res = await call(op, { ...EXAMPLES[op.name]!({}), zz_unknown: 1 }, apiKey);
      expectError(res, 400, 'request.invalid');
      expect(res.body.error.field).toBe('zz_unknown');
    },
  );

  it('and over MCP, every family A tool', async () => {
    const { apiKey } = await app.createAccount('pro');
    const c = new Client({ name: 'route-table', version: '1.0.0' });
    const headers = { 'X-API-Key': apiKey };
    await c.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers } }));
    try {
      const tools = familyA.filter((op) => op.mcp);
      expect(tools.length).toBeGreaterThan(5);
      for (const op of tools) {
        const result = await c.callTool({
          name: op.mcp!.tool,
          arguments: { ...EXAMPLES[op.name]!({}), zz_unknown: 1 },
        });
        expectToolError(result as { isError?: boolean; structuredContent?: any }, 'request.invalid');
      }
    } finally {
      await c.close();
    }
  });
});

describe('every spending operation quotes with dry_run: the quote is what the real call then charges', () => {
  const usedContact = async (accountId: string) => {
    const c = (await app.services.state.snapshot(accountId, app.clock.now())).contact;
    if (c.kind !== 'windows') throw new Error('expected a windows plan');
    return { used: c.day.used, held: c.day.held };
  };
  const quoteOf = (res: ApiResponse) => (res.body.data && 'dry_run' in res.body.data ? res.body.data : res.body);
  const settle = () => new Promise((r) => setTimeout(r, 50));

  it.each(spending.map((op) => [op.name, op] as const))('%s', async (_n, op) => {
    const { apiKey, accountId } = await app.createAccount('pro');
    const ids: Record<string, string> = {};
    if (op.name === 'signals.alerts.poll') {
      ids.alert = (
        await app.services.state.createAlert(
          {
            accountId,
            kind: 'network_profile',
            target: profile.poll,
            intervalMinutes: 60,
            maxFollowers: null,
            now: app.clock.now(),
          },
          100,
        )
      ).id;
    }
    const input = EXAMPLES[op.name]!(ids);
    const before = await usedContact(accountId);
    const dry = await call(op, { ...input, dry_run: true }, apiKey);
    expect(dry.status).toBe(200);
    const quote = quoteOf(dry);
    expect(quote).toMatchObject({ dry_run: true, sufficient: true });
    await settle();
    // The quote held, charged and started nothing.
    expect(await usedContact(accountId)).toEqual(before);
    expect(await app.services.state.listJobs(accountId, 'export', 10)).toEqual([]);
    const real = await call(op, input, apiKey);
    expect(real.status).toBeLessThan(300);
    await settle();
    if ('premium_credits' in quote) {
      // Premium: the real call holds exactly the quote (charged per lead when the run settles).
      const job =
        real.body.data?.job ??
        (await call(byName('signals.alerts.poll'), { id: real.body.data.id }, apiKey)).body.data.job;
      expect(job.hold).toBe(quote.premium_credits);
      return;
    }
    if (op.name === 'exports.create' || op.name === 'b.contacts.export') {
      const id = real.body.data?.export_id ?? real.body.export_id;
      await waitExport(
        apiKey,
        op.name === 'exports.create' ? `/v1/exports/${id}` : `/api/v1/contacts/search/export/${id}`,
      );
    }
    expect(await usedContact(accountId)).toEqual({ used: before.used + quote.contact_credits, held: 0 });
    expect(quote.contact_credits).toBe(quote.units);
  });

  it('on an unlimited plan the quote reads the call’s own fair-use budget, and the real call charges the quote', async () => {
    const { apiKey } = await app.createAccount('tight');
    const body = { filter: {}, limit: 5 };
    const dry = await app.request('POST', '/v1/contacts/search', { key: apiKey, body: { ...body, dry_run: true } });
    expect(dry.body.data).toMatchObject({
      units: 3,
      contact_credits: 3,
      available: 3,
      sufficient: false,
      binding: 'day',
    });
    const real = await app.request('POST', '/v1/contacts/search', { key: apiKey, body });
    expect(real.body.data).toHaveLength(3);
    expect(real.body.quota.contact_credits_used).toBe(3);
  });

  it('a quote past the credits left says so, with the window that cuts it', async () => {
    const { apiKey } = await app.createAccount('broke');
    const res = await app.request('POST', '/v1/contacts/search', {
      key: apiKey,
      body: { filter: {}, limit: 5, dry_run: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      dry_run: true,
      units: 0,
      contact_credits: 0,
      available: 0,
      sufficient: false,
    });
    expect(res.body.data.binding).toMatch(/day|month/);
    expect(typeof res.body.data.resets_at).toBe('string');
  });
});

const byName = (name: string) => OPERATIONS.find((op) => op.name === name)!;

async function waitExport(apiKey: string, path: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const res = await app.request('GET', path, { key: apiKey });
    const status = res.body.data?.status ?? res.body.status ?? res.body.job_status;
    if (status === 'completed' || status === 'failed') return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`export ${path} did not end`);
}
