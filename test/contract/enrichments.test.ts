import { expectError } from '../helpers/errors.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let rows: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 3000, companies: 400, seed: 5 });
  rows = await allRows(app, 'contacts');
});
afterAll(async () => app.close());

const enrich = (key: string, body: unknown) => app.request('POST', '/v1/enrichments', { key, body });
const uniqueBy = (field: string) => {
  const counts = new Map<string, number>();
  for (const r of rows) if (has(r[field])) counts.set(r[field], (counts.get(r[field]) ?? 0) + 1);
  return rows.filter((r) => has(r[field]) && counts.get(r[field]) === 1);
};
const phoneCounts = () => {
  const m = new Map<string, Set<string>>();
  for (const r of rows)
    for (const p of [r.mobile_phone, r.direct_phone]) if (has(p)) m.set(p, (m.get(p) ?? new Set()).add(r.id));
  return m;
};

describe('POST /v1/enrichments', () => {
  it('matches emails (any case, mailto:, Name <email>), profile URLs and phones in input order, one credit each', async () => {
    const { apiKey } = await app.createAccount('pro');
    const [a, b, c] = uniqueBy('work_email');
    const n = uniqueBy('network_slug')[0]!;
    const phones = phoneCounts();
    const p = rows.find((r) => has(r.mobile_phone) && phones.get(r.mobile_phone)!.size === 1)!;
    const inputs = [
      a!.work_email.toUpperCase(),
      `mailto:${b!.work_email}`,
      `Jane Doe <${c!.work_email}>`,
      n.network,
      p.mobile_phone,
      'nobody@nowhere.example',
      'not an input',
    ];
    const res = await enrich(apiKey, { inputs });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: Row) => r.input)).toEqual(inputs);
    expect(res.body.data.map((r: Row) => r.matched)).toEqual([true, true, true, true, true, false, false]);
    expect(res.body.data.map((r: Row) => r.contact?.id ?? null)).toEqual([a!.id, b!.id, c!.id, n.id, p.id, null, null]);
    expect(res.body.data[6]).toEqual({
      input: 'not an input',
      matched: false,
      off_domain: false,
      contact: null,
      reason: 'invalid',
    });
    expect(res.body.data[5].reason).toBeUndefined();
    expect(Object.keys(res.body.data[0].contact)).toEqual([
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
    ]);
    expect(res.body.quota.contact_credits_used).toBe(5);
  });

  it('repeated inputs are charged each time', async () => {
    const { apiKey } = await app.createAccount('pro');
    const e = uniqueBy('work_email')[0]!.work_email;
    const res = await enrich(apiKey, { inputs: [e, e, e] });
    expect(res.body.quota.contact_credits_used).toBe(3);
  });

  it('a shared work email returns the later last_updated with a duplicate_work_email warning', async () => {
    const { apiKey } = await app.createAccount('pro');
    const groups = new Map<string, Row[]>();
    for (const r of rows) if (has(r.work_email)) groups.set(r.work_email, [...(groups.get(r.work_email) ?? []), r]);
    const shared = [...groups.values()].find(
      (g) => g.length > 1 && new Set(g.map((r) => r.last_updated)).size === g.length,
    )!;
    expect(shared).toBeDefined();
    const newest = shared.reduce((x, y) => (y.last_updated > x.last_updated ? y : x));
    const res = await enrich(apiKey, { inputs: [shared[0]!.work_email] });
    expect(res.body.data[0].contact.id).toBe(newest.id);
    expect(res.body.warnings).toEqual([
      expect.objectContaining({
        code: 'duplicate_work_email',
        keys_applied: [shared[0]!.work_email],
        hint: expect.any(String),
      }),
    ]);
  });

  it('a shared profile slug returns the later last_updated with duplicate_network', async () => {
    const { apiKey } = await app.createAccount('pro');
    const groups = new Map<string, Row[]>();
    for (const r of rows)
      if (has(r.network_slug)) groups.set(r.network_slug, [...(groups.get(r.network_slug) ?? []), r]);
    const shared = [...groups.values()].find((g) => g.length > 1)!;
    expect(shared).toBeDefined();
    const res = await enrich(apiKey, { inputs: [shared[0]!.network] });
    expect(res.body.data[0].matched).toBe(true);
    expect(res.body.warnings.map((w: Row) => w.code)).toEqual(['duplicate_network']);
  });

  it('a phone shared by several contacts is ambiguous, free, and decided before company_domain', async () => {
    const { apiKey } = await app.createAccount('pro');
    const shared = [...phoneCounts()].find(([, ids]) => ids.size > 1)!;
    expect(shared).toBeDefined();
    const res = await enrich(apiKey, { inputs: [shared[0]], company_domain: 'example.com' });
    expect(res.body.data[0]).toEqual({
      input: shared[0],
      matched: false,
      off_domain: false,
      contact: null,
      reason: 'ambiguous',
    });
    expect(res.body.quota.contact_credits_used).toBe(0);
  });

  it('company_domain: off-domain inputs are free misses listed on one off_domain warning', async () => {
    const { apiKey } = await app.createAccount('pro');
    const [a, b] = uniqueBy('work_email').filter((r) => has(r.company_domain));
    const res = await enrich(apiKey, {
      inputs: [a!.work_email, b!.work_email],
      company_domain: `https://${a!.company_domain}/`,
    });
    expect(res.body.data[0].matched).toBe(true);
    if (b!.company_domain !== a!.company_domain) {
      expect(res.body.data[1]).toMatchObject({ matched: false, off_domain: true, contact: null });
      expect(res.body.warnings).toEqual([
        expect.objectContaining({ code: 'off_domain', keys_applied: [b!.work_email] }),
      ]);
    }
    expect(res.body.quota.contact_credits_used).toBe(res.body.data.filter((r: Row) => r.matched).length);
  });

  it('columns ["*"] returns every column', async () => {
    const { apiKey } = await app.createAccount('pro');
    const res = await enrich(apiKey, { inputs: [uniqueBy('work_email')[0]!.work_email], columns: ['*'] });
    expect(Object.keys(res.body.data[0].contact)).toContain('experience');
  });

  it.each([
    [{ inputs: Array.from({ length: 101 }, (_, i) => `p${i}@x.com`) }, 400, 'enrich.too_many_inputs'],
    [{ inputs: ['a@b.com'], mode: 'refresh' }, 400, 'enrich.mode_unavailable'],
    [{ inputs: ['a@b.com'], company_domain: 'Acme Corp' }, 400, 'request.invalid'],
    [{ inputs: 'a@b.com' }, 400, 'request.invalid'],
    [{ inputs: [] }, 400, 'request.invalid'],
  ])('%j answers %d %s', async (body, status, code) => {
    const { apiKey } = await app.createAccount('pro');
    const res = await enrich(apiKey, body);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    if (code === 'enrich.too_many_inputs') expect(res.body.error.hint).toMatch(/at most 100/);
  });

  it('402 when the credits left cannot cover the matches; nothing is charged', async () => {
    const { accountId, apiKey } = await app.createAccount('free');
    const h = await app.services.state.reserve({
      accountId,
      kind: 'contact',
      category: 'enrich',
      amount: 99,
      mode: 'exact',
      now: app.clock.now(),
    });
    await app.services.state.commit(h.id, 99, app.clock.now());
    const [a, b] = uniqueBy('work_email');
    const res = await enrich(apiKey, { inputs: [a!.work_email, b!.work_email] });
    expectError(res, 402, 'contact_credits.exhausted');
    expect(res.body.quota.month_remaining).toBe(1);
  });
});
