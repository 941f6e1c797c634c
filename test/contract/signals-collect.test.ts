import type { SignalKind } from '../../src/network-signals/port.js';
import { SimulatedNetwork } from '../../src/network-signals/simulated/simulated-network.js';
import { parseSignalTarget } from '../../src/network-signals/target.js';
import { expectError } from '../helpers/errors.js';
import { allRows, type Row } from '../helpers/rows.js';
import { allSignals, type SignalsApp, startSignalsApp, waitCollect } from './signals-support.js';

let app: SignalsApp;
let stored: Map<string, Row[]>;
let net: SimulatedNetwork;
beforeAll(async () => {
  app = await startSignalsApp({ contacts: 2000, companies: 300, seed: 11 });
  stored = new Map();
  for (const r of await allRows(app, 'contacts'))
    if (r.network_slug) stored.set(r.network_slug, [...(stored.get(r.network_slug) ?? []), r]);
  net = new SimulatedNetwork({
    host: app.config.networkHost,
    clock: app.clock,
    engine: app.services.engine,
    delayMs: 0,
  });
});
afterAll(async () => app.shutdown());
afterEach(() => app.clock.set('2026-11-10T12:00:00.000Z'));

const collect = (key: string, body: unknown) => app.request('POST', '/v1/signals/collect', { key, body });
const estimate = (kind: SignalKind, url: string) => net.estimate(parseSignalTarget(kind, url, app.config.networkHost));
/** The first target of a kind (slug prefix + n) whose estimate fits `ok`: the simulated network is deterministic. */
async function findTarget(
  kind: SignalKind,
  path: string,
  ok: (n: number) => boolean,
): Promise<{ url: string; estimate: number }> {
  for (let i = 0; i < 500; i++) {
    const url = `https://network.com/${path}/target-${i}`;
    const n = await estimate(kind, url);
    if (ok(n)) return { url, estimate: n };
  }
  throw new Error(`no ${kind} target fits`);
}
const credits = async (key: string) => (await app.request('GET', '/v1/credits', { key })).body.data;

const JOB_FIELDS = [
  'kind',
  'target',
  'id',
  'alert_id',
  'status',
  'hold',
  'signals',
  'leads',
  'settled_at',
  'error',
  'scrape_outcome',
  'created_at',
  'started_at',
  'completed_at',
];
const STATUS_FIELDS = [
  'id',
  'kind',
  'target',
  'status',
  'requested',
  'signals',
  'leads',
  'contacts_matched',
  'premium_credits',
  'error',
  'created_at',
  'finished_at',
  'read',
];
const CONTACT_KEYS = [
  'id',
  'name',
  'title',
  'company',
  'company_domain',
  'work_email',
  'country',
  'seniority',
  'last_updated',
  'mobile_phone',
  'direct_phone',
  'has_phone',
  'function',
  'location',
  'email_status',
  'company_size',
  'company_industries',
  'company_network',
  'network',
];

