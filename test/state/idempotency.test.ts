import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StateStore } from '../../src/state/port.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';

let dir: string;
let a: StateStore;
let b: StateStore;
let accountId: string;
const t0 = new Date('2026-11-10T12:00:00Z');
const LEASE = 60_000;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-idem-'));
  a = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: 'p' });
  b = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: 'p' });
  accountId = a.createAccount({ name: 'x', plan: 'pro', billingDay: null, now: t0 }).id;
});
afterAll(() => {
  a.close();
  b.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('idempotency records (SQLite)', () => {
  it('claims a key once; a second claimer sees it running, even from another connection', () => {
    expect(a.beginIdempotent(accountId, 'k1', 'h1', t0, LEASE)).toEqual({ state: 'new' });
    expect(b.beginIdempotent(accountId, 'k1', 'h1', t0, LEASE)).toEqual({ state: 'running' });
  });

  it('replays the stored answer for the same hash, refuses another hash', () => {
    a.finishIdempotent(accountId, 'k1', 201, { ok: true, n: 3 });
    expect(b.beginIdempotent(accountId, 'k1', 'h1', t0, LEASE)).toEqual({
      state: 'replay',
      status: 201,
      body: { ok: true, n: 3 },
    });
    expect(b.beginIdempotent(accountId, 'k1', 'h2', t0, LEASE)).toEqual({ state: 'mismatch' });
  });

  it('forgets a key after 24 hours', () => {
    const later = new Date(t0.getTime() + 24 * 3600 * 1000 + 1);
    expect(a.beginIdempotent(accountId, 'k1', 'h2', later, LEASE)).toEqual({ state: 'new' });
  });

  it('an abandoned key can be claimed again', () => {
    expect(a.beginIdempotent(accountId, 'k2', 'h', t0, LEASE)).toEqual({ state: 'new' });
    a.abandonIdempotent(accountId, 'k2');
    expect(b.beginIdempotent(accountId, 'k2', 'h', t0, LEASE)).toEqual({ state: 'new' });
  });

  it('a running record past its lease (its process died) is claimed again; inside the lease it is running', () => {
    expect(a.beginIdempotent(accountId, 'k3', 'h', t0, LEASE)).toEqual({ state: 'new' });
    const inside = new Date(t0.getTime() + LEASE - 1);
    expect(b.beginIdempotent(accountId, 'k3', 'h', inside, LEASE)).toEqual({ state: 'running' });
    const past = new Date(t0.getTime() + LEASE + 1);
    expect(b.beginIdempotent(accountId, 'k3', 'h', past, LEASE)).toEqual({ state: 'new' });
    // the new claim holds the key with a fresh lease
    expect(a.beginIdempotent(accountId, 'k3', 'h', new Date(past.getTime() + 10), LEASE)).toEqual({ state: 'running' });
    // a finished answer is kept past the lease: it replays for 24 hours
    b.finishIdempotent(accountId, 'k3', 200, { n: 1 });
    expect(a.beginIdempotent(accountId, 'k3', 'h', new Date(t0.getTime() + 3600_000), LEASE)).toMatchObject({
      state: 'replay',
    });
  });

  it('keys are per account', () => {
    const other = a.createAccount({ name: 'y', plan: 'pro', billingDay: null, now: t0 }).id;
    expect(a.beginIdempotent(other, 'k2', 'zzz', t0, LEASE)).toEqual({ state: 'new' });
  });
});
