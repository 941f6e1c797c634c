import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SettableClock } from '../../src/domain/clock.js';
import { HoldLeases } from '../../src/operations/hold-leases.js';
import type { StateStore } from '../../src/state/port.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

let dir: string;
let mine: StateStore;
let other: StateStore;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-leases-'));
  mine = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: 'p' });
  other = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: 'p' });
});
afterAll(async () => {
  await mine.close();
  await other.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A request's hold of 5 contact credits, leased as HoldLeases leases it. */
const leasedHold = (leases: HoldLeases, clock: SettableClock, accountId: string) =>
  mine.reserve({
    accountId,
    kind: 'contact',
    category: 'search',
    amount: 5,
    mode: 'exact',
    now: clock.now(),
    leaseUntil: leases.leaseUntil(),
  });

describe('HoldLeases', () => {
  it('renews a live hold past its first lease, so another process does not sweep it; an untracked one expires', async () => {
    const clock = new SettableClock('2026-11-10T12:00:00Z');
    const leases = new HoldLeases(mine, clock);
    const accountId = (await mine.createAccount({ name: 'x', plan: 'pro', billingDay: null, now: clock.now() })).id;
    const reserve = () => leasedHold(leases, clock, accountId);
    const live = await reserve();
    const dropped = await reserve();
    leases.track(live.id);
    for (let i = 0; i < 6; i++) {
      clock.advance(leases.leaseMs / 3);
      await leases.tick();
    }
    // Two lease periods later: the live hold was renewed; the untracked one expired and the ticks' own sweep
    // already released it, so another process finds nothing to release.
    expect(await other.releaseOrphanHolds(clock.now())).toBe(0);
    expect((await other.getHold(live.id))?.status).toBe('held');
    expect((await other.getHold(dropped.id))?.status).toBe('released');
    leases.untrack(live.id);
    clock.advance(leases.leaseMs + 1);
    await leases.tick(); // the owner's own sweep releases it once nobody renews it
    expect((await mine.getHold(live.id))?.status).toBe('released');
  });
});

describe('HoldLeases: a charge that comes too late', () => {
  it('is reported, not made, when another process already released the hold', async () => {
    const clock = new SettableClock('2026-11-10T12:00:00Z');
    const leases = new HoldLeases(mine, clock);
    const charged: string[] = [];
    const lost: Array<{ id: string; status: string; charge: number }> = [];
    leases.onCharged = (h) => charged.push(h.id);
    leases.onLost = (h, charge) => lost.push({ id: h.id, status: h.status, charge });
    const accountId = (await mine.createAccount({ name: 'y', plan: 'pro', billingDay: null, now: clock.now() })).id;
    const reserve = () => leasedHold(leases, clock, accountId);
    const late = await reserve();
    leases.track(late.id);
    // This process stalls past its lease (no tick renews it); another process sweeps the hold.
    clock.advance(leases.leaseMs + 1);
    expect(await other.releaseOrphanHolds(clock.now())).toBe(1);
    await leases.settle(late.id, 3, clock.now());
    expect(lost).toEqual([{ id: late.id, status: 'released', charge: 3 }]);
    expect(charged).toEqual([]);
    expect(await mine.getHold(late.id)).toMatchObject({ status: 'released', charged: 0 });
    // A charge in time is counted as charged, not lost.
    const inTime = await reserve();
    leases.track(inTime.id);
    await leases.settle(inTime.id, 2, clock.now());
    expect(charged).toEqual([inTime.id]);
    expect(lost).toHaveLength(1);
  });
});