describe('POST /v1/signals/collect: targets', () => {
  const key = async () => (await app.createAccount('pro')).apiKey;
  it.each([
    ['network_profile', 'https://network.com/company/acme', 'https://network.com/in/<slug>', 'network_company'],
    ['network_profile', 'http://network.com/in/jane', 'https://network.com/in/<slug>', null],
    ['network_profile', 'https://other.com/in/jane', 'https://network.com/in/<slug>', null],
    ['network_profile', 'https://network.com/in/', 'https://network.com/in/<slug>', null],
    ['network_profile', 'jane doe', 'https://network.com/in/<slug>', null],
    [
      'network_post',
      'https://network.com/in/jane',
      'https://network.com/posts/<slug> or https://network.com/feed/update/urn:li:activity:<id>',
      'network_profile',
    ],
    ['network_post', 'https://network.com/feed/update/urn:li:share:123', 'urn:li:activity:<id>', null],
    ['network_company', 'https://network.com/posts/hello', 'https://network.com/company/<slug>', 'network_post'],
    ['network_company', 'https://network.com/school/mit', 'https://network.com/company/<slug>', null],
  ])('%s with %s answers 400 request.invalid with the accepted form', async (kind, target, form, fitting) => {
    const res = await collect(await key(), { kind, target });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'request.invalid', field: 'target' });
    expect(res.body.error.hint).toContain(form);
    if (fitting) expect(res.body.error.hint).toContain(`send kind ${fitting}`);
  });

  it('accepts www and a trailing slash, and answers the canonical target', async () => {
    const res = await collect(await key(), {
      kind: 'network_profile',
      target: 'https://www.network.com/in/Jane-Doe/',
      dry_run: true,
    });
    expect(res.status).toBe(200);
    const started = await collect(await key(), {
      kind: 'network_post',
      target: 'https://www.network.com/feed/update/urn:li:activity:7123456789/',
    });
    expect(started.status).toBe(202);
    expect(started.body.data.job.target).toBe('https://network.com/feed/update/urn:li:activity:7123456789');
  });

  it('refuses an unknown kind, max_followers outside 100..1,000,000 or on a profile', async () => {
    const k = await key();
    expect((await collect(k, { kind: 'network_group', target: 'https://network.com/in/x' })).body.error).toMatchObject({
      code: 'request.invalid',
      field: 'kind',
    });
    expect(
      (await collect(k, { kind: 'network_company', target: 'https://network.com/company/x', max_followers: 99 })).body
        .error,
    ).toMatchObject({ code: 'request.invalid', field: 'max_followers' });
    expect(
      (await collect(k, { kind: 'network_company', target: 'https://network.com/company/x', max_followers: 1_000_001 }))
        .body.error,
    ).toMatchObject({ code: 'request.invalid', field: 'max_followers' });
    const res = await collect(k, { kind: 'network_profile', target: 'https://network.com/in/x', max_followers: 500 });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'request.invalid', field: 'max_followers' });
  });
});

