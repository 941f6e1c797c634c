import fc from 'fast-check';
import type { CreditSnapshot, Plan } from '../../src/domain/account.js';
import type { CreditKind, Hold, UsageCategory, WindowUsage } from '../../src/domain/credits.js';
import { AppError } from '../../src/domain/errors/index.js';
import { billingMonthWindow, dayWindow, FAR_FUTURE, quotaBlock } from '../../src/domain/quota/index.js';
import { applyPlanOverrides, DEFAULT_PLANS } from '../../src/state/plans.js';
import type { StateStore } from '../../src/state/port.js';
import { accountDataCases } from './account-data-cases.js';
import { consoleCases } from './console-cases.js';
import { oauthCases } from './oauth-cases.js';
import { optOutCases } from './optouts-cases.js';
import { webhookCases } from './webhooks-cases.js';

/** How a suite gets stores: every `open` of one factory shares the same storage (two "processes"). */
export interface StoreFactory {
  open(opts?: { plans?: readonly Plan[] }): Promise<StateStore>;
  /** Deletes the storage; called after every opened store was closed. */
  dispose(): Promise<void>;
}

/** Small caps so that every limit is reached in a few calls. */
export const TEST_PLANS: readonly Plan[] = [
  {
    slug: 't_windows',
    name: 'T windows',
    contact: { kind: 'windows', daily: 10, monthly: 25 },
    premiumMonthly: 7,
    alerts: true,
    maxActiveAlerts: 100,
  },
  {
    slug: 't_pool',
    name: 'T pool',
    contact: { kind: 'pool', pool: 5 },
    premiumMonthly: 0,
    alerts: false,
    maxActiveAlerts: 0,
  },
  {
    slug: 't_unlimited',
    name: 'T unlimited',
    contact: {
      kind: 'unlimited',
      fairUse: {
        search: { daily: 4, monthly: 6 },
        export: { daily: 3, monthly: 100 },
        enrich: { daily: 100, monthly: 100 },
      },
    },
    premiumMonthly: 7,
    alerts: true,
    maxActiveAlerts: 100,
  },
];

