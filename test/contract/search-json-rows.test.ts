import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Search pages whose rows come as the point store's card text (QueryResult.json, written into the answer as it is)
 * answer exactly what the same search answers from the release's columns: one app with the index (its pages read
 * from the cards), one with CDS_INDEX=0 (scans, rows as objects), over the same seeded data.
 */
describe('search pages written from the cards', () => {
  let cards: TestApp;
  let scans: TestApp;
  let cardsKey: string;
  let scansKey: string;
  beforeAll(async () => {
    [cards, scans] = await Promise.all([
      startTestApp({ contacts: 2500, companies: 300, seed: 23 }),
      startTestApp({ contacts: 2500, companies: 300, seed: 23, env: { CDS_INDEX: '0' } }),
    ]);
    [cardsKey, scansKey] = await Promise.all([
      cards.createAccount('pro').then((a) => a.apiKey),
      scans.createAccount('pro').then((a) => a.apiKey),
    ]);
  });
  afterAll(async () => Promise.all([cards?.close(), scans?.close()]));

  const search = (app: TestApp, key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    app.request('POST', '/v1/contacts/search', { key, body, headers });

  /** Both apps' pages of one search, following next_cursor `pages` times. */
  async function walk(body: Record<string, unknown>, pages = 2) {
    const out: { cards: any[]; scans: any[] } = { cards: [], scans: [] };
    let cursors: [string | null, string | null] = [null, null];
    for (let n = 0; n < pages; n++) {
      const [a, b] = await Promise.all([
        search(cards, cardsKey, { ...body, ...(cursors[0] ? { cursor: cursors[0] } : {}) }),
        search(scans, scansKey, { ...body, ...(cursors[1] ? { cursor: cursors[1] } : {}) }),
      ]);
      expect([a.status, b.status, a.body.error?.message]).toEqual([200, 200, undefined]);
      out.cards.push(a.body);
      out.scans.push(b.body);
      cursors = [a.body.page.next_cursor, b.body.page.next_cursor];
      if (!cursors[0] || !cursors[1]) break;
    }
    return out;
  }

  it('answers the same rows, totals and warnings for filters and column lists, page after page', async () => {
    const bodies: Record<string, unknown>[] = [
      { filter: { seniority: ['director', 'vp'] }, limit: 50 },
      { filter: { has_phone: true, countries: ['us', 'gb'] }, limit: 30 },
      // Card columns in an order of the caller's own, a list column among them.
      { filter: { seniority: ['manager'] }, columns: ['work_email', 'company_industries', 'name', 'has_phone'] },
      // A number the cards lack (rows as objects).
      { filter: { employee_count_min: 50 }, columns: ['company_employee_count', 'name'], limit: 60 },
      // A column the cards lack, and a record column: rows as objects.
      { filter: { seniority: ['director'] }, columns: ['name', 'skills'], limit: 25 },
      { filter: { seniority: ['director'] }, columns: ['name', 'experience'], limit: 25 },
      { filter: { seniority: ['vp'] }, columns: ['*'], limit: 10 },
      { filter: { seniority: ['director', 'vp'] }, max_rows_per_company: 1, limit: 40 },
      { filter: { title_query: 'qqqzzz' } },
    ];
    for (const body of bodies) {
      const both = await walk(body);
      expect(both.cards.length).toBe(both.scans.length);
      both.cards.forEach((a, i) => {
        const b = both.scans[i];
        expect(a.data).toEqual(b.data);
        expect(Object.keys(a.data[0] ?? {})).toEqual(Object.keys(b.data[0] ?? {}));
        expect({ ...a.page, next_cursor: a.page.next_cursor !== null }).toEqual({
          ...b.page,
          next_cursor: b.page.next_cursor !== null,
        });
        expect(a.warnings).toEqual(b.warnings);
        expect(a.quota).toEqual(b.quota);
      });
      expect(both.cards[0].data.length).toBe(both.cards[0].page.returned);
    }
  });

  it('is JSON with its type, and an Idempotency-Key replays it byte for byte', async () => {
    const body = { filter: { seniority: ['director'] }, limit: 20 };
    const headers = { 'Idempotency-Key': 'json-rows-1' };
    const first = await fetch(`${cards.url}/v1/contacts/search`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${cardsKey}`, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const text = await first.text();
    expect(first.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    const parsed = JSON.parse(text);
    expect(parsed.data).toHaveLength(20);
    // The same JSON koa writes for an object: compact, members in the envelope's order.
    expect(text).toBe(JSON.stringify(parsed));
    expect(Object.keys(parsed)).toEqual(['ok', 'request_id', 'release', 'data', 'page', 'quota', 'warnings']);
    const again = await search(cards, cardsKey, body, headers);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(parsed);
  });
});