describe('POST /v1/signals/collect: holds, dry run, minimum, credits', () => {
  it('dry_run estimates (units, premium_credits = 2 x engagers, available, sufficient), holds nothing, starts nothing', async () => {
    const { apiKey } = await app.createAccount('starter');
    const t = await findTarget('network_profile', 'in', (n) => n > 50 && n < 400);
    const res = await collect(apiKey, { kind: 'network_profile', target: t.url, dry_run: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      dry_run: true,
      units: t.estimate,
      premium_credits: 2 * t.estimate,
      available: 1000,
      sufficient: 2 * t.estimate <= 1000,
    });
    expect(res.body.quota.contact_credits_used).toBe(0);
    expect((await credits(apiKey)).premium).toMatchObject({ held: 0, used: 0, available: 1000 });
  });

  it('a company page below 100 followers answers 400 signals.below_minimum with details.followers (dry run too)', async () => {
    const t = await findTarget('network_company', 'company', (n) => n < 100);
    const { apiKey } = await app.createAccount('pro');
    for (const body of [
      { kind: 'network_company', target: t.url, max_followers: 100 },
      { kind: 'network_company', target: t.url, dry_run: true },
    ]) {
      const res = await collect(apiKey, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'signals.below_minimum', details: { followers: t.estimate } });
    }
  });

  it('a company holds exactly max_followers; without it min(followers, available) with max_followers_missing', async () => {
    const big = await findTarget('network_company', 'company', (n) => n > 5000);
    const small = await findTarget('network_company', 'company', (n) => n >= 100 && n < 900);
    const { apiKey } = await app.createAccount('starter'); // 1,000 premium credits
    const exact = await collect(apiKey, {
      kind: 'network_company',
      target: big.url,
      max_followers: 300,
      dry_run: true,
    });
    expect(exact.body.data).toEqual({
      dry_run: true,
      units: 300,
      premium_credits: 300,
      available: 1000,
      sufficient: true,
    });
    expect(exact.body.warnings).toEqual([]);
    const capped = await collect(apiKey, { kind: 'network_company', target: big.url, dry_run: true });
    expect(capped.body.data).toEqual({
      dry_run: true,
      units: 1000,
      premium_credits: 1000,
      available: 1000,
      sufficient: true,
    });
    expect(capped.body.warnings).toEqual([
      expect.objectContaining({ code: 'max_followers_missing', hint: expect.stringContaining('max_followers') }),
    ]);
    const all = await collect(apiKey, { kind: 'network_company', target: small.url, dry_run: true });
    expect(all.body.data.premium_credits).toBe(small.estimate);
    // More followers asked than credits: 402 with the spec's details, nothing held.
    const short = await collect(apiKey, { kind: 'network_company', target: big.url, max_followers: 1001 });
    expectError(short, 402, 'premium_credits.exhausted');
    expect(short.body.error.details).toEqual({
      required: 1001,
      available: 1000,
      allowance: 1000,
      resets_at: '2026-12-01T00:00:00.000Z',
      upgrade_url: expect.stringMatching(/^https?:\/\//),
    });
    expect((await credits(apiKey)).premium.held).toBe(0);
  });

  it(
    'the free plan has no premium credits: 402 premium_credits.exhausted; below 100 credits a company still asks ' +
      'for 100',
    async () => {
      const { apiKey } = await app.createAccount('free');
      const t = await findTarget('network_profile', 'in', (n) => n > 0);
      const res = await collect(apiKey, { kind: 'network_profile', target: t.url });
      expect(res.status).toBe(402);
      expect(res.body.error.details).toMatchObject({ required: 2 * t.estimate, available: 0, allowance: 0 });
      const c = await findTarget('network_company', 'company', (n) => n >= 100);
      const dry = await collect(apiKey, { kind: 'network_company', target: c.url, dry_run: true });
      expect(dry.body.data).toEqual({
        dry_run: true,
        units: 100,
        premium_credits: 100,
        available: 0,
        sufficient: false,
      });
      expect((await collect(apiKey, { kind: 'network_company', target: c.url })).body.error.details).toMatchObject({
        required: 100,
        available: 0,
      });
    },
  );
});

