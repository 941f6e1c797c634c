import type { StateStore } from '../../src/state/port.js';
import type { StoreFactory } from './conformance.js';
import { describeRedis, redisFactory, sqliteFactory } from './store-factories.js';

const t0 = new Date('2026-11-10T12:00:00Z');
const LEASE = 60_000;

/** Idempotency records on one storage seen from two stores (two processes); the same expectations per adapter. */
function idempotencySuite(name: string, makeFactory: () => StoreFactory): void {
  describe(`idempotency records (${name})`, () => {
    let factory: StoreFactory;
    let a: StateStore;
    let b: StateStore;
    let accountId: string;

    beforeAll(async () => {
      factory = makeFactory();
      a = await factory.open();
      b = await factory.open();
      accountId = (await a.createAccount({ name: 'x', plan: 'pro', billingDay: null, now: t0 })).id;
    });
    afterAll(async () => {
      await a.close();
      await b.close();
      await factory.dispose();
    });

    it('claims a key once; a second claimer sees it running, even from another connection', async () => {
      expect(await a.beginIdempotent(accountId, 'k1', 'h1', t0, LEASE)).toEqual({ state: 'new' });
      expect(await b.beginIdempotent(accountId, 'k1', 'h1', t0, LEASE)).toEqual({ state: 'running' });
    });

    it('replays the stored answer for the same hash, refuses another hash', async () => {
      await a.finishIdempotent(accountId, 'k1', 201, { ok: true, n: 3 });
      expect(await b.beginIdempotent(accountId, 'k1', 'h1', t0, LEASE)).toEqual({
        state: 'replay',
        status: 201,
        body: { ok: true, n: 3 },
      });
      expect(await b.beginIdempotent(accountId, 'k1', 'h2', t0, LEASE)).toEqual({ state: 'mismatch' });
    });

    it('forgets a key after 24 hours', async () => {
      const later = new Date(t0.getTime() + 24 * 3600 * 1000 + 1);
      expect(await a.beginIdempotent(accountId, 'k1', 'h2', later, LEASE)).toEqual({ state: 'new' });
    });

    it('an abandoned key can be claimed again', async () => {
      expect(await a.beginIdempotent(accountId, 'k2', 'h', t0, LEASE)).toEqual({ state: 'new' });
      await a.abandonIdempotent(accountId, 'k2');
      expect(await b.beginIdempotent(accountId, 'k2', 'h', t0, LEASE)).toEqual({ state: 'new' });
    });

    it('a running record past its lease (its process died) is claimed again; inside the lease it is running', async () => {
      expect(await a.beginIdempotent(accountId, 'k3', 'h', t0, LEASE)).toEqual({ state: 'new' });
      const inside = new Date(t0.getTime() + LEASE - 1);
      expect(await b.beginIdempotent(accountId, 'k3', 'h', inside, LEASE)).toEqual({ state: 'running' });
      const past = new Date(t0.getTime() + LEASE + 1);
      expect(await b.beginIdempotent(accountId, 'k3', 'h', past, LEASE)).toEqual({ state: 'new' });
      // the new claim holds the key with a fresh lease
      expect(await a.beginIdempotent(accountId, 'k3', 'h', new Date(past.getTime() + 10), LEASE)).toEqual({
        state: 'running',
      });
      // a finished answer is kept past the lease: it replays for 24 hours
      await b.finishIdempotent(accountId, 'k3', 200, { n: 1 });
      expect(await a.beginIdempotent(accountId, 'k3', 'h', new Date(t0.getTime() + 3600_000), LEASE)).toMatchObject({
        state: 'replay',
      });
    });

    it('keys are per account', async () => {
      const other = (await a.createAccount({ name: 'y', plan: 'pro', billingDay: null, now: t0 })).id;
      expect(await a.beginIdempotent(other, 'k2', 'zzz', t0, LEASE)).toEqual({ state: 'new' });
    });

    it('of many concurrent claims of one key from two stores, exactly one is new', async () => {
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).beginIdempotent(accountId, 'k4', 'h', t0, LEASE)),
      );
      expect(claims.filter((c) => c.state === 'new')).toHaveLength(1);
      expect(claims.filter((c) => c.state === 'running')).toHaveLength(19);
    });
  });
}

idempotencySuite('SQLite', () => sqliteFactory('p'));
describeRedis('idempotency records on Redis', () => idempotencySuite('Redis', () => redisFactory(undefined, 'p')));
