import type { UsageCategory } from '../../src/domain/credits.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ now: '2026-11-10T12:00:00.000Z' });
});
afterAll(async () => app.close());
afterEach(() => app.clock.set('2026-11-10T12:00:00.000Z'));

/** Spends through the one credits module (reserve -> commit), as a spending route does. */
async function spend(
  accountId: string,
  amount: number,
  at: string,
  category: UsageCategory | null = 'search',
): Promise<void> {
  const now = new Date(at);
  const hold = await app.services.state.reserve({ accountId, kind: 'contact', category, amount, mode: 'exact', now });
  await app.services.state.commit(hold.id, amount, now);
}

async function quota(key: string) {
  const res = await app.request('GET', '/v1/account', { key });
  expect(res.status).toBe(200);
  return res.body.quota as {
    plan: string;
    contact_credits_used: number;
    month_remaining: number;
    today_remaining: number;
    binding: string;
    resets_at: string;
  };
}

describe('quota block per plan kind (clock set by the test)', () => {
  it('free plan: lifetime pool, equal remaining, binding month, far-future reset', async () => {
    const { accountId, apiKey } = await app.createAccount('free');
    expect(await quota(apiKey)).toEqual({
      plan: 'free',
      contact_credits_used: 0,
      month_remaining: 100,
      today_remaining: 100,
      binding: 'month',
      resets_at: '9999-12-31T23:59:59.000Z',
    });
    await spend(accountId, 30, '2026-09-01T10:00:00Z');
    await spend(accountId, 20, '2026-11-10T11:00:00Z');
    const q = await quota(apiKey);
    expect(q.month_remaining).toBe(50);
    expect(q.today_remaining).toBe(50);
    expect(q.resets_at).toBe('9999-12-31T23:59:59.000Z');
  });

  it('paid plan without a subscription: UTC calendar month and UTC day', async () => {
    const { accountId, apiKey } = await app.createAccount('starter');
    for (const day of ['03', '04', '05']) await spend(accountId, 1000, `2026-11-${day}T09:00:00Z`);
    await spend(accountId, 250, '2026-11-10T08:00:00Z');
    await spend(accountId, 999, '2026-10-31T23:59:00Z'); // previous month: not counted
    const q = await quota(apiKey);
    expect(q.month_remaining).toBe(10_000 - 3250);
    expect(q.today_remaining).toBe(1000 - 250);
    // Today's pace (250 by noon: 500 a day) leaves 750 for 1.5 days, past midnight: the day does not run out.
    // The month's pace (3,250 in 9.5 days) spends the 6,750 left in 19.7 days, before its reset in 20.5: it binds.
    expect(q.binding).toBe('month');
    expect(q.resets_at).toBe('2026-12-01T00:00:00.000Z');
  });

  it('billing day 15: the month runs from the 15th; a spent day cap binds the day', async () => {
    const { accountId, apiKey } = await app.createAccount('starter', { billingDay: 15 });
    await spend(accountId, 500, '2026-10-14T12:00:00Z'); // before this billing month
    await spend(accountId, 1000, '2026-10-15T00:00:00Z');
    await spend(accountId, 1000, '2026-11-10T10:00:00Z');
    const q = await quota(apiKey);
    expect(q.month_remaining).toBe(10_000 - 2000);
    expect(q.today_remaining).toBe(0);
    expect(q.binding).toBe('day');
    expect(q.resets_at).toBe('2026-11-11T00:00:00.000Z');
  });

  it('the month binds when it has less left than the day', async () => {
    const { accountId, apiKey } = await app.createAccount('pro', { billingDay: 15 });
    for (let d = 16; d <= 31; d++) await spend(accountId, 6000, `2026-10-${String(d).padStart(2, '0')}T10:00:00Z`);
    const q = await quota(apiKey);
    expect(q.month_remaining).toBe(100_000 - 96_000);
    // Today can spend no more than the month has left.
    expect(q.today_remaining).toBe(4000);
    expect(q.binding).toBe('month');
    expect(q.resets_at).toBe('2026-11-15T00:00:00.000Z');
  });

  it('a new billing month starts with a full month', async () => {
    const { accountId, apiKey } = await app.createAccount('starter', { billingDay: 15 });
    await spend(accountId, 900, '2026-11-14T10:00:00Z');
    app.clock.set('2026-11-15T00:00:01.000Z');
    const q = await quota(apiKey);
    expect(q.month_remaining).toBe(10_000);
    expect(q.today_remaining).toBe(1000);
  });

  it('unlimited: remaining is the smallest fair-use budget', async () => {
    const { accountId, apiKey } = await app.createAccount('unlimited');
    await spend(accountId, 700, '2026-11-10T09:00:00Z', 'export');
    const q = await quota(apiKey);
    expect(q.plan).toBe('unlimited');
    expect(q.today_remaining).toBe(50_000 - 700);
    expect(q.month_remaining).toBe(1_000_000 - 700);
  });

  it('GET /v1/credits shows caps, used, held and premium credits', async () => {
    const { accountId, apiKey } = await app.createAccount('pro');
    const hold = await app.services.state.reserve({
      accountId,
      kind: 'contact',
      category: 'export',
      amount: 40,
      mode: 'exact',
      now: app.clock.now(),
    });
    await spend(accountId, 10, '2026-11-10T09:00:00Z');
    const res = await app.request('GET', '/v1/credits', { key: apiKey });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body.data);
    expect(text).toContain('"held":40');
    expect(text).toContain('"used":10');
    expect(text).toContain('10000');
    await app.services.state.releaseHold(hold.id, app.clock.now());
    expect(JSON.stringify((await app.request('GET', '/v1/credits', { key: apiKey })).body.data)).toContain('"held":0');
  });
});