describe('a collect job end to end (simulated network)', () => {
  it('writes rows, matches stored contacts (one contact credit each), counts unique leads and settles the hold', async () => {
    const { accountId, apiKey } = await app.createAccount('pro');
    const t = await findTarget('network_profile', 'in', (n) => n > 150 && n < 500);
    const res = await collect(apiKey, { kind: 'network_profile', target: t.url });
    expect(res.status).toBe(202);
    const job = res.body.data.job;
    expect(Object.keys(job)).toEqual(JOB_FIELDS);
    expect(job).toMatchObject({
      kind: 'network_profile',
      target: t.url,
      alert_id: null,
      status: 'queued',
      hold: 2 * t.estimate,
      signals: 0,
      leads: 0,
      settled_at: null,
      error: null,
      scrape_outcome: null,
      started_at: null,
      completed_at: null,
    });
    expect(job.id).toMatch(/^col_/);
    expect(res.body.quota.contact_credits_used).toBe(0);

    const status = await waitCollect(app, apiKey, job.id);
    expect(Object.keys(status)).toEqual(STATUS_FIELDS);
    const rows = await allSignals(app, apiKey, `source_type=collect&source_id=${job.id}`);
    const people = new Set(rows.map((r) => r.profile_url));
    const withContact = rows.filter((r) => r.contact !== null);
    expect(status).toMatchObject({
      id: job.id,
      kind: 'network_profile',
      target: t.url,
      status: 'completed',
      requested: t.estimate,
      error: null,
    });
    expect(status.signals).toBe(rows.length);
    expect(status.leads).toBe(people.size);
    expect(status.contacts_matched).toBe(withContact.length);
    expect(status.premium_credits).toEqual({ held: 0, charged: people.size });
    expect(status.read).toEqual({ tool: 'list_signals', arguments: { source_type: 'collect', source_id: job.id } });
    expect(status.finished_at).toEqual(expect.any(String));
    // Realistic mix: repeat engagers, reactions and comments, stored and unknown people.
    expect(rows.length).toBeGreaterThan(people.size);
    expect(new Set(rows.map((r) => r.engagement))).toEqual(new Set(['reaction', 'comment']));
    const share = new Set(withContact.map((r) => r.profile_url)).size / people.size;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.6);
    // Each contact is the stored row of that profile slug, with the enrichment default columns.
    for (const r of withContact) {
      expect(Object.keys(r.contact)).toEqual(CONTACT_KEYS);
      const slug = new URL(r.profile_url).pathname.split('/')[2]!;
      expect(stored.get(slug)?.map((s) => s.id)).toContain(r.contact.id);
    }
    for (const r of rows.filter((x) => x.contact === null))
      expect(stored.has(new URL(r.profile_url).pathname.split('/')[2]!)).toBe(false);
    expect(rows.filter((r) => r.lead).length).toBe(people.size);
    expect(Object.keys(rows[0])).toEqual([
      'id',
      'source_type',
      'source_id',
      'run_id',
      'name',
      'headline',
      'profile_url',
      'engagement',
      'post_url',
      'at',
      'lead',
      'contact',
      'created_at',
    ]);
    expect(rows[0]).toMatchObject({
      source_type: 'collect',
      source_id: job.id,
      run_id: job.id,
      post_url: expect.stringMatching(/^https:\/\/network\.com\/feed\/update\/urn:li:activity:\d+$/),
    });

    // Credits: premium charged per lead, contact credits per matched row.
    const c = await credits(apiKey);
    expect(c.premium).toMatchObject({ used: people.size, held: 0, available: 10_000 - people.size });
    expect(c.contact.month.used).toBe(withContact.length);
    void accountId;
  });

  it('the same target answers the same rows for the same release and time (deterministic)', async () => {
    const t = await findTarget('network_post', 'posts', (n) => n > 5 && n < 100);
    const runs: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const { apiKey } = await app.createAccount('pro');
      const id = (await collect(apiKey, { kind: 'network_post', target: t.url })).body.data.job.id;
      await waitCollect(app, apiKey, id);
      runs.push(
        (await allSignals(app, apiKey, `source_id=${id}`)).map((r) => `${r.profile_url}|${r.engagement}|${r.at}`),
      );
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]!.length).toBeGreaterThan(0);
  });

  it('wait: true answers the finished job for a small estimate; a company page never waits', async () => {
    const { apiKey } = await app.createAccount('pro');
    const t = await findTarget('network_post', 'posts', (n) => n > 0 && n <= 500);
    const res = await collect(apiKey, { kind: 'network_post', target: t.url, wait: true });
    expect(res.status).toBe(202);
    expect(['completed', 'partial', 'no_matches']).toContain(res.body.data.job.status);
    expect(res.body.data.job.settled_at).toEqual(expect.any(String));
    expect(res.body.data.job.scrape_outcome).toMatchObject({ source: 'simulated', reason: 'source_exhausted' });
    const c = await findTarget('network_company', 'company', (n) => n >= 100 && n < 1000);
    const co = await collect(apiKey, { kind: 'network_company', target: c.url, max_followers: 100, wait: true });
    expect(co.status).toBe(202);
    expect(co.body.data.job.status).toBe('queued');
    const done = await waitCollect(app, apiKey, co.body.data.job.id);
    expect(done).toMatchObject({
      status: 'completed',
      requested: 100,
      signals: 100,
      leads: 100,
      premium_credits: { held: 0, charged: 100 },
    });
  });

  it('a company job collects the requested number of newest followers, and a new follower shows up later', async () => {
    const { apiKey } = await app.createAccount('pro');
    const c = await findTarget('network_company', 'company', (n) => n > 1000 && n < 20_000);
    const id = (await collect(apiKey, { kind: 'network_company', target: c.url, max_followers: 250 })).body.data.job.id;
    const done = await waitCollect(app, apiKey, id);
    expect(done).toMatchObject({ status: 'completed', signals: 250, leads: 250 });
    const rows = await allSignals(app, apiKey, `source_id=${id}`);
    expect(rows.every((r) => r.engagement === 'follow' && r.post_url === null)).toBe(true);
    const times = rows.map((r) => r.at);
    expect([...times].sort().reverse()).toEqual(times);
    // Two weeks later the page has more followers.
    app.clock.set('2026-11-24T12:00:00.000Z');
    expect(await estimate('network_company', c.url)).toBeGreaterThan(c.estimate);
  });

  it('a long company collection meets each person once, even where two stored contacts share a profile', async () => {
    // The test release holds contacts that share a profile slug (the source's duplicates); a page's
    // followers sample the stored people, and every follower must still be a different person.
    const { apiKey } = await app.createAccount('pro');
    const c = await findTarget('network_company', 'company', (n) => n > 3000 && n < 50_000);
    const id = (await collect(apiKey, { kind: 'network_company', target: c.url, max_followers: 3000 })).body.data.job
      .id;
    const done = await waitCollect(app, apiKey, id);
    const rows = await allSignals(app, apiKey, `source_id=${id}`);
    const people = new Set(rows.map((r) => new URL(r.profile_url).pathname.replace(/\/+$/, '').toLowerCase()));
    expect(rows.length).toBe(3000);
    expect(people.size).toBe(3000);
    expect(done).toMatchObject({ status: 'completed', signals: 3000, leads: 3000 });
    expect(rows.filter((r) => r.contact).length).toBeGreaterThan(500);
  });

  it('contact credits running out keep the rows without their contact and say so', async () => {
    const { accountId, apiKey } = await app.createAccount('starter'); // 1,000 contact credits a day
    const now = app.clock.now();
    const hold = await app.services.state.reserve({
      accountId,
      kind: 'contact',
      category: 'search',
      amount: 997,
      mode: 'exact',
      now,
    });
    await app.services.state.commit(hold.id, 997, now);
    const t = await findTarget('network_profile', 'in', (n) => n > 100 && n < 450);
    const res = await collect(apiKey, { kind: 'network_profile', target: t.url, wait: true });
    const job = res.body.data.job;
    expect(job.status).toBe('completed');
    expect(job.scrape_outcome).toMatchObject({ contact_credits_exhausted: true });
    expect(job.scrape_outcome.contacts_skipped).toBeGreaterThan(0);
    const status = await waitCollect(app, apiKey, job.id);
    expect(status.contacts_matched).toBe(3);
    const rows = await allSignals(app, apiKey, `source_id=${job.id}`);
    expect(rows.filter((r) => r.contact).length).toBe(3);
    expect(rows.length).toBe(status.signals);
    expect((await credits(apiKey)).contact.day.remaining).toBe(0);
  });

  it('a profile with no engagement yet ends no_matches and charges nothing', async () => {
    const { apiKey } = await app.createAccount('pro');
    // Before any post of 2026 has engagement: the clock far back.
    app.clock.set('2025-12-20T00:00:00.000Z');
    const t = await findTarget('network_post', 'posts', (n) => n === 0);
    const res = await collect(apiKey, { kind: 'network_post', target: t.url, wait: true });
    expect(res.body.data.job).toMatchObject({ status: 'no_matches', hold: 0, signals: 0, leads: 0 });
    const status = await waitCollect(app, apiKey, res.body.data.job.id);
    expect(status).toMatchObject({
      status: 'completed',
      signals: 0,
      leads: 0,
      premium_credits: { held: 0, charged: 0 },
    });
  });
});

