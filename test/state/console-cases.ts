import type { StateStore } from '../../src/state/port.js';

/**
 * The web console's part of the StateStore contract (runStateStoreSuite calls it on every adapter): the usage
 * chart's per-day records written as holds settle, and sessions kept by token hash with their expiry.
 */
const D1 = new Date('2026-03-09T23:30:00.000Z');
const D2 = new Date('2026-03-10T00:30:00.000Z');
const D3 = new Date('2026-03-10T12:00:00.000Z');

export function consoleCases(current: () => StateStore): void {
  describe('usage per day (console chart)', () => {
    it('adds each charge to the UTC day of its settlement, by kind and line; releases and zero charges add nothing', async () => {
      const s = current();
      const a = (await s.createAccount({ name: 'A', plan: 't_windows', billingDay: null, now: D1 })).id;
      const b = (await s.createAccount({ name: 'B', plan: 't_windows', billingDay: null, now: D1 })).id;
      const search = await s.reserve({
        accountId: a,
        kind: 'contact',
        category: 'search',
        amount: 3,
        mode: 'exact',
        now: D1,
      });
      await s.commit(search.id, 2, D1);
      const lookup = await s.reserve({
        accountId: a,
        kind: 'contact',
        category: 'search',
        amount: 2,
        mode: 'exact',
        now: D1,
        line: 'lookups',
      });
      // Held before midnight, settled after: the day of the settlement.
      await s.commit(lookup.id, 2, D2);
      const premium = await s.reserve({
        accountId: a,
        kind: 'premium',
        category: null,
        amount: 4,
        mode: 'exact',
        now: D2,
      });
      await s.commit(premium.id, 3, D3);
      const released = await s.reserve({
        accountId: a,
        kind: 'contact',
        category: 'enrich',
        amount: 1,
        mode: 'exact',
        now: D3,
      });
      await s.releaseHold(released.id, D3);
      const zero = await s.reserve({
        accountId: a,
        kind: 'contact',
        category: 'export',
        amount: 1,
        mode: 'exact',
        now: D3,
      });
      await s.commit(zero.id, 0, D3);
      const again = await s.reserve({
        accountId: a,
        kind: 'contact',
        category: 'search',
        amount: 1,
        mode: 'exact',
        now: D3,
      });
      await s.commit(again.id, 1, D3);
      await s.commit(again.id, 1, D3); // settling twice charges once
      const other = await s.reserve({
        accountId: b,
        kind: 'contact',
        category: 'search',
        amount: 1,
        mode: 'exact',
        now: D3,
      });
      await s.commit(other.id, 1, D3);

      expect(await s.usageByDay(a, '2026-03-01', '2026-03-31')).toEqual([
        { day: '2026-03-09', kind: 'contact', line: 'search', credits: 2 },
        { day: '2026-03-10', kind: 'contact', line: 'lookups', credits: 2 },
        { day: '2026-03-10', kind: 'contact', line: 'search', credits: 1 },
        { day: '2026-03-10', kind: 'premium', line: 'signals', credits: 3 },
      ]);
      expect(await s.usageByDay(a, '2026-03-10', '2026-03-10')).toHaveLength(3);
      expect(await s.usageByDay(b, '2026-03-01', '2026-03-31')).toEqual([
        { day: '2026-03-10', kind: 'contact', line: 'search', credits: 1 },
      ]);
    });
  });

  describe('console sessions', () => {
    it('finds a session by token hash until it expires, rebinds its key and deletes it', async () => {
      const s = current();
      const a = (await s.createAccount({ name: 'A', plan: 't_windows', billingDay: null, now: D1 })).id;
      const session = {
        tokenHash: 'f'.repeat(64),
        accountId: a,
        keyId: 'key_1',
        createdAt: D1.toISOString(),
        expiresAt: new Date(D1.getTime() + 3_600_000).toISOString(),
      };
      await s.createSession(session);
      expect(await s.getSession(session.tokenHash, D1)).toEqual(session);
      expect(await s.getSession('e'.repeat(64), D1)).toBeUndefined();
      await s.rebindSession(session.tokenHash, null);
      expect((await s.getSession(session.tokenHash, D1))?.keyId).toBeNull();
      await s.rebindSession(session.tokenHash, 'key_2');
      expect((await s.getSession(session.tokenHash, D1))?.keyId).toBe('key_2');
      expect(await s.getSession(session.tokenHash, new Date(session.expiresAt))).toBeUndefined();
      await s.deleteSession(session.tokenHash);
      expect(await s.getSession(session.tokenHash, D1)).toBeUndefined();
      await s.rebindSession(session.tokenHash, 'key_3');
      expect(await s.getSession(session.tokenHash, D1)).toBeUndefined();
    });
  });
}
