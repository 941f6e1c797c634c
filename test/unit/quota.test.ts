import type { Account, CreditSnapshot, Plan } from '../../src/domain/account.js';
import type { WindowUsage } from '../../src/domain/credits.js';
import { AppError } from '../../src/domain/errors/index.js';
import {
  type Budget,
  billingMonthWindow,
  bindingWindow,
  budgetsFor,
  contactExhausted,
  creditsView,
  dayWindow,
  FAR_FUTURE,
  quotaBlock,
} from '../../src/domain/quota/index.js';
import { DEFAULT_PLANS } from '../../src/state/plans.js';

const iso = (d: Date) => d.toISOString();
const plan = (slug: string): Plan => DEFAULT_PLANS.find((p) => p.slug === slug)!;
const account = (billingDay: number | null): Account => ({
  id: 'acc_test',
  name: 't',
  plan: 'starter',
  billingDay,
  status: 'active',
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('dayWindow: the UTC day [00:00, next 00:00)', () => {
  it.each([
    ['2026-03-10T12:00:00.000Z', '2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'],
    ['2026-03-10T00:00:00.000Z', '2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'],
    ['2026-03-10T23:59:59.999Z', '2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z'],
    ['2026-12-31T18:00:00.000Z', '2026-12-31T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['2028-02-28T05:00:00.000Z', '2028-02-28T00:00:00.000Z', '2028-02-29T00:00:00.000Z'],
  ])('%s -> [%s, %s)', (now, start, reset) => {
    const w = dayWindow(new Date(now));
    expect([iso(w.start), iso(w.resetsAt)]).toEqual([start, reset]);
  });
});

describe('billingMonthWindow: from the billing day, or the UTC calendar month', () => {
  it.each<[string, number | null, string, string]>([
    ['2026-03-10T12:00:00.000Z', 15, '2026-02-15T00:00:00.000Z', '2026-03-15T00:00:00.000Z'],
    ['2026-03-15T00:00:00.000Z', 15, '2026-03-15T00:00:00.000Z', '2026-04-15T00:00:00.000Z'],
    ['2026-03-14T23:59:59.999Z', 15, '2026-02-15T00:00:00.000Z', '2026-03-15T00:00:00.000Z'],
    // 31-day months and February
    ['2026-01-31T10:00:00.000Z', 28, '2026-01-28T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
    ['2026-02-27T10:00:00.000Z', 28, '2026-01-28T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
    ['2026-03-31T10:00:00.000Z', 1, '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z'],
    ['2026-02-10T10:00:00.000Z', null, '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['2028-02-29T23:00:00.000Z', null, '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
    // year end in both directions
    ['2026-12-20T10:00:00.000Z', 15, '2026-12-15T00:00:00.000Z', '2027-01-15T00:00:00.000Z'],
    ['2027-01-03T10:00:00.000Z', 15, '2026-12-15T00:00:00.000Z', '2027-01-15T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', null, '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    // accounts take 1-28; the pure function clamps larger days to a short month's last day
    ['2026-02-28T10:00:00.000Z', 31, '2026-02-28T00:00:00.000Z', '2026-03-31T00:00:00.000Z'],
    ['2026-02-27T10:00:00.000Z', 31, '2026-01-31T00:00:00.000Z', '2026-02-28T00:00:00.000Z'],
  ])('%s, billing day %s -> [%s, %s)', (now, day, start, reset) => {
    const w = billingMonthWindow(new Date(now), day);
    expect([iso(w.start), iso(w.resetsAt)]).toEqual([start, reset]);
  });

  it.each([0, 32, 1.5])('rejects billing day %s', (day) => {
    expect(() => billingMonthWindow(new Date('2026-03-10T00:00:00.000Z'), day)).toThrow(RangeError);
  });
});

/** A snapshot of the starter plan (or caps given) at `now`, with day/month usage. */
function windowsSnapshot(
  now: string,
  opts: { billingDay?: number | null; day: Partial<WindowUsage>; month: Partial<WindowUsage> },
): CreditSnapshot {
  const n = new Date(now);
  const d = dayWindow(n);
  const m = billingMonthWindow(n, opts.billingDay ?? null);
  const w = (base: { start: Date; resetsAt: Date }, cap: number, over: Partial<WindowUsage>): WindowUsage => ({
    start: iso(base.start),
    resetsAt: iso(base.resetsAt),
    cap,
    used: 0,
    held: 0,
    ...over,
  });
  return {
    plan: plan('starter'),
    account: account(opts.billingDay ?? null),
    contact: { kind: 'windows', day: w(d, 1000, opts.day), month: w(m, 10_000, opts.month) },
    premium: { month: w(m, 1000, {}) },
  };
}

describe('quotaBlock on paid plans: binding = the window that runs out first at the current pace', () => {
  const NOON = '2026-03-10T12:00:00.000Z'; // half the day gone; 9.5 of 31 days of the calendar month gone
  const MIDNIGHT = '2026-03-11T00:00:00.000Z';
  const APRIL = '2026-04-01T00:00:00.000Z';
  it.each<
    [
      string,
      string,
      Parameters<typeof windowsSnapshot>[1],
      { month: number; today: number; binding: 'day' | 'month'; resets: string },
    ]
  >([
    [
      'idle account: neither runs out, day has less left',
      NOON,
      { day: {}, month: {} },
      { month: 10_000, today: 1000, binding: 'day', resets: MIDNIGHT },
    ],
    [
      'day pace exhausts it in 8h (< 12h left), month in ~25h: day is sooner',
      NOON,
      { day: { used: 600 }, month: { used: 9000 } },
      { month: 1000, today: 400, binding: 'day', resets: MIDNIGHT },
    ],
    [
      'day lasts, month runs out in ~5h at its pace',
      NOON,
      { day: { used: 100 }, month: { used: 9800 } },
      { month: 200, today: 200, binding: 'month', resets: APRIL },
    ],
    [
      'month spent: month binds and today has nothing either',
      NOON,
      { day: { used: 10 }, month: { used: 10_000 } },
      { month: 0, today: 0, binding: 'month', resets: APRIL },
    ],
    [
      'both spent: tie goes to month',
      NOON,
      { day: { used: 1000 }, month: { used: 10_000 } },
      { month: 0, today: 0, binding: 'month', resets: APRIL },
    ],
    [
      'day spent, month not: day',
      NOON,
      { day: { used: 1000 }, month: { used: 1000 } },
      { month: 9000, today: 0, binding: 'day', resets: MIDNIGHT },
    ],
    [
      'holds count as spent',
      NOON,
      { day: { used: 500, held: 500 }, month: { used: 500, held: 500 } },
      { month: 9000, today: 0, binding: 'day', resets: MIDNIGHT },
    ],
    [
      'month cap below day cap, idle: month has less left',
      NOON,
      { day: {}, month: { cap: 800 } },
      { month: 800, today: 800, binding: 'month', resets: APRIL },
    ],
    [
      'equal remaining, idle: tie goes to month',
      NOON,
      { day: { cap: 500 }, month: { cap: 500 } },
      { month: 500, today: 500, binding: 'month', resets: APRIL },
    ],
    [
      'burst in the first 30 s is paced over one minute, and still runs out',
      '2026-03-10T00:00:30.000Z',
      { day: { used: 10 }, month: { used: 10 } },
      { month: 9990, today: 990, binding: 'day', resets: MIDNIGHT },
    ],
    [
      'billing day 15: the month resets on the 15th',
      NOON,
      { billingDay: 15, day: { used: 50 }, month: { used: 9990 } },
      { month: 10, today: 10, binding: 'month', resets: '2026-03-15T00:00:00.000Z' },
    ],
    [
      'cap lowered below usage: remaining is 0, never negative',
      NOON,
      { day: { cap: 10, used: 12 }, month: { cap: 10, used: 12 } },
      { month: 0, today: 0, binding: 'month', resets: APRIL },
    ],
  ])('%s', (_title, now, usage, want) => {
    const q = quotaBlock(windowsSnapshot(now, usage), new Date(now), 7);
    expect(q).toEqual({
      plan: 'starter',
      contact_credits_used: 7,
      month_remaining: want.month,
      today_remaining: want.today,
      binding: want.binding,
      resets_at: want.resets,
    });
  });

  it('keeps the spec field order and RFC 3339 milliseconds', () => {
    const q = quotaBlock(windowsSnapshot(NOON, { day: {}, month: {} }), new Date(NOON), 0);
    expect(Object.keys(q)).toEqual([
      'plan',
      'contact_credits_used',
      'month_remaining',
      'today_remaining',
      'binding',
      'resets_at',
    ]);
    expect(q.resets_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('bindingWindow directly', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  const day = { start: new Date('2026-03-10T00:00:00.000Z'), resetsAt: new Date('2026-03-11T00:00:00.000Z') };
  const month = { start: new Date('2026-03-01T00:00:00.000Z'), resetsAt: new Date('2026-04-01T00:00:00.000Z') };
  it.each<[string, 'day' | 'month', [number, number], [number, number]]>([
    // [consumed, remaining] of the day, then of the month
    ['both run out, month sooner', 'month', [100, 1000], [9000, 100]],
    ['both run out, day sooner', 'day', [900, 100], [9000, 1000]],
    ['day remaining 0 while the month is slow', 'day', [1000, 0], [1000, 9000]],
    ['only month runs out', 'month', [10, 990], [9000, 1000]],
    ['neither, day has less', 'day', [10, 990], [10, 9990]],
  ])('%s -> %s', (_t, want, [dc, dr], [mc, mr]) => {
    expect(bindingWindow({ ...day, consumed: dc, remaining: dr }, { ...month, consumed: mc, remaining: mr }, now)).toBe(
      want,
    );
  });
});

describe('quotaBlock on the free plan and unlimited plans', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  const premium = { start: '2026-03-01T00:00:00.000Z', resetsAt: '2026-04-01T00:00:00.000Z', cap: 0, used: 0, held: 0 };

  it.each<[number, number, number]>([
    [0, 0, 100],
    [30, 5, 65],
    [100, 0, 0],
    [99, 5, 0],
  ])('free pool used %d held %d -> %d left, binding month, far-future reset', (used, held, left) => {
    const s: CreditSnapshot = {
      plan: plan('free'),
      account: account(null),
      contact: { kind: 'pool', pool: { start: null, resetsAt: FAR_FUTURE, cap: 100, used, held } },
      premium: { month: premium },
    };
    expect(quotaBlock(s, now, 3)).toEqual({
      plan: 'free',
      contact_credits_used: 3,
      month_remaining: left,
      today_remaining: left,
      binding: 'month',
      resets_at: '9999-12-31T23:59:59.000Z',
    });
  });

  function unlimited(usage: Record<'search' | 'export' | 'enrich', [number, number]>): CreditSnapshot {
    const dayW = (used: number): WindowUsage => ({
      start: '2026-03-10T00:00:00.000Z',
      resetsAt: '2026-03-11T00:00:00.000Z',
      cap: 50_000,
      used,
      held: 0,
    });
    const monthW = (used: number): WindowUsage => ({
      start: '2026-03-01T00:00:00.000Z',
      resetsAt: '2026-04-01T00:00:00.000Z',
      cap: 1_000_000,
      used,
      held: 0,
    });
    const cat = (k: keyof typeof usage) => ({ day: dayW(usage[k][0]), month: monthW(usage[k][1]) });
    return {
      plan: plan('unlimited'),
      account: account(null),
      contact: {
        kind: 'unlimited',
        categories: { search: cat('search'), export: cat('export'), enrich: cat('enrich') },
      },
      premium: { month: { ...premium, cap: 50_000 } },
    };
  }

  it.each<[string, Parameters<typeof unlimited>[0], number, number, 'day' | 'month']>([
    ['idle: the fair-use budgets', { search: [0, 0], export: [0, 0], enrich: [0, 0] }, 1_000_000, 50_000, 'day'],
    [
      'smallest day among categories, smallest month among categories',
      { search: [40_000, 40_000], export: [0, 990_000], enrich: [10, 10] },
      10_000,
      10_000,
      'month',
    ],
    [
      'export day nearly spent at a fast pace',
      { search: [0, 0], export: [49_000, 49_000], enrich: [0, 0] },
      951_000,
      1_000,
      'day',
    ],
  ])('%s', (_t, usage, month, today, binding) => {
    const q = quotaBlock(unlimited(usage), now, 0);
    expect([q.month_remaining, q.today_remaining, q.binding]).toEqual([month, today, binding]);
  });
});

describe('creditsView: the GET /v1/credits payload', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  it('paid plan: both windows and premium', () => {
    const s = windowsSnapshot('2026-03-10T12:00:00.000Z', {
      day: { used: 100, held: 20 },
      month: { used: 300, held: 20 },
    });
    s.premium.month = { ...s.premium.month, used: 200, held: 50 };
    expect(creditsView(s, now)).toEqual({
      plan: 'starter',
      contact: {
        kind: 'windows',
        day: {
          cap: 1000,
          used: 100,
          held: 20,
          remaining: 880,
          starts_at: '2026-03-10T00:00:00.000Z',
          resets_at: '2026-03-11T00:00:00.000Z',
        },
        month: {
          cap: 10_000,
          used: 300,
          held: 20,
          remaining: 9680,
          starts_at: '2026-03-01T00:00:00.000Z',
          resets_at: '2026-04-01T00:00:00.000Z',
        },
        binding: 'day',
      },
      premium: { allowance: 1000, used: 200, held: 50, available: 750, resets_at: '2026-04-01T00:00:00.000Z' },
      fair_use: null,
    });
  });

  it('free plan: the pool has no start and never resets', () => {
    const pool: WindowUsage = { start: null, resetsAt: FAR_FUTURE, cap: 100, used: 40, held: 0 };
    const month: WindowUsage = {
      start: '2026-03-01T00:00:00.000Z',
      resetsAt: '2026-04-01T00:00:00.000Z',
      cap: 0,
      used: 0,
      held: 0,
    };
    const v = creditsView(
      { plan: plan('free'), account: account(null), contact: { kind: 'pool', pool }, premium: { month } },
      now,
    );
    expect(v.contact).toEqual({
      kind: 'pool',
      pool: { cap: 100, used: 40, held: 0, remaining: 60, starts_at: null, resets_at: FAR_FUTURE },
    });
    expect(v.premium.available).toBe(0);
    expect(v.fair_use).toBeNull();
  });
});

describe('budgetsFor and contactExhausted', () => {
  const now = new Date('2026-03-10T12:00:00.000Z');
  it.each<[string, 'contact' | 'premium', 'search' | null, string[]]>([
    ['free', 'contact', null, ['pool:*:100']],
    ['starter', 'contact', null, ['day:*:1000', 'month:*:10000']],
    ['starter', 'premium', null, ['month:*:1000']],
    ['unlimited', 'contact', 'search', ['day:search:50000', 'month:search:1000000']],
    ['unlimited', 'premium', 'search', ['month:*:50000']],
  ])('%s %s (%s) -> %j', (slug, kind, category, want) => {
    expect(budgetsFor(plan(slug), 15, kind, category, now).map((b) => `${b.window}:${b.scope}:${b.cap}`)).toEqual(want);
  });

  it('an unlimited contact reservation without a category is a caller bug', () => {
    expect(() => budgetsFor(plan('unlimited'), null, 'contact', null, now)).toThrow(TypeError);
  });

  const day: Budget = {
    window: 'day',
    start: '2026-03-10T00:00:00.000Z',
    resetsAt: '2026-03-11T00:00:00.000Z',
    scope: '*',
    cap: 10,
  };
  const month: Budget = {
    window: 'month',
    start: '2026-03-01T00:00:00.000Z',
    resetsAt: '2026-04-01T00:00:00.000Z',
    scope: '*',
    cap: 20,
  };
  const pool: Budget = { window: 'pool', start: '', resetsAt: FAR_FUTURE, scope: '*', cap: 100 };
  it.each<[string, Budget[], 'day' | 'month', string]>([
    ['only the day is short', [day], 'day', day.resetsAt],
    ['day and month short: the month binds (a day reset does not help)', [day, month], 'month', month.resetsAt],
    ['the pool: month and far-future', [pool], 'month', FAR_FUTURE],
  ])('%s', (_t, budgets, binding, resets) => {
    const e = contactExhausted(
      budgets.map((budget) => ({ budget, remaining: 1 })),
      5,
    );
    expect(e).toBeInstanceOf(AppError);
    expect([e.code, e.status, e.details]).toEqual(['contact_credits.exhausted', 402, { binding, resets_at: resets }]);
  });
});
