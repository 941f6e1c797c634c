import { allRows, has, type Row } from '../helpers/rows.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let rows: Row[];
beforeAll(async () => {
  app = await startTestApp({ contacts: 2000, companies: 200, seed: 19, env: { CDS_RATE_PER_MINUTE: '100000' } });
  rows = await allRows(app, 'contacts');
});
afterAll(async () => app.close());

/**
 * Parallel spending near the cap: several accounts (one key each, so the 2-in-flight limit is respected
 * honestly), each with two lanes firing searches and enrichments until refused. The cap is never passed and
 * every credit charged matches a row delivered.
 */
describe('credits under concurrency', () => {
  it('caps are never exceeded and every charge matches delivered rows', async () => {
    const emails = rows.filter((r) => has(r.work_email)).map((r) => r.work_email as string);
    const accounts: { accountId: string; apiKey: string; delivered: number; refused: number }[] = [];
    for (let n = 0; n < 6; n++) {
      const a = await app.createAccount('free');
      const h = await app.services.state.reserve({
        accountId: a.accountId,
        kind: 'contact',
        category: 'search',
        amount: 70,
        mode: 'exact',
        now: app.clock.now(),
      });
      await app.services.state.commit(h.id, 70, app.clock.now());
      accounts.push({ ...a, delivered: 0, refused: 0 });
    }
    await Promise.all(
      accounts.flatMap((a, ai) =>
        [0, 1].map(async (lane) => {
          for (let i = 0; i < 12; i++) {
            const res =
              lane === 0
                ? await app.request('POST', '/v1/contacts/search', {
                    key: a.apiKey,
                    body: { filter: {}, limit: 7, columns: ['name'] },
                  })
                : await app.request('POST', '/v1/enrichments', {
                    key: a.apiKey,
                    body: { inputs: emails.slice((ai * 12 + i) * 3, (ai * 12 + i) * 3 + 3) },
                  });
            if (res.status === 200) {
              const got =
                lane === 0 ? res.body.data.length : res.body.data.filter((r: { matched: boolean }) => r.matched).length;
              expect(res.body.quota.contact_credits_used).toBe(got);
              a.delivered += got;
            } else {
              expect([402, 429]).toContain(res.status);
              a.refused++;
            }
          }
        }),
      ),
    );
    for (const a of accounts) {
      const snap = await app.services.state.snapshot(a.accountId, app.clock.now());
      if (snap.contact.kind !== 'pool') throw new Error('free plan has a pool');
      expect(snap.contact.pool.held).toBe(0);
      expect(snap.contact.pool.used).toBe(70 + a.delivered);
      expect(snap.contact.pool.used).toBeLessThanOrEqual(100);
      expect(a.refused).toBeGreaterThan(0);
      // The pool was spent down to what could not be filled by one more request.
      expect(100 - snap.contact.pool.used).toBeLessThan(7);
    }
  }, 120_000);
});
