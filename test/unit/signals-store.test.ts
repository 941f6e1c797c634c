import { AppError } from '../../src/domain/errors/index.js';
import { type Engager, HoldNotHeldError, type NewSignal, type SignalRun } from '../../src/network-signals/port.js';
import type { StateStore } from '../../src/state/port.js';
import type { StoreFactory } from '../state/conformance.js';
import { describeRedis, redisFactory, sqliteFactory } from '../state/store-factories.js';

/**
 * SignalStore on each state adapter (a real SQLite file, a real Redis): replay-safe batches, lead counting per
 * source, lead cap, alerts limit; the same expectations for both.
 */
const NOW = new Date('2026-11-10T12:00:00.000Z');
const LEASE = new Date(NOW.getTime() + 60_000);

const engager = (slug: string): Engager => ({
  name: slug,
  headline: null,
  profile_url: `https://network.com/in/${slug}`,
  engagement: 'reaction',
  post_url: null,
  at: NOW.toISOString(),
});
const rows = (from: number, slugs: string[]): NewSignal[] =>
  slugs.map((s, i) => ({
    position: from + i,
    personKey: s,
    engager: engager(s),
    contact: i === 0 ? { id: 'per_x' } : null,
  }));

function signalStoreSuite(name: string, makeFactory: () => StoreFactory): void {
  describe(`SignalStore (${name})`, () => {
    let factory: StoreFactory;
    let store: StateStore;
    let accountId: string;
    beforeEach(async () => {
      factory = makeFactory();
      store = await factory.open();
      accountId = (await store.createAccount({ name: 't', plan: 'pro', billingDay: null, now: NOW })).id;
    });
    afterEach(async () => {
      await store.close();
      await factory.dispose();
    });
    /** A contact hold as a collect run takes one for a batch's matches: leased until LEASE. */
    const signalHold = (amount: number) =>
      store.reserve({
        accountId,
        kind: 'contact',
        category: 'enrich',
        amount,
        mode: 'up_to',
        now: NOW,
        leaseUntil: LEASE,
        line: 'signals',
      });

    describe('signal rows', () => {
      it('counts a person once per source, ignores a replayed batch, and stops at the lead cap', async () => {
        const run: SignalRun = { accountId, sourceType: 'collect', sourceId: 'col_a', runId: 'col_a' };
        expect(await store.addSignals(run, rows(0, ['a', 'b', 'a']), NOW)).toEqual({
          accepted: 3,
          written: 3,
          withContact: 1,
          newLeads: 2,
        });
        // The same positions again (a restart replaying the batch): nothing written.
        expect(await store.addSignals(run, rows(0, ['a', 'b', 'a']), NOW)).toEqual({
          accepted: 3,
          written: 0,
          withContact: 0,
          newLeads: 0,
        });
        // Cap of one more lead: c is written, b (seen) is written, d stops the batch.
        expect(await store.addSignals(run, rows(3, ['c', 'b', 'd', 'e']), NOW, 1)).toEqual({
          accepted: 2,
          written: 2,
          withContact: 1,
          newLeads: 1,
        });
        expect(await store.runStats('col_a')).toEqual({ signals: 5, leads: 3, contactsMatched: 2 });
        const listed = await store.listSignals({ accountId, sourceId: 'col_a', afterSeq: null, limit: 10 });
        expect(listed.map((s) => [s.name, s.lead])).toEqual([
          ['a', true],
          ['b', true],
          ['a', false],
          ['c', true],
          ['b', false],
        ]);
        expect(await store.countSignals({ accountId, sourceType: 'collect', sourceId: 'col_a' })).toBe(5);
        expect(
          (await store.listSignals({ accountId, sourceId: 'col_a', afterSeq: listed[2]!.seq, limit: 10 })).map(
            (s) => s.name,
          ),
        ).toEqual(['c', 'b']);
      });

      it("commits the batch's contact hold in the same step, for the rows written with their contact", async () => {
        const run: SignalRun = { accountId, sourceType: 'collect', sourceId: 'col_h', runId: 'col_h' };
        const take = (amount: number) => signalHold(amount);
        const used = async () => {
          const c = (await store.snapshot(accountId, NOW)).contact;
          if (c.kind !== 'windows') throw new Error(`expected a windows plan, got ${c.kind}`);
          return c.month;
        };
        const before = await used();
        const hold = await take(3);
        // rows(): the first of each batch carries a contact.
        const added = await store.addSignals(run, [...rows(0, ['a', 'b']), ...rows(2, ['c'])], NOW, undefined, hold.id);
        expect(added).toMatchObject({ accepted: 3, written: 3, withContact: 2, newLeads: 3 });
        expect(added.charged).toMatchObject({ id: hold.id, status: 'committed', amount: 3, charged: 2 });
        expect(await store.getHold(hold.id)).toMatchObject({ status: 'committed', charged: 2 });
        // The process dies now: a sweep after its lease finds nothing held, and the rows stay charged.
        expect(await store.releaseOrphanHolds(new Date(LEASE.getTime() + 1))).toBe(0);
        const after = await used();
        expect(after).toMatchObject({ held: before.held });
        expect(after.used - before.used).toBe(2);
        // The resumed run replays the batch with a new hold: nothing written, nothing charged.
        const again = await take(3);
        const replay = await store.addSignals(
          run,
          [...rows(0, ['a', 'b']), ...rows(2, ['c'])],
          NOW,
          undefined,
          again.id,
        );
        expect(replay).toMatchObject({ written: 0, withContact: 0, charged: { status: 'committed', charged: 0 } });
        expect((await used()).used - before.used).toBe(2);
        expect(await store.runStats('col_h')).toEqual({ signals: 3, leads: 3, contactsMatched: 2 });
      });

      it('refuses a batch whose contact hold was swept, writing nothing', async () => {
        const run: SignalRun = { accountId, sourceType: 'collect', sourceId: 'col_s', runId: 'col_s' };
        const hold = await signalHold(2);
        // The worker stalled past its lease: another process released the hold.
        expect(await store.releaseOrphanHolds(new Date(LEASE.getTime() + 1))).toBe(1);
        await expect(store.addSignals(run, rows(0, ['a', 'b']), NOW, undefined, hold.id)).rejects.toBeInstanceOf(
          HoldNotHeldError,
        );
        expect(await store.runStats('col_s')).toEqual({ signals: 0, leads: 0, contactsMatched: 0 });
        expect(await store.getHold(hold.id)).toMatchObject({ status: 'released', charged: 0 });
        // The same rows, retried with a new hold, are written and charged.
        const retry = await signalHold(2);
        expect(await store.addSignals(run, rows(0, ['a', 'b']), NOW, undefined, retry.id)).toMatchObject({
          written: 2,
          withContact: 1,
          charged: { status: 'committed', charged: 1 },
        });
      });

      it("an alert's later run only finds people not seen before; a forgotten run gives its people back", async () => {
        const r1: SignalRun = { accountId, sourceType: 'alert', sourceId: 'alr_a', runId: 'run_1' };
        const r2: SignalRun = { ...r1, runId: 'run_2' };
        await store.addSignals(r1, rows(0, ['a', 'b']), NOW);
        expect((await store.addSignals(r2, rows(0, ['a', 'c']), NOW)).newLeads).toBe(1);
        await store.forgetRunLeads('run_2');
        expect(await store.runStats('run_2')).toEqual({ signals: 2, leads: 0, contactsMatched: 1 });
        const r3: SignalRun = { ...r1, runId: 'run_3' };
        expect((await store.addSignals(r3, rows(0, ['c']), NOW)).newLeads).toBe(1);
      });

      it('stores every field of a row and filters by source type, source and run, paging by seq', async () => {
        const other = (await store.createAccount({ name: 'o', plan: 'pro', billingDay: null, now: NOW })).id;
        const collect: SignalRun = { accountId, sourceType: 'collect', sourceId: 'col_a', runId: 'col_a' };
        const alert1: SignalRun = { accountId, sourceType: 'alert', sourceId: 'alr_a', runId: 'run_1' };
        const alert2: SignalRun = { ...alert1, runId: 'run_2' };
        const elsewhere: SignalRun = { ...collect, accountId: other, sourceId: 'col_b', runId: 'col_b' };
        const full: NewSignal = {
          position: 0,
          personKey: 'ann',
          engager: {
            name: 'Ann Lee',
            headline: 'CTO at Acme',
            profile_url: 'https://network.com/in/ann',
            engagement: 'comment',
            post_url: 'https://network.com/posts/p1',
            at: '2026-11-09T08:00:00.000Z',
          },
          contact: { id: 'per_ann', tags: [], nested: { a: [1, 2] }, empty: {} },
        };
        await store.addSignals(collect, [full, ...rows(1, ['b'])], NOW);
        await store.addSignals(alert1, rows(0, ['c', 'd']), NOW);
        await store.addSignals(alert2, rows(0, ['e']), NOW);
        await store.addSignals(elsewhere, rows(0, ['f']), NOW);
        const all = await store.listSignals({ accountId, afterSeq: null, limit: 100 });
        expect(all.map((s) => s.name)).toEqual(['Ann Lee', 'b', 'c', 'd', 'e']);
        expect(all.map((s) => s.seq)).toEqual([...all.map((s) => s.seq)].sort((x, y) => x - y));
        expect(all[0]).toEqual({
          seq: expect.any(Number),
          id: expect.stringMatching(/^sig_/),
          accountId,
          sourceType: 'collect',
          sourceId: 'col_a',
          runId: 'col_a',
          name: 'Ann Lee',
          headline: 'CTO at Acme',
          profileUrl: 'https://network.com/in/ann',
          engagement: 'comment',
          postUrl: 'https://network.com/posts/p1',
          at: '2026-11-09T08:00:00.000Z',
          lead: true,
          contact: { id: 'per_ann', tags: [], nested: { a: [1, 2] }, empty: {} },
          createdAt: NOW.toISOString(),
        });
        const names = async (q: Partial<Parameters<StateStore['listSignals']>[0]>) =>
          (await store.listSignals({ accountId, afterSeq: null, limit: 100, ...q })).map((s) => s.name);
        expect(await names({ sourceType: 'alert' })).toEqual(['c', 'd', 'e']);
        expect(await names({ sourceType: 'collect', runId: 'run_1' })).toEqual([]);
        expect(await names({ sourceId: 'alr_a', runId: 'run_2' })).toEqual(['e']);
        expect(await names({ runId: 'run_1' })).toEqual(['c', 'd']);
        expect(await names({ sourceId: 'col_b' })).toEqual([]);
        expect(await names({ sourceType: 'alert', limit: 2 })).toEqual(['c', 'd']);
        expect(await names({ sourceType: 'alert', afterSeq: all[3]!.seq })).toEqual(['e']);
        expect(await store.countSignals({ accountId })).toBe(5);
        expect(await store.countSignals({ accountId, sourceType: 'alert' })).toBe(3);
        expect(await store.countSignals({ accountId, sourceType: 'alert', sourceId: 'alr_a', runId: 'run_1' })).toBe(2);
        expect(await store.countSignals({ accountId: other })).toBe(1);
        expect(await store.runStats('run_missing')).toEqual({ signals: 0, leads: 0, contactsMatched: 0 });
      });
    });

    describe('alerts', () => {
      it('refuses a new active alert at the limit, and re-activation at the limit', async () => {
        const input = {
          accountId,
          kind: 'network_profile' as const,
          target: 'https://network.com/in/x',
          intervalMinutes: 60,
          maxFollowers: null,
          now: NOW,
        };
        const a = await store.createAlert(input, 2);
        const b = await store.createAlert(input, 2);
        await expect(store.createAlert(input, 2)).rejects.toThrow(AppError);
        await store.updateAlert(b.id, { active: false }, NOW, 2);
        const c = await store.createAlert(input, 2);
        await expect(store.updateAlert(b.id, { active: true }, NOW, 2)).rejects.toThrow(
          expect.objectContaining({ code: 'alerts.limit_reached' }),
        );
        await store.deleteAlert(c.id, NOW);
        expect((await store.updateAlert(b.id, { active: true }, NOW, 2)).active).toBe(true);
        expect((await store.listAlerts(accountId)).map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
        expect((await store.getAlert(c.id))!.deletedAt).toBe(NOW.toISOString());
        await expect(store.updateAlert(c.id, { active: true }, NOW)).rejects.toThrow(
          expect.objectContaining({ code: 'alert.not_found' }),
        );
      });

      it('lists due alerts, oldest due first', async () => {
        const input = {
          accountId,
          kind: 'network_profile' as const,
          target: 'https://network.com/in/x',
          intervalMinutes: 60,
          maxFollowers: null,
          now: NOW,
        };
        const a = await store.createAlert(input, 100);
        const b = await store.createAlert({ ...input, now: new Date(NOW.getTime() - 1000) }, 100);
        await store.updateAlert(a.id, { nextRunAt: new Date(NOW.getTime() + 3_600_000).toISOString() }, NOW);
        expect((await store.dueAlerts(NOW, 10)).map((x) => x.id)).toEqual([b.id]);
        expect((await store.dueAlerts(new Date(NOW.getTime() + 3_600_000), 10)).map((x) => x.id)).toEqual([b.id, a.id]);
        // Two schedulers at the same slot: one wins it.
        const due = (await store.getAlert(b.id))!.nextRunAt!;
        const next = new Date(NOW.getTime() + 3_600_000).toISOString();
        expect(await store.claimAlertSlot(b.id, due, next, NOW)).toBe(true);
        expect(await store.claimAlertSlot(b.id, due, next, NOW)).toBe(false);
        expect(await store.dueAlerts(NOW, 10)).toEqual([]);
      });

      it('keeps every field through create, patch and delete; lists newest first; due only while active', async () => {
        const input = {
          accountId,
          kind: 'network_company' as const,
          target: 'https://network.com/company/acme',
          intervalMinutes: 120,
          maxFollowers: 500,
          now: NOW,
        };
        const a = await store.createAlert(input, 100);
        expect(a).toEqual({
          id: expect.stringMatching(/^alr_/),
          accountId,
          kind: 'network_company',
          target: 'https://network.com/company/acme',
          intervalMinutes: 120,
          maxFollowers: 500,
          active: true,
          nextRunAt: NOW.toISOString(),
          lastRunId: null,
          lastRunAt: null,
          lastError: null,
          createdAt: NOW.toISOString(),
          updatedAt: NOW.toISOString(),
          deletedAt: null,
        });
        expect(await store.getAlert(a.id)).toEqual(a);
        const later = new Date(NOW.getTime() + 60_000);
        const b = await store.createAlert({ ...input, maxFollowers: null, now: later }, 100);
        expect((await store.listAlerts(accountId)).map((x) => x.id)).toEqual([b.id, a.id]);
        const patched = await store.updateAlert(
          a.id,
          {
            intervalMinutes: 60,
            maxFollowers: null,
            lastRunId: 'run_1',
            lastRunAt: later.toISOString(),
            lastError: 'x',
          },
          later,
        );
        expect(patched).toEqual({
          ...a,
          intervalMinutes: 60,
          maxFollowers: null,
          lastRunId: 'run_1',
          lastRunAt: later.toISOString(),
          lastError: 'x',
          updatedAt: later.toISOString(),
        });
        expect((await store.updateAlert(a.id, { lastError: null }, later)).lastError).toBeNull();
        // Inactive: not due, and no slot can be claimed; active again: due at its kept next run (b is due at once).
        await store.updateAlert(a.id, { active: false }, later);
        expect((await store.dueAlerts(later, 10)).map((x) => x.id)).toEqual([b.id]);
        expect(await store.claimAlertSlot(a.id, NOW.toISOString(), later.toISOString(), later)).toBe(false);
        expect((await store.updateAlert(a.id, { active: true }, later)).nextRunAt).toBe(NOW.toISOString());
        expect((await store.dueAlerts(later, 10)).map((x) => x.id)).toEqual([a.id, b.id]);
        await store.updateAlert(a.id, { nextRunAt: null }, later);
        expect((await store.dueAlerts(later, 10)).map((x) => x.id)).toEqual([b.id]);
        const deleted = await store.deleteAlert(b.id, later);
        expect(deleted).toMatchObject({ active: false, nextRunAt: null, deletedAt: later.toISOString() });
        // Deleting again changes nothing.
        expect(await store.deleteAlert(b.id, new Date(later.getTime() + 1))).toEqual(deleted);
        expect((await store.listAlerts(accountId)).map((x) => x.id)).toEqual([a.id]);
        expect(await store.getAlert('alr_missing')).toBeUndefined();
        expect(await store.claimAlertSlot('alr_missing', NOW.toISOString(), later.toISOString(), later)).toBe(false);
      });
    });
  });
}

signalStoreSuite('SQLite', sqliteFactory);
describeRedis('SignalStore on Redis', () => signalStoreSuite('Redis', redisFactory));
