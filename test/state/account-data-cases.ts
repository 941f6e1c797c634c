import type { Audience } from '../../src/domain/audiences/store.js';
import { REQUEST_LOG_CAP, type RequestLogEntry } from '../../src/domain/request-log.js';
import type { StateStore } from '../../src/state/port.js';

/**
 * Saved audiences and the request log, the StateStore's part for issue 40 (runStateStoreSuite calls it on every
 * adapter): tenancy by account, the audience limit checked atomically, one history point per release (latest wins),
 * a new filter clearing the history, counts of an older filter version not recorded; the request log capped per
 * account, newest first.
 */
const T0 = new Date('2026-05-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function accountDataCases(current: () => StateStore): void {
  const account = async (s: StateStore, name: string) =>
    (await s.createAccount({ name, plan: 't_windows', billingDay: null, now: T0 })).id;

  describe('saved audiences', () => {
    it('saves, reads, lists newest first and keeps each account to its own', async () => {
      const s = current();
      const a = await account(s, 'A');
      const b = await account(s, 'B');
      const first = await s.createAudience(
        a,
        { name: 'US VPs', description: null, filter: { countries: ['us'], seniority: ['vp'] }, now: at(0) },
        10,
      );
      const second = await s.createAudience(
        a,
        { name: 'Germany', description: 'DACH', filter: { countries: ['de'] }, now: at(1) },
        10,
      );
      expect(first).toMatchObject({
        accountId: a,
        name: 'US VPs',
        description: null,
        filter: { countries: ['us'], seniority: ['vp'] },
        filterVersion: 1,
        createdAt: at(0).toISOString(),
        updatedAt: at(0).toISOString(),
        history: [],
      });
      expect(await s.getAudience(a, first.id)).toEqual(first);
      expect(await s.getAudience(a, second.id)).toEqual(second);
      expect((await s.listAudiences(a)).map((x) => x.id)).toEqual([second.id, first.id]);
      // Another account's id is unknown to every method.
      expect(await s.getAudience(b, first.id)).toBeUndefined();
      expect(await s.listAudiences(b)).toEqual([]);
      expect(await s.updateAudience(b, first.id, { name: 'x' }, at(2))).toBeUndefined();
      expect(await s.deleteAudience(b, first.id)).toBe(false);
      expect(
        await s.recordAudienceCount(b, first.id, 1, { release: 'r1', count: 5, countedAt: at(2).toISOString() }),
      ).toBeUndefined();
      expect(await s.getAudience(a, first.id)).toEqual(first);
    });

    it('refuses the audience past the limit with audiences.limit_reached; check and insert are atomic', async () => {
      const s = current();
      const a = await account(s, 'A');
      const tries = await Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          s.createAudience(a, { name: `n${i}`, description: null, filter: {}, now: at(i) }, 5),
        ),
      );
      expect(tries.filter((t) => t.status === 'fulfilled')).toHaveLength(5);
      for (const t of tries.filter((x) => x.status === 'rejected'))
        expect((t as PromiseRejectedResult).reason).toMatchObject({ code: 'audiences.limit_reached' });
      expect(await s.listAudiences(a)).toHaveLength(5);
      // Deleting one makes room for one.
      const one = (await s.listAudiences(a))[0]!;
      expect(await s.deleteAudience(a, one.id)).toBe(true);
      expect(await s.deleteAudience(a, one.id)).toBe(false);
      expect(await s.getAudience(a, one.id)).toBeUndefined();
      await s.createAudience(a, { name: 'again', description: null, filter: {}, now: at(20) }, 5);
      await expect(
        s.createAudience(a, { name: 'over', description: null, filter: {}, now: at(21) }, 5),
      ).rejects.toMatchObject({ code: 'audiences.limit_reached' });
    });

    it('keeps one point per release (latest wins), oldest first; a new filter clears it; stale versions are not recorded', async () => {
      const s = current();
      const a = await account(s, 'A');
      const aud = await s.createAudience(
        a,
        { name: 'n', description: 'd', filter: { countries: ['us'] }, now: at(0) },
        10,
      );
      const point = (release: string, count: number, m: number) => ({ release, count, countedAt: at(m).toISOString() });
      await s.recordAudienceCount(a, aud.id, 1, point('r1', 10, 1));
      await s.recordAudienceCount(a, aud.id, 1, point('r1', 11, 2));
      const after = (await s.recordAudienceCount(a, aud.id, 1, point('r2', 20, 3))) as Audience;
      expect(after.history).toEqual([point('r1', 11, 2), point('r2', 20, 3)]);
      expect((await s.getAudience(a, aud.id))!.history).toEqual(after.history);
      // Name and description alone keep the history and the version.
      const renamed = (await s.updateAudience(a, aud.id, { name: 'm', description: null }, at(4))) as Audience;
      expect(renamed).toMatchObject({ name: 'm', description: null, filterVersion: 1, updatedAt: at(4).toISOString() });
      expect(renamed.history).toHaveLength(2);
      expect(renamed.createdAt).toBe(at(0).toISOString());
      // A new filter: next version, empty history; a count made with the old filter is not recorded.
      const refiltered = (await s.updateAudience(a, aud.id, { filter: { countries: ['de'] } }, at(5))) as Audience;
      expect(refiltered).toMatchObject({ filter: { countries: ['de'] }, filterVersion: 2, history: [], name: 'm' });
      const stale = await s.recordAudienceCount(a, aud.id, 1, point('r3', 30, 6));
      expect(stale?.history).toEqual([]);
      await s.recordAudienceCount(a, aud.id, 2, point('r3', 31, 7));
      expect((await s.getAudience(a, aud.id))!.history).toEqual([point('r3', 31, 7)]);
      // Deleting takes the history with it: an audience saved later starts empty.
      expect(await s.deleteAudience(a, aud.id)).toBe(true);
      expect(await s.recordAudienceCount(a, aud.id, 2, point('r4', 1, 8))).toBeUndefined();
    });
  });

  describe('request log', () => {
    const entry = (accountId: string, i: number, over: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
      requestId: `req_${accountId.slice(-6)}${String(i).padStart(6, '0')}`,
      accountId,
      at: at(i).toISOString(),
      face: 'rest',
      method: 'POST',
      route: '/v1/contacts/count',
      operation: 'contacts.count',
      status: 200,
      errorCode: null,
      credits: 0,
      durationMs: 3.5,
      keyPrefix: 'cds_live_ab',
      client: null,
      ...over,
    });

    it('appends, lists newest first, finds one by request id, and keeps each account to its own', async () => {
      const s = current();
      const a = await account(s, 'A');
      const b = await account(s, 'B');
      const e1 = entry(a, 1);
      const e2 = entry(a, 2, { status: 404, errorCode: 'export.not_found', method: 'GET', route: '/v1/exports/:id' });
      const e3 = entry(b, 3, { face: 'mcp', method: null, route: 'find_contacts', credits: 7 });
      await s.appendRequestLog([e1, e2, e3], 10);
      expect(await s.listRequestLog(a)).toEqual([e2, e1]);
      expect(await s.listRequestLog(b)).toEqual([e3]);
      expect(await s.getRequestLogEntry(a, e2.requestId)).toEqual(e2);
      expect(await s.getRequestLogEntry(b, e2.requestId)).toBeUndefined();
      expect(await s.getRequestLogEntry(a, 'req_nothing')).toBeUndefined();
      await s.appendRequestLog([], 10);
      expect(await s.listRequestLog(a)).toHaveLength(2);
    });

    it('keeps the newest `cap` entries of each account', async () => {
      const s = current();
      const a = await account(s, 'A');
      const b = await account(s, 'B');
      for (let batch = 0; batch < 3; batch++)
        await s.appendRequestLog(
          Array.from({ length: 7 }, (_, i) => entry(a, batch * 7 + i)),
          10,
        );
      await s.appendRequestLog([entry(b, 100)], 10);
      const kept = await s.listRequestLog(a);
      expect(kept.map((e) => e.requestId)).toEqual(Array.from({ length: 10 }, (_, i) => entry(a, 20 - i).requestId));
      expect(await s.getRequestLogEntry(a, entry(a, 5).requestId)).toBeUndefined();
      expect(await s.listRequestLog(b)).toHaveLength(1);
      expect(REQUEST_LOG_CAP).toBe(1000);
    });
  });
}
