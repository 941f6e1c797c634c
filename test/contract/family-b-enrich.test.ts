import { expectError } from '../helpers/errors.js';
import { allRows, has, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let rows: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 3000, companies: 300, seed: 31 });
  rows = await allRows(app, 'contacts');
});
afterAll(async () => app.close());

const b = (key: string, method: string, path: string, body?: unknown) =>
  app.request(method, path, { key, keyHeader: 'x-api-key', ...(body !== undefined ? { body } : {}) });
const uniq = (f: string) => {
  const c = new Map<string, number>();
  for (const r of rows) if (has(r[f])) c.set(r[f], (c.get(r[f]) ?? 0) + 1);
  return rows.filter((r) => has(r[f]) && c.get(r[f]) === 1);
};

describe('family B enrichment', () => {
  it('from-network: email per profile URL, success only with an email, one credit per success', async () => {
    const { apiKey } = await app.createAccount('pro');
    const withEmail = uniq('network_slug').find((r) => has(r.work_email))!;
    const noEmail = uniq('network_slug').find((r) => !has(r.work_email));
    const items = [
      { network_url: withEmail.network },
      { network_url: 'https://www.network.com/in/nobody-here-x' },
      { network_url: 'https://example.com/x' },
      ...(noEmail ? [{ network_url: noEmail.network }] : []),
    ];
    const res = await b(apiKey, 'POST', '/api/v1/enrich/from-network', { items });
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toEqual({
      networkUrl: withEmail.network,
      success: true,
      email: withEmail.work_email,
      data: {
        email_address: withEmail.work_email,
        person_network_url: withEmail.network,
        first_name: withEmail.first_name,
        last_name: withEmail.last_name,
      },
    });
    expect(res.body.results[1]).toMatchObject({ success: false, email: null, data: null });
    expect(res.body.results[2]).toMatchObject({ success: false, error: 'not a person profile URL' });
    if (noEmail) expect(res.body.results[3].success).toBe(false);
    expect(res.body.creditsRemaining).toBe(10_000 - 1);
  });

  it('from-email: profile URL per email', async () => {
    const { apiKey } = await app.createAccount('pro');
    const r = uniq('work_email').find((x) => has(x.network))!;
    const res = await b(apiKey, 'POST', '/api/v1/enrich/from-email', {
      items: [{ email: r.work_email.toUpperCase() }, { email: 'x@nowhere.example' }],
    });
    expect(res.body.results.map((x: Row) => x.success)).toEqual([true, false]);
    expect(res.body.results[0].networkUrl).toBe(r.network);
    expect(res.body.creditsRemaining).toBe(10_000 - 1);
  });

  it('from-person: first and last name with company name or domain', async () => {
    const { apiKey } = await app.createAccount('pro');
    const r = rows.find(
      (x) =>
        [x.first_name, x.last_name, x.company_domain, x.company].every(has) &&
        rows.filter(
          (y) => y.first_name === x.first_name && y.last_name === x.last_name && y.company_domain === x.company_domain,
        ).length === 1,
    )!;
    const res = await b(apiKey, 'POST', '/api/v1/enrich/from-person', {
      items: [
        { first_name: r.first_name.toUpperCase(), last_name: r.last_name, company_domain: r.company_domain },
        { first_name: r.first_name, last_name: r.last_name, company_name: `${r.company}, Inc.` },
        { first_name: 'Nobody', last_name: 'Atall', company_domain: r.company_domain },
      ],
    });
    expect(res.body.results.map((x: Row) => x.success)).toEqual([true, !!r.company_name_norm, false]);
    expect(res.body.results[0].data.email_address).toBe(r.work_email ?? null);
  });

  it('batches above 100 items answer 400; limit_per_item above 10 answers 400', async () => {
    const { apiKey } = await app.createAccount('pro');
    const items = Array.from({ length: 101 }, (_, i) => ({ email: `p${i}@x.com` }));
    expect((await b(apiKey, 'POST', '/api/v1/enrich/from-email', { items })).status).toBe(400);
    expect(
      (await b(apiKey, 'POST', '/api/v1/enrich/from-email', { items: [{ email: 'a@b.com' }], limit_per_item: 11 }))
        .status,
    ).toBe(400);
  });

  it('creditsRemaining is null on unlimited plans', async () => {
    const { apiKey } = await app.createAccount('unlimited');
    const res = await b(apiKey, 'POST', '/api/v1/enrich/from-email', {
      items: [{ email: uniq('work_email')[0]!.work_email }],
    });
    expect(res.body.creditsRemaining).toBeNull();
  });
});