/** Noon on 2026-03-10; with billing day 15 the billing month is [2026-02-15, 2026-03-15). */
const T0 = new Date('2026-03-10T12:00:00.000Z');
const at = (iso: string) => new Date(iso);
const plus = (d: Date, ms: number) => new Date(d.getTime() + ms);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The AppError a store call rejects with; fails the test when it resolves or rejects with something else. */
async function appError(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

/** Like test/helpers/caught.ts, for a call that answers a promise. */
async function caught(call: Promise<unknown>): Promise<AppError> {
  try {
    await call;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected an AppError, nothing was thrown');
}

/** Runs the StateStore contract against one adapter. */
export function runStateStoreSuite(name: string, makeFactory: () => StoreFactory): void {
  describe(`StateStore conformance: ${name}`, () => {
    let factory: StoreFactory;
    let opened: StateStore[];
    let store: StateStore;
    const open = async (plans: readonly Plan[] = [...DEFAULT_PLANS, ...TEST_PLANS]) => {
      const s = await factory.open({ plans });
      opened.push(s);
      return s;
    };
    const account = async (plan = 't_windows', billingDay: number | null = 15, s = store) =>
      (await s.createAccount({ name: 'Acme', plan, billingDay, now: T0 })).id;
    const contact = (
      accountId: string,
      amount: number,
      mode: 'exact' | 'up_to' = 'exact',
      now = T0,
      category: UsageCategory | null = 'search',
    ) => store.reserve({ accountId, kind: 'contact', category, amount, mode, now });
    const premium = (accountId: string, amount: number, mode: 'exact' | 'up_to' = 'exact', now = T0) =>
      store.reserve({ accountId, kind: 'premium', category: null, amount, mode, now });
    const windows = async (accountId: string, now = T0, s = store) => {
      const c = (await s.snapshot(accountId, now)).contact;
      if (c.kind !== 'windows') throw new Error(`expected a windows plan, got ${c.kind}`);
      return c;
    };
    const counts = (w: WindowUsage) => ({ used: w.used, held: w.held });

    beforeEach(async () => {
      factory = makeFactory();
      opened = [];
      store = await open();
    });
    afterEach(async () => {
      for (const s of opened) await s.close();
      await factory.dispose();
    });

    describe('health', () => {
      it('pings', async () => expect(await store.ping()).toBe(true));
    });

    describe('plans', () => {
      it.each<[string, Plan['contact'], number, boolean, number]>([
        ['free', { kind: 'pool', pool: 100 }, 0, false, 0],
        ['starter', { kind: 'windows', daily: 1000, monthly: 10_000 }, 1000, true, 100],
        ['pro', { kind: 'windows', daily: 10_000, monthly: 100_000 }, 10_000, true, 100],
        [
          'unlimited',
          {
            kind: 'unlimited',
            fairUse: {
              search: { daily: 50_000, monthly: 1_000_000 },
              export: { daily: 50_000, monthly: 1_000_000 },
              enrich: { daily: 50_000, monthly: 1_000_000 },
            },
          },
          50_000,
          true,
          100,
        ],
      ])('default plan %s', (slug, contactAllowance, premiumMonthly, alerts, maxActiveAlerts) => {
        expect(store.getPlan(slug)).toMatchObject({
          slug,
          contact: contactAllowance,
          premiumMonthly,
          alerts,
          maxActiveAlerts,
        });
      });

      it('serves plans with overrides applied and new plans added', async () => {
        const plans = applyPlanOverrides(
          DEFAULT_PLANS,
          {
            starter: { contact: { kind: 'windows', daily: 2, monthly: 3 } },
            team: {
              name: 'Team',
              contact: { kind: 'pool', pool: 9 },
              premiumMonthly: 1,
              alerts: true,
              maxActiveAlerts: 5,
            },
          },
          'test',
        );
        const s = await open(plans);
        expect(s.getPlan('starter')).toEqual({
          ...DEFAULT_PLANS[1],
          contact: { kind: 'windows', daily: 2, monthly: 3 },
        });
        expect(s.getPlan('team')?.name).toBe('Team');
        expect(s.listPlans().map((p) => p.slug)).toEqual(['free', 'starter', 'pro', 'unlimited', 'team']);
        const id = (await s.createAccount({ name: 'a', plan: 'starter', billingDay: null, now: T0 })).id;
        expect(
          (await s.reserve({ accountId: id, kind: 'contact', category: 'search', amount: 5, mode: 'up_to', now: T0 }))
            .amount,
        ).toBe(2);
      });

      it('answers undefined for an unknown slug', () => expect(store.getPlan('gold')).toBeUndefined());
    });

    describe('accounts', () => {
      it('creates, reads and lists accounts', async () => {
        const a = await store.createAccount({ name: ' Acme ', plan: 'starter', billingDay: 15, now: T0 });
        expect(a).toEqual({
          id: expect.stringMatching(/^acc_[0-9A-Za-z]+$/),
          name: 'Acme',
          plan: 'starter',
          billingDay: 15,
          status: 'active',
          createdAt: '2026-03-10T12:00:00.000Z',
        });
        const b = await store.createAccount({ name: 'Beta', plan: 'free', billingDay: null, now: plus(T0, 1000) });
        expect(await store.getAccount(a.id)).toEqual(a);
        expect((await store.listAccounts()).map((x) => x.id)).toEqual([a.id, b.id]);
        expect(await store.getAccount('acc_missing')).toBeUndefined();
      });

      it('keeps accounts across reopen', async () => {
        const a = await store.createAccount({ name: 'Acme', plan: 'pro', billingDay: 1, now: T0 });
        await store.close();
        expect(await (await open()).getAccount(a.id)).toEqual(a);
      });

      it.each<[string, { name: string; plan: string; billingDay: number | null }, string]>([
        ['unknown plan', { name: 'a', plan: 'gold', billingDay: null }, 'plan'],
        ['billing day 0', { name: 'a', plan: 'starter', billingDay: 0 }, 'billing_day'],
        ['billing day 29', { name: 'a', plan: 'starter', billingDay: 29 }, 'billing_day'],
        ['fractional billing day', { name: 'a', plan: 'starter', billingDay: 1.5 }, 'billing_day'],
        ['blank name', { name: '  ', plan: 'starter', billingDay: null }, 'name'],
      ])('refuses %s', async (_t, input, field) => {
        const e = await appError(store.createAccount({ ...input, now: T0 }));
        expect([e.code, e.field]).toEqual(['request.invalid', field]);
        expect(await store.listAccounts()).toEqual([]);
      });

      it('suspends, reactivates and changes plan', async () => {
        const id = await account('starter', null);
        expect((await store.setAccountStatus(id, 'suspended')).status).toBe('suspended');
        expect((await store.getAccount(id))?.status).toBe('suspended');
        expect((await store.setAccountStatus(id, 'active')).status).toBe('active');
        expect(await store.setAccountPlan(id, { plan: 'pro', billingDay: 3 })).toMatchObject({
          plan: 'pro',
          billingDay: 3,
        });
        expect((await appError(store.setAccountPlan(id, { plan: 'gold', billingDay: 3 }))).field).toBe('plan');
      });

      it.each([
        ['setAccountStatus', (s: StateStore) => s.setAccountStatus('acc_missing', 'suspended')],
        ['setAccountPlan', (s: StateStore) => s.setAccountPlan('acc_missing', { plan: 'pro', billingDay: null })],
        ['createKey', (s: StateStore) => s.createKey('acc_missing', { now: T0 })],
        ['snapshot', (s: StateStore) => s.snapshot('acc_missing', T0)],
        [
          'reserve',
          (s: StateStore) =>
            s.reserve({
              accountId: 'acc_missing',
              kind: 'contact',
              category: 'search',
              amount: 1,
              mode: 'exact',
              now: T0,
            }),
        ],
        ['addFeedback', (s: StateStore) => s.addFeedback('acc_missing', { text: 'hi' }, T0)],
      ])('%s on an unknown account answers request.invalid', async (_t, call) => {
        expect((await appError(call(store))).code).toBe('request.invalid');
      });
    });

    describe('keys', () => {
      it('creates a key whose secret is returned once and never listed', async () => {
        const id = await account();
        const { key, secret } = await store.createKey(id, { name: 'ci', now: T0 });
        expect(secret).toMatch(/^cds_[0-9A-Za-z]{40}$/);
        expect(key).toEqual({
          id: expect.stringMatching(/^key_/),
          accountId: id,
          prefix: secret.slice(4, 12),
          name: 'ci',
          createdAt: T0.toISOString(),
          revokedAt: null,
          lastUsedAt: null,
        });
        expect(await store.listKeys(id)).toEqual([key]);
        expect(JSON.stringify(await store.listKeys(id))).not.toContain(secret.slice(12));
      });

      it('gives every key a different secret', async () => {
        const secrets = new Set<string>();
        for (let i = 0; i < 20; i++) secrets.add((await store.createKey(await account(), { now: T0 })).secret);
        expect(secrets.size).toBe(20);
      });

      it('authenticates and records last use at most once a minute', async () => {
        const id = await account();
        const { key, secret } = await store.createKey(id, { now: T0 });
        const first = await store.authenticate(secret, plus(T0, 1000));
        expect(first?.account.id).toBe(id);
        expect(first?.key).toEqual({ ...key, lastUsedAt: plus(T0, 1000).toISOString() });
        expect((await store.authenticate(secret, plus(T0, 30_000)))?.key.lastUsedAt).toBe(plus(T0, 1000).toISOString());
        expect((await store.authenticate(secret, plus(T0, 61_000)))?.key.lastUsedAt).toBe(
          plus(T0, 61_000).toISOString(),
        );
        expect((await store.listKeys(id))[0]?.lastUsedAt).toBe(plus(T0, 61_000).toISOString());
      });

      it('records last use once a minute across processes: a use another process recorded counts', async () => {
        const id = await account();
        const { secret } = await store.createKey(id, { now: T0 });
        const other = await open();
        expect((await other.authenticate(secret, plus(T0, 1000)))?.key.lastUsedAt).toBe(plus(T0, 1000).toISOString());
        // This process has not recorded a use yet; the other's, 29 s ago, is recent.
        expect((await store.authenticate(secret, plus(T0, 30_000)))?.key.lastUsedAt).toBe(plus(T0, 1000).toISOString());
        // A minute after the other process's record (not after this process first saw it), the use is recorded.
        expect((await store.authenticate(secret, plus(T0, 62_000)))?.key.lastUsedAt).toBe(
          plus(T0, 62_000).toISOString(),
        );
        expect((await other.authenticate(secret, plus(T0, 63_000)))?.key.lastUsedAt).toBe(
          plus(T0, 62_000).toISOString(),
        );
        expect((await store.listKeys(id))[0]?.lastUsedAt).toBe(plus(T0, 62_000).toISOString());
      });

      it.each<[string, (secret: string) => string]>([
        ['empty', () => ''],
        ['prefix only', () => 'cds_'],
        ['last character changed', (s) => s.slice(0, -1) + (s.endsWith('a') ? 'b' : 'a')],
        ['without the cds_ prefix', (s) => s.slice(4)],
        ['with a trailing space', (s) => `${s} `],
        ['another well-formed secret', () => `cds_${'A'.repeat(40)}`],
      ])('refuses a secret that is %s', async (_t, mutate) => {
        const { secret } = await store.createKey(await account(), { now: T0 });
        expect(await store.authenticate(mutate(secret), T0)).toBeUndefined();
      });

      it('allows one active key per account', async () => {
        const id = await account();
        const { key } = await store.createKey(id, { now: T0 });
        const e = await appError(store.createKey(id, { now: T0 }));
        expect([e.code, e.status]).toEqual(['key.limit_reached', 409]);
        expect(e.hint).toContain(key.id);
        expect(await store.listKeys(id)).toHaveLength(1);
      });

      it('revokes a key: it stops authenticating and a new key can be made', async () => {
        const id = await account();
        const { key, secret } = await store.createKey(id, { now: T0 });
        const revoked = await store.revokeKey(id, key.id, plus(T0, HOUR));
        expect(revoked).toEqual({ ...key, revokedAt: plus(T0, HOUR).toISOString() });
        expect(await store.authenticate(secret, plus(T0, 2 * HOUR))).toBeUndefined();
        const next = await store.createKey(id, { now: plus(T0, 2 * HOUR) });
        expect((await store.authenticate(next.secret, plus(T0, 2 * HOUR)))?.key.id).toBe(next.key.id);
        expect((await store.listKeys(id)).map((k) => k.id)).toEqual([key.id, next.key.id]);
      });

      it.each<[string, boolean, (ids: { mine: string; myKey: string; otherKey: string }) => [string, string]]>([
        ['an unknown key', false, ({ mine }) => [mine, 'key_missing']],
        ["another account's key", false, ({ mine, otherKey }) => [mine, otherKey]],
        ['an already revoked key', true, ({ mine, myKey }) => [mine, myKey]],
      ])('revoking %s answers key.not_found', async (_t, revokeFirst, pick) => {
        const mine = await account();
        const other = await account();
        const myKey = (await store.createKey(mine, { now: T0 })).key.id;
        const otherKey = await store.createKey(other, { now: T0 });
        if (revokeFirst) await store.revokeKey(mine, myKey, T0);
        const [acc, keyId] = pick({ mine, myKey, otherKey: otherKey.key.id });
        const e = await appError(store.revokeKey(acc, keyId, T0));
        expect([e.code, e.status]).toEqual(['key.not_found', 404]);
        expect((await store.authenticate(otherKey.secret, T0))?.account.id).toBe(other);
      });

      it("authenticates a suspended account's key (the HTTP layer answers 403)", async () => {
        const id = await account();
        const { secret } = await store.createKey(id, { now: T0 });
        await store.setAccountStatus(id, 'suspended');
        expect((await store.authenticate(secret, T0))?.account.status).toBe('suspended');
      });

      it('keeps keys across reopen', async () => {
        const id = await account();
        const { secret } = await store.createKey(id, { now: T0 });
        await store.close();
        expect((await (await open()).authenticate(secret, T0))?.account.id).toBe(id);
      });
    });

    describe('credits: reserve, commit, release', () => {
      it('holds, then charges what was delivered and returns the rest', async () => {
        const id = await account();
        const hold = await contact(id, 6);
        expect(hold).toEqual({
          id: expect.stringMatching(/^hld_/),
          accountId: id,
          kind: 'contact',
          category: 'search',
          amount: 6,
          status: 'held',
          charged: 0,
          createdAt: T0.toISOString(),
          settledAt: null,
        });
        expect(counts((await windows(id)).day)).toEqual({ used: 0, held: 6 });
        const done = await store.commit(hold.id, 4, plus(T0, 1000));
        expect(done).toMatchObject({ status: 'committed', charged: 4, settledAt: plus(T0, 1000).toISOString() });
        expect(await store.getHold(hold.id)).toEqual(done);
        const w = await windows(id);
        expect([counts(w.day), counts(w.month)]).toEqual([
          { used: 4, held: 0 },
          { used: 4, held: 0 },
        ]);
      });

      it('release returns the whole hold', async () => {
        const id = await account();
        const hold = await contact(id, 6);
        expect(await store.releaseHold(hold.id, T0)).toMatchObject({ status: 'released', charged: 0 });
        expect(counts((await windows(id)).day)).toEqual({ used: 0, held: 0 });
        expect((await contact(id, 10)).amount).toBe(10);
      });

      it('clamps a charge above the hold to the hold', async () => {
        const id = await account();
        expect((await store.commit((await contact(id, 3)).id, 99, T0)).charged).toBe(3);
        expect(counts((await windows(id)).day)).toEqual({ used: 3, held: 0 });
      });

      it.each<
        [string, (s: StateStore, holdId: string) => Promise<void>, { status: string; charged: number; used: number }]
      >([
        [
          'commit twice',
          async (s, h) => {
            await s.commit(h, 2, T0);
            await s.commit(h, 5, T0);
          },
          { status: 'committed', charged: 2, used: 2 },
        ],
        [
          'commit then release',
          async (s, h) => {
            await s.commit(h, 2, T0);
            await s.releaseHold(h, T0);
          },
          { status: 'committed', charged: 2, used: 2 },
        ],
        [
          'release then commit',
          async (s, h) => {
            await s.releaseHold(h, T0);
            await s.commit(h, 5, T0);
          },
          { status: 'released', charged: 0, used: 0 },
        ],
        [
          'release twice',
          async (s, h) => {
            await s.releaseHold(h, T0);
            await s.releaseHold(h, T0);
          },
          { status: 'released', charged: 0, used: 0 },
        ],
      ])('%s settles once', async (_t, settle, want) => {
        const id = await account();
        const hold = await contact(id, 5);
        await settle(store, hold.id);
        expect(await store.getHold(hold.id)).toMatchObject({ status: want.status, charged: want.charged });
        expect(counts((await windows(id)).day)).toEqual({ used: want.used, held: 0 });
      });

      it('knows no unknown hold', async () => {
        expect(await store.getHold('hld_missing')).toBeUndefined();
        await expect(store.commit('hld_missing', 1, T0)).rejects.toThrow();
        await expect(store.releaseHold('hld_missing', T0)).rejects.toThrow();
      });

      it.each([-1, 1.5, Number.NaN])('refuses amount %s', async (amount) => {
        await expect(contact(await account(), amount)).rejects.toThrow(RangeError);
      });
    });

    describe('credits: caps, exact vs up_to', () => {
      it('day cap: exact throws with binding day, up_to grants the rest, then 0', async () => {
        const id = await account();
        await store.commit((await contact(id, 8)).id, 8, T0);
        const e = await appError(contact(id, 3));
        expect([e.code, e.status, e.details]).toEqual([
          'contact_credits.exhausted',
          402,
          { binding: 'day', resets_at: '2026-03-11T00:00:00.000Z' },
        ]);
        expect((await contact(id, 3, 'up_to')).amount).toBe(2);
        expect(await contact(id, 5, 'up_to')).toMatchObject({ amount: 0, status: 'held' });
        expect(counts((await windows(id)).day)).toEqual({ used: 8, held: 2 });
      });

      it('active holds count against the cap', async () => {
        const id = await account();
        await contact(id, 6);
        expect((await appError(contact(id, 5))).code).toBe('contact_credits.exhausted');
        expect((await contact(id, 4)).amount).toBe(4);
      });

      it('month cap: binding month, resetting on the billing day', async () => {
        const id = await account('t_windows', 15);
        for (const day of ['2026-03-08T10:00:00.000Z', '2026-03-09T10:00:00.000Z'])
          await store.commit((await contact(id, 10, 'exact', at(day))).id, 10, at(day));
        const e = await appError(contact(id, 6));
        expect(e.details).toEqual({ binding: 'month', resets_at: '2026-03-15T00:00:00.000Z' });
        expect((await contact(id, 10, 'up_to')).amount).toBe(5);
        // the next billing month starts on the 15th
        expect((await contact(id, 10, 'exact', at('2026-03-15T00:00:00.000Z'))).amount).toBe(10);
      });

      it('day and month both spent: binding month', async () => {
        const id = await account('t_windows', 15);
        await store.commit((await contact(id, 10, 'exact', at('2026-03-09T10:00:00.000Z'))).id, 10, T0);
        await store.commit((await contact(id, 10)).id, 10, T0);
        await store.commit((await contact(id, 5, 'exact', plus(T0, DAY))).id, 5, plus(T0, DAY));
        expect((await appError(contact(id, 1, 'exact', plus(T0, DAY)))).details).toEqual({
          binding: 'month',
          resets_at: '2026-03-15T00:00:00.000Z',
        });
      });

      it('a calendar-month account resets on the 1st', async () => {
        const id = await account('t_windows', null);
        await store.commit((await contact(id, 10, 'exact', at('2026-03-30T10:00:00.000Z'))).id, 10, T0);
        await store.commit((await contact(id, 10, 'exact', at('2026-03-31T10:00:00.000Z'))).id, 10, T0);
        expect((await appError(contact(id, 6, 'exact', at('2026-03-31T23:00:00.000Z')))).details).toEqual({
          binding: 'day',
          resets_at: '2026-04-01T00:00:00.000Z',
        });
        expect((await windows(id, at('2026-04-01T00:00:00.000Z'))).month).toMatchObject({
          start: '2026-04-01T00:00:00.000Z',
          used: 0,
          held: 0,
          cap: 25,
        });
      });

      it('free pool: never resets; binding month and far-future', async () => {
        const id = await account('t_pool', null);
        await store.commit((await contact(id, 3)).id, 3, T0);
        const later = plus(T0, 40 * DAY);
        const e = await appError(contact(id, 3, 'exact', later));
        expect(e.details).toEqual({ binding: 'month', resets_at: FAR_FUTURE });
        expect((await contact(id, 3, 'up_to', later)).amount).toBe(2);
        const snap = await store.snapshot(id, later);
        expect(snap.contact).toEqual({
          kind: 'pool',
          pool: { start: null, resetsAt: FAR_FUTURE, cap: 5, used: 3, held: 2 },
        });
      });

      it('the default free plan has a pool of 100 and no premium credits', async () => {
        const id = await account('free', null);
        const snap = await store.snapshot(id, T0);
        expect(snap.contact).toMatchObject({ kind: 'pool', pool: { cap: 100, used: 0 } });
        expect((await contact(id, 100)).amount).toBe(100);
        expect((await appError(contact(id, 1))).code).toBe('contact_credits.exhausted');
        expect((await appError(premium(id, 1))).details).toMatchObject({ required: 1, available: 0, allowance: 0 });
      });

      it('the default starter plan caps a day at 1,000', async () => {
        const id = await account('starter', 15);
        expect((await contact(id, 1000)).amount).toBe(1000);
        expect((await appError(contact(id, 1))).details).toEqual({
          binding: 'day',
          resets_at: '2026-03-11T00:00:00.000Z',
        });
      });

      it('a hold that outlives midnight stays charged to the day it was taken from', async () => {
        const id = await account('t_windows', 15);
        const before = at('2026-03-10T23:50:00.000Z');
        const after = at('2026-03-11T00:10:00.000Z');
        const hold = await contact(id, 6, 'exact', before);
        expect(counts((await windows(id, after)).day)).toEqual({ used: 0, held: 0 });
        expect(counts((await windows(id, after)).month)).toEqual({ used: 0, held: 6 });
        expect((await contact(id, 10, 'exact', after)).amount).toBe(10);
        await store.commit(hold.id, 4, after);
        expect(counts((await windows(id, after)).day)).toEqual({ used: 0, held: 10 });
        expect(counts((await windows(id, before)).day)).toEqual({ used: 4, held: 0 });
        expect(counts((await windows(id, after)).month)).toEqual({ used: 4, held: 10 });
      });

      it('unlimited plans meter each category against its own fair-use windows', async () => {
        const id = await account('t_unlimited', 15);
        expect((await contact(id, 4, 'exact', T0, 'search')).amount).toBe(4);
        expect((await appError(contact(id, 1, 'exact', T0, 'search'))).details).toEqual({
          binding: 'day',
          resets_at: '2026-03-11T00:00:00.000Z',
        });
        expect((await contact(id, 3, 'exact', T0, 'export')).amount).toBe(3);
        expect((await contact(id, 50, 'exact', T0, 'enrich')).amount).toBe(50);
        const tomorrow = plus(T0, DAY);
        expect((await contact(id, 9, 'up_to', tomorrow, 'search')).amount).toBe(2);
        expect((await appError(contact(id, 1, 'exact', tomorrow, 'search'))).details).toEqual({
          binding: 'month',
          resets_at: '2026-03-15T00:00:00.000Z',
        });
        const snap = await store.snapshot(id, tomorrow);
        if (snap.contact.kind !== 'unlimited') throw new Error('expected unlimited');
        expect(counts(snap.contact.categories.search.month)).toEqual({ used: 0, held: 6 });
        expect(counts(snap.contact.categories.export.day)).toEqual({ used: 0, held: 0 });
        expect(counts(snap.contact.categories.export.month)).toEqual({ used: 0, held: 3 });
        expect(snap.contact.categories.enrich.month.cap).toBe(100);
      });

      it('an unlimited contact reservation must name its category', async () => {
        await expect(contact(await account('t_unlimited'), 1, 'exact', T0, null)).rejects.toThrow(TypeError);
      });
    });

    describe('premium credits', () => {
      it('exact throws with required, available, allowance, resets_at and upgrade_url', async () => {
        const id = await account('t_windows', 15);
        await store.commit((await premium(id, 5)).id, 2, T0);
        const e = await appError(premium(id, 6));
        expect([e.code, e.status]).toEqual(['premium_credits.exhausted', 402]);
        expect(e.details).toEqual({
          required: 6,
          available: 5,
          allowance: 7,
          resets_at: '2026-03-15T00:00:00.000Z',
          upgrade_url: expect.stringMatching(/^https?:\/\//),
        });
        expect((await premium(id, 6, 'up_to')).amount).toBe(5);
        expect((await store.snapshot(id, T0)).premium.month).toMatchObject({ cap: 7, used: 2, held: 5 });
      });

      it('premium and contact credits are separate', async () => {
        const id = await account('t_windows', 15);
        await premium(id, 7);
        expect((await contact(id, 10)).amount).toBe(10);
      });

      it('the allowance comes back with the billing month', async () => {
        const id = await account('t_windows', 15);
        await store.commit((await premium(id, 7)).id, 7, T0);
        expect((await premium(id, 7, 'exact', at('2026-03-15T00:00:00.000Z'))).amount).toBe(7);
      });
    });

    describe('two stores on the same storage', () => {
      it('interleaved reserves never pass a cap', async () => {
        const other = await open();
        const id = await account('t_windows', 15);
        const granted: number[] = [];
        for (let i = 0; i < 12; i++) {
          const s = i % 2 === 0 ? store : other;
          const h = await s.reserve({
            accountId: id,
            kind: 'contact',
            category: 'search',
            amount: 3,
            mode: 'up_to',
            now: T0,
          });
          granted.push(h.amount);
          // settle on the other instance: holds are shared state, not per-process
          await (s === store ? other : store).commit(h.id, h.amount, T0);
        }
        expect(granted).toEqual([3, 3, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0]);
        expect(counts((await windows(id, T0, other)).day)).toEqual({ used: 10, held: 0 });
        expect(
          (
            await appError(
              other.reserve({ accountId: id, kind: 'contact', category: 'search', amount: 1, mode: 'exact', now: T0 }),
            )
          ).code,
        ).toBe('contact_credits.exhausted');
      });
    });

    describe('quota block from a real snapshot', () => {
      it('reports what is left after charges', async () => {
        const id = await account('starter', 15);
        await store.commit((await contact(id, 300)).id, 250, T0);
        expect(quotaBlock(await store.snapshot(id, T0), T0, 250)).toEqual({
          plan: 'starter',
          contact_credits_used: 250,
          month_remaining: 9750,
          today_remaining: 750,
          binding: 'day',
          resets_at: '2026-03-11T00:00:00.000Z',
        });
      });
    });

    describe('feedback', () => {
      it('stores feedback rows per account', async () => {
        const a = await account();
        const b = await account();
        const f = await store.addFeedback(a, { message: 'great', rating: 5, tags: ['x'] }, T0);
        expect(f).toEqual({
          id: expect.stringMatching(/^fbk_/),
          accountId: a,
          body: { message: 'great', rating: 5, tags: ['x'] },
          createdAt: T0.toISOString(),
        });
        await store.addFeedback(b, { message: 'other' }, T0);
        expect(await store.listFeedback(a)).toEqual([f]);
      });
    });

    describe('hold leases', () => {
      it('releases only holds whose lease expired (or legacy holds without a lease and without a live job)', async () => {
        const a = await account('t_windows', null);
        const later = (ms: number) => new Date(T0.getTime() + ms);
        const leased = await store.reserve({
          accountId: a,
          kind: 'contact',
          category: 'search',
          amount: 4,
          mode: 'exact',
          now: T0,
          leaseUntil: later(60_000),
        });
        const legacy = await contact(a, 3);
        expect(await store.releaseOrphanHolds(later(30_000))).toBe(1);
        expect((await store.getHold(legacy.id))?.status).toBe('released');
        expect((await store.getHold(leased.id))?.status).toBe('held');
        await store.renewHoldLeases([leased.id], later(120_000));
        expect(await store.releaseOrphanHolds(later(90_000))).toBe(0);
        expect((await store.getHold(leased.id))?.status).toBe('held');
        expect(await store.releaseOrphanHolds(later(120_001))).toBe(1);
        expect((await store.getHold(leased.id))?.status).toBe('released');
        expect((await windows(a, later(120_001))).day).toMatchObject({ used: 0, held: 0 });
        // renewing a settled hold changes nothing
        await store.renewHoldLeases([leased.id], later(999_999));
        expect((await store.getHold(leased.id))?.status).toBe('released');
      });
    });

    describe('saved domain lists', () => {
      it('are scoped to their account and bounded in number and in domains, atomically', async () => {
        const a = await account();
        const b = await account();
        const limits = { lists: 2, domains: 5 };
        const one = await store.createDomainList(a, { name: 'one', domains: ['a.com', 'b.com'], now: T0 }, limits);
        expect((await store.getDomainList(a, one.id))?.domains).toEqual(['a.com', 'b.com']);
        expect(await store.getDomainList(b, one.id)).toBeUndefined();
        const tooMany = await caught(
          store.createDomainList(a, { name: 'x', domains: ['c.com', 'd.com', 'e.com', 'f.com'], now: T0 }, limits),
        );
        expect(tooMany.code).toBe('domain_lists.limit_reached');
        await store.createDomainList(a, { name: 'two', domains: ['c.com'], now: T0 }, limits);
        expect((await caught(store.createDomainList(a, { name: 'x', domains: ['z.com'], now: T0 }, limits))).code).toBe(
          'domain_lists.limit_reached',
        );
        expect((await store.listDomainLists(a)).map((l) => l.name).sort()).toEqual(['one', 'two']);
        expect((await store.createDomainList(b, { name: 'b', domains: ['a.com'], now: T0 }, limits)).accountId).toBe(b);
      });
    });

    optOutCases(
      () => store,
      () => open(),
    );

    consoleCases(() => store);

    accountDataCases(() => store);

    oauthCases(
      () => store,
      () => open(),
    );

    webhookCases(
      () => store,
      () => open(),
    );

    describe('invariants (property)', () => {
      type Op =
        | { t: 'reserve'; kind: CreditKind; category: UsageCategory; amount: number; mode: 'exact' | 'up_to' }
        | { t: 'commit'; index: number; charged: number }
        | { t: 'release'; index: number }
        | { t: 'advance'; ms: number };
      const opArb: fc.Arbitrary<Op> = fc.oneof(
        fc.record({
          t: fc.constant('reserve' as const),
          kind: fc.constantFrom<CreditKind>('contact', 'premium'),
          category: fc.constantFrom<UsageCategory>('search', 'export', 'enrich'),
          amount: fc.integer({ min: 0, max: 12 }),
          mode: fc.constantFrom<'exact' | 'up_to'>('exact', 'up_to'),
        }),
        fc.record({ t: fc.constant('commit' as const), index: fc.nat(), charged: fc.integer({ min: 0, max: 15 }) }),
        fc.record({ t: fc.constant('release' as const), index: fc.nat() }),
        fc.record({ t: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 30 * HOUR }) }),
      );

      function allWindows(s: CreditSnapshot): WindowUsage[] {
        const c = s.contact;
        const contactWindows =
          c.kind === 'pool'
            ? [c.pool]
            : c.kind === 'windows'
              ? [c.day, c.month]
              : Object.values(c.categories).flatMap((x) => [x.day, x.month]);
        return [...contactWindows, s.premium.month];
      }

      it('used + held <= cap, every hold is charged at most its amount, and counters match the holds', async () => {
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom('t_windows', 't_pool', 't_unlimited'),
            fc.array(opArb, { minLength: 1, maxLength: 30 }),
            async (planSlug, ops) => {
              const id = await account(planSlug, 15);
              let now = T0;
              const holds: { hold: Hold; day: string; month: string }[] = [];
              for (const op of ops) {
                if (op.t === 'advance') now = plus(now, op.ms);
                else if (op.t === 'reserve') {
                  try {
                    const hold = await store.reserve({
                      accountId: id,
                      kind: op.kind,
                      category: op.category,
                      amount: op.amount,
                      mode: op.mode,
                      now,
                    });
                    expect(hold.amount).toBeLessThanOrEqual(op.amount);
                    if (op.mode === 'exact') expect(hold.amount).toBe(op.amount);
                    holds.push({
                      hold,
                      day: dayWindow(now).start.toISOString(),
                      month: billingMonthWindow(now, 15).start.toISOString(),
                    });
                  } catch (e) {
                    expect(op.mode).toBe('exact');
                    expect(
                      e instanceof AppError &&
                        e.code === (op.kind === 'contact' ? 'contact_credits.exhausted' : 'premium_credits.exhausted'),
                    ).toBe(true);
                  }
                } else if (holds.length > 0) {
                  const h = holds[op.index % holds.length]!;
                  h.hold =
                    op.t === 'commit'
                      ? await store.commit(h.hold.id, op.charged, now)
                      : await store.releaseHold(h.hold.id, now);
                }

                const snap = await store.snapshot(id, now);
                for (const w of allWindows(snap)) expect(w.used + w.held).toBeLessThanOrEqual(w.cap);
                for (const h of holds) expect(h.hold.charged).toBeLessThanOrEqual(h.hold.amount);

                // The windows plan's counters equal what its holds say, window by window.
                if (snap.contact.kind === 'windows') {
                  const day = dayWindow(now).start.toISOString();
                  const sum = (pick: (h: (typeof holds)[number]) => boolean, f: (h: Hold) => number) =>
                    holds.filter(pick).reduce((n, h) => n + f(h.hold), 0);
                  const charged = (h: Hold) => h.charged;
                  const held = (h: Hold) => (h.status === 'held' ? h.amount : 0);
                  const inDay = (h: (typeof holds)[number]) => h.hold.kind === 'contact' && h.day === day;
                  expect(counts(snap.contact.day)).toEqual({ used: sum(inDay, charged), held: sum(inDay, held) });
                  const inPremiumMonth = (h: (typeof holds)[number]) =>
                    h.hold.kind === 'premium' && h.month === snap.premium.month.start;
                  expect(counts(snap.premium.month)).toEqual({
                    used: sum(inPremiumMonth, charged),
                    held: sum(inPremiumMonth, held),
                  });
                }
              }
            },
          ),
          { numRuns: 60 },
        );
      });
    });
  });
}
