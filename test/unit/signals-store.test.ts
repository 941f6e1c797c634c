import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../../src/domain/errors/index.js';
import type { Engager, NewSignal, SignalRun } from '../../src/network-signals/port.js';
import type { StateStore } from '../../src/state/port.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

/** SignalStore on a real SQLite file: replay-safe batches, lead counting per source, lead cap, alerts limit. */
const NOW = new Date('2026-11-10T12:00:00.000Z');
let dir: string;
let store: StateStore;
let accountId: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-signals-'));
  store = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: 'test-pepper-0123456789abcdef' });
  accountId = store.createAccount({ name: 't', plan: 'pro', billingDay: null, now: NOW }).id;
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

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

describe('signal rows', () => {
  it('counts a person once per source, ignores a replayed batch, and stops at the lead cap', () => {
    const run: SignalRun = { accountId, sourceType: 'collect', sourceId: 'col_a', runId: 'col_a' };
    expect(store.addSignals(run, rows(0, ['a', 'b', 'a']), NOW)).toEqual({
      accepted: 3,
      written: 3,
      withContact: 1,
      newLeads: 2,
    });
    // The same positions again (a restart replaying the batch): nothing written.
    expect(store.addSignals(run, rows(0, ['a', 'b', 'a']), NOW)).toEqual({
      accepted: 3,
      written: 0,
      withContact: 0,
      newLeads: 0,
    });
    // Cap of one more lead: c is written, b (seen) is written, d stops the batch.
    expect(store.addSignals(run, rows(3, ['c', 'b', 'd', 'e']), NOW, 1)).toEqual({
      accepted: 2,
      written: 2,
      withContact: 1,
      newLeads: 1,
    });
    expect(store.runStats('col_a')).toEqual({ signals: 5, leads: 3, contactsMatched: 2 });
    const listed = store.listSignals({ accountId, sourceId: 'col_a', afterSeq: null, limit: 10 });
    expect(listed.map((s) => [s.name, s.lead])).toEqual([
      ['a', true],
      ['b', true],
      ['a', false],
      ['c', true],
      ['b', false],
    ]);
    expect(store.countSignals({ accountId, sourceType: 'collect', sourceId: 'col_a' })).toBe(5);
    expect(
      store.listSignals({ accountId, sourceId: 'col_a', afterSeq: listed[2]!.seq, limit: 10 }).map((s) => s.name),
    ).toEqual(['c', 'b']);
  });

  it("an alert's later run only finds people not seen before; a forgotten run gives its people back", () => {
    const r1: SignalRun = { accountId, sourceType: 'alert', sourceId: 'alr_a', runId: 'run_1' };
    const r2: SignalRun = { ...r1, runId: 'run_2' };
    store.addSignals(r1, rows(0, ['a', 'b']), NOW);
    expect(store.addSignals(r2, rows(0, ['a', 'c']), NOW).newLeads).toBe(1);
    store.forgetRunLeads('run_2');
    expect(store.runStats('run_2')).toEqual({ signals: 2, leads: 0, contactsMatched: 1 });
    const r3: SignalRun = { ...r1, runId: 'run_3' };
    expect(store.addSignals(r3, rows(0, ['c']), NOW).newLeads).toBe(1);
  });
});

describe('alerts', () => {
  it('refuses a new active alert at the limit, and re-activation at the limit', () => {
    const input = {
      accountId,
      kind: 'network_profile' as const,
      target: 'https://network.com/in/x',
      intervalMinutes: 60,
      maxFollowers: null,
      now: NOW,
    };
    const a = store.createAlert(input, 2);
    const b = store.createAlert(input, 2);
    expect(() => store.createAlert(input, 2)).toThrow(AppError);
    store.updateAlert(b.id, { active: false }, NOW, 2);
    const c = store.createAlert(input, 2);
    expect(() => store.updateAlert(b.id, { active: true }, NOW, 2)).toThrow(
      expect.objectContaining({ code: 'alerts.limit_reached' }),
    );
    store.deleteAlert(c.id, NOW);
    expect(store.updateAlert(b.id, { active: true }, NOW, 2).active).toBe(true);
    expect(
      store
        .listAlerts(accountId)
        .map((x) => x.id)
        .sort(),
    ).toEqual([a.id, b.id].sort());
    expect(store.getAlert(c.id)!.deletedAt).toBe(NOW.toISOString());
    expect(() => store.updateAlert(c.id, { active: true }, NOW)).toThrow(
      expect.objectContaining({ code: 'alert.not_found' }),
    );
  });

  it('lists due alerts, oldest due first', () => {
    const input = {
      accountId,
      kind: 'network_profile' as const,
      target: 'https://network.com/in/x',
      intervalMinutes: 60,
      maxFollowers: null,
      now: NOW,
    };
    const a = store.createAlert(input, 100);
    const b = store.createAlert({ ...input, now: new Date(NOW.getTime() - 1000) }, 100);
    store.updateAlert(a.id, { nextRunAt: new Date(NOW.getTime() + 3_600_000).toISOString() }, NOW);
    expect(store.dueAlerts(NOW, 10).map((x) => x.id)).toEqual([b.id]);
    expect(store.dueAlerts(new Date(NOW.getTime() + 3_600_000), 10).map((x) => x.id)).toEqual([b.id, a.id]);
    // Two schedulers at the same slot: one wins it.
    const due = store.getAlert(b.id)!.nextRunAt!;
    const next = new Date(NOW.getTime() + 3_600_000).toISOString();
    expect(store.claimAlertSlot(b.id, due, next, NOW)).toBe(true);
    expect(store.claimAlertSlot(b.id, due, next, NOW)).toBe(false);
    expect(store.dueAlerts(NOW, 10)).toEqual([]);
  });
});