describe('family B lookups', () => {
  it('phone lookup: a match costs one credit; a shared number is ambiguous and free', async () => {
    const { apiKey } = await app.createAccount('pro');
    const counts = new Map<string, number>();
    for (const r of rows)
      for (const p of [r.mobile_phone, r.direct_phone]) if (has(p)) counts.set(p, (counts.get(p) ?? 0) + 1);
    const single = rows.find(
      (r) =>
        has(r.mobile_phone) &&
        counts.get(r.mobile_phone) === 1 &&
        (!has(r.direct_phone) || counts.get(r.direct_phone) === 1),
    )!;
    const shared = [...counts].find(([, n]) => n > 1)![0];
    const one = await b(
      apiKey,
      'GET',
      `/api/v1/contacts/lookup/phone?phone=${encodeURIComponent(single.mobile_phone)}`,
    );
    expect(one.body).toMatchObject({ success: true, contact: { id: single.id } });
    const amb = await b(apiKey, 'GET', `/api/v1/contacts/lookup/phone?phone=${encodeURIComponent(shared)}`);
    expect(amb.body).toMatchObject({ success: false, reason: 'ambiguous', contact: null });
    const batch = await b(apiKey, 'POST', '/api/v1/contacts/from-phone', {
      phones: [single.mobile_phone, shared, '+1 000'],
    });
    expect(batch.body.results.map((r: Row) => r.success)).toEqual([true, false, false]);
    expect(batch.body.creditsRemaining).toBe(10_000 - 2);
  });

  it('colleagues from a work email leave the person out; one credit per contact; 100 by default', async () => {
    const { apiKey } = await app.createAccount('pro');
    const r = uniq('work_email').find(
      (x) => has(x.company_domain) && rows.filter((y) => y.company_domain === x.company_domain).length > 3,
    )!;
    const want = rows
      .filter((y) => y.company_domain === r.company_domain && y.work_email !== r.work_email)
      .map((y) => y.id);
    const res = await b(apiKey, 'POST', '/api/v1/contacts/lookup/colleagues', {
      work_email: r.work_email,
      company_domain: r.company_domain,
    });
    expect(res.body.contacts.map((c: Row) => c.id)).toEqual(want.slice(0, 100));
    expect(res.body.limit).toBe(100);
    expect(res.body.creditsRemaining).toBe(10_000 - Math.min(100, want.length));
    // Up to 5,000 per page over REST (the largest employer of the release has more than the default 100);
    // more is refused, free.
    const sizes = new Map<string, number>();
    for (const y of rows)
      if (has(y.company_domain)) sizes.set(y.company_domain, (sizes.get(y.company_domain) ?? 0) + 1);
    const [largest, size] = [...sizes].sort((x, y) => y[1] - x[1])[0]!;
    expect(size).toBeGreaterThan(100);
    const most = await b(apiKey, 'POST', '/api/v1/contacts/lookup/colleagues', {
      company_domain: largest,
      limit: 5000,
    });
    expect(most.status).toBe(200);
    expect(most.body.limit).toBe(5000);
    expect(most.body.contacts.map((c: Row) => c.id)).toEqual(
      rows.filter((y) => y.company_domain === largest).map((y) => y.id),
    );
    const before = (await app.request('GET', '/v1/credits', { key: apiKey })).body.data;
    const over = await b(apiKey, 'POST', '/api/v1/contacts/lookup/colleagues', {
      company_domain: largest,
      limit: 5001,
    });
    expectError(over, 400, 'request.invalid');
    expect((await app.request('GET', '/v1/credits', { key: apiKey })).body.data).toEqual(before);
  });

  it('decision makers: executives, VPs, directors and head-of roles with valid emails', async () => {
    const { apiKey } = await app.createAccount('pro');
    const domains = [...new Set(rows.filter((r) => has(r.company_domain)).map((r) => r.company_domain))].slice(0, 40);
    const headOf = (t: unknown) => typeof t === 'string' && /(^|[^a-z0-9])head[^a-z0-9]+of([^a-z0-9]|$)/i.test(t);
    const want = rows
      .filter(
        (r) =>
          domains.includes(r.company_domain) &&
          r.email_status === 'valid' &&
          (['c_level', 'founder_or_partner', 'vp', 'director'].includes(r.seniority) || headOf(r.title)),
      )
      .map((r) => r.id);
    const res = await b(apiKey, 'POST', '/api/v1/contacts/lookup/decision-makers', {
      company_domains: domains,
      limit: 1000,
    });
    expect(res.status).toBe(200);
    expect(res.body.contacts.map((c: Row) => c.id)).toEqual(want);
    expect(want.length).toBeGreaterThan(0);
  });
});