describe('GET /v1/signals/collect/{id} and GET /v1/signals', () => {
  it("unknown ids and other accounts' jobs answer 404 collect.not_found", async () => {
    const a = (await app.createAccount('pro')).apiKey;
    const b = (await app.createAccount('pro')).apiKey;
    const t = await findTarget('network_post', 'posts', (n) => n > 0 && n < 50);
    const id = (await collect(a, { kind: 'network_post', target: t.url })).body.data.job.id;
    for (const [key, path] of [
      [b, id],
      [a, 'col_doesnotexist'],
      [a, 'exp_x'],
    ] as const) {
      const res = await app.request('GET', `/v1/signals/collect/${path}`, { key });
      expectError(res, 404, 'collect.not_found');
    }
    await waitCollect(app, a, id);
    // Another account reads no rows of it.
    expect(
      (await app.request('GET', `/v1/signals?source_type=collect&source_id=${id}`, { key: b })).body.page.total,
    ).toBe(0);
  });

  it('pages rows with a cursor pinned to the query; the listing is free', async () => {
    const { apiKey } = await app.createAccount('pro');
    const t = await findTarget('network_post', 'posts', (n) => n > 25 && n < 200);
    const id = (await collect(apiKey, { kind: 'network_post', target: t.url, wait: true })).body.data.job.id;
    const all = await allSignals(app, apiKey, `source_type=collect&source_id=${id}`);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: any = await app.request(
        'GET',
        `/v1/signals?source_type=collect&source_id=${id}&limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key: apiKey },
      );
      expect(res.status).toBe(200);
      expect(res.body.page).toMatchObject({ limit: 10, total: all.length, returned: res.body.data.length });
      expect(res.body.quota.contact_credits_used).toBe(0);
      seen.push(...res.body.data.map((r: any) => r.id));
      cursor = res.body.page.next_cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(all.map((r) => r.id));
    expect(pages).toBe(Math.ceil(all.length / 10));
    const first = await app.request('GET', `/v1/signals?source_id=${id}&limit=5`, { key: apiKey });
    const other = await app.request(
      'GET',
      `/v1/signals?source_id=col_other&cursor=${encodeURIComponent(first.body.page.next_cursor)}`,
      { key: apiKey },
    );
    expect(other.status).toBe(400);
    expect(other.body.error).toMatchObject({ code: 'request.invalid', field: 'cursor' });
    expect((await app.request('GET', '/v1/signals?cursor=abc.def', { key: apiKey })).body.error.code).toBe(
      'request.invalid',
    );
    expect((await app.request('GET', '/v1/signals?source_type=export', { key: apiKey })).body.error).toMatchObject({
      code: 'request.invalid',
      field: 'source_type',
    });
    expect((await app.request('GET', '/v1/signals?limit=1001', { key: apiKey })).body.error).toMatchObject({
      code: 'request.invalid',
      field: 'limit',
    });
  });
});

describe('premium credits: held while a job waits, monthly allowance reset on the billing date', () => {
  it('GET /v1/credits shows premium held and available; the allowance resets on the billing day', async () => {
    const { apiKey } = await app.createAccount('starter', { billingDay: 15 });
    const c = await findTarget('network_company', 'company', (n) => n > 1000);
    await app.runner.stop();
    try {
      const id = (await collect(apiKey, { kind: 'network_company', target: c.url, max_followers: 400 })).body.data.job
        .id;
      expect((await credits(apiKey)).premium).toEqual({
        allowance: 1000,
        used: 0,
        held: 400,
        available: 600,
        resets_at: '2026-11-15T00:00:00.000Z',
      });
      const status = (await app.request('GET', `/v1/signals/collect/${id}`, { key: apiKey })).body.data;
      expect(status).toMatchObject({ status: 'queued', premium_credits: { held: 400, charged: 0 }, finished_at: null });
      app.runner.start();
      await waitCollect(app, apiKey, id);
    } finally {
      app.runner.start();
    }
    expect((await credits(apiKey)).premium).toMatchObject({ used: 400, held: 0, available: 600 });
    app.clock.set('2026-11-15T00:00:00.000Z');
    expect((await credits(apiKey)).premium).toEqual({
      allowance: 1000,
      used: 0,
      held: 0,
      available: 1000,
      resets_at: '2026-12-15T00:00:00.000Z',
    });
  });
});
