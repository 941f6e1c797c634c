import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { Plan } from '../../src/domain/account.js';
import type { AppError } from '../../src/domain/errors/index.js';
import { hashSecret } from '../../src/state/key-hash.js';
import { DEFAULT_PLANS, PLANS_FILE } from '../../src/state/plans.js';
import type { StateStore } from '../../src/state/port.js';
import { DEFAULT_UPGRADE_URL, openSqliteStore } from '../../src/state/sqlite/index.js';
import { MIGRATIONS, migrate } from '../../src/state/sqlite/schema.js';
import { UsageCounters } from '../../src/state/sqlite/usage.js';
import { runStateStoreSuite } from './conformance.js';
import { PEPPER, sqliteFactory } from './store-factories.js';

const T0 = new Date('2026-03-10T12:00:00.000Z');

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'cds-state-'));
}

runStateStoreSuite('sqlite', () => sqliteFactory());

describe('SQLite store specifics', () => {
  let dir: string;
  const stores: StateStore[] = [];
  const open = (opts: Partial<Parameters<typeof openSqliteStore>[0]> = {}) => {
    const s = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: PEPPER, ...opts });
    stores.push(s);
    return s;
  };
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(async () => {
    for (const s of stores.splice(0)) await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a job poll with nothing queued is a read: it neither waits for nor fails on another process's writer", async () => {
    const store = open({ busyTimeoutMs: 2000 });
    const id = (await store.createAccount({ name: 'a', plan: 'starter', billingDay: null, now: T0 })).id;
    // Another connection (as another process would) holds the write lock.
    const other = new Database(join(dir, 'state.sqlite'));
    other.pragma('busy_timeout = 0');
    other.exec('BEGIN IMMEDIATE');
    try {
      const started = Date.now();
      expect(await store.claimJob(['export'], T0, 'w1')).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // With a job queued, the claim is the write it always was.
    const { job } = await store.createJob({ id: 'exp_poll1', accountId: id, kind: 'export', payload: {}, now: T0 });
    expect((await store.claimJob(['export'], T0, 'w1'))?.id).toBe(job.id);
  });

  it('keeps only the keyed hash of a secret on disk', async () => {
    const store = open();
    const id = (await store.createAccount({ name: 'a', plan: 'starter', billingDay: null, now: T0 })).id;
    const { secret } = await store.createKey(id, { now: T0 });
    await store.authenticate(secret, T0);
    await store.close();
    const bytes = ['state.sqlite', 'state.sqlite-wal']
      .map((f) => join(dir, f))
      .filter(existsSync)
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(bytes).toContain(hashSecret(PEPPER, secret)); // proves the read sees the key row
    expect(bytes).not.toContain(secret);
    expect(bytes).not.toContain(secret.slice(12)); // nothing past the 8-character display prefix
  });

  it('does not authenticate with another pepper', async () => {
    const a = open();
    const id = (await a.createAccount({ name: 'a', plan: 'starter', billingDay: null, now: T0 })).id;
    const { secret } = await a.createKey(id, { now: T0 });
    await a.close();
    expect(await open({ keyPepper: 'another-pepper' }).authenticate(secret, T0)).toBeUndefined();
  });

  it('writes WAL mode and the schema version, and migrates once', async () => {
    await open().close();
    await open().close();
    const db = new Database(join(dir, 'state.sqlite'), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: MIGRATIONS.length }]);
    } finally {
      db.close();
    }
  });

  it('refuses a file written by a newer schema', async () => {
    await open().close();
    const db = new Database(join(dir, 'state.sqlite'));
    db.prepare('UPDATE schema_version SET version = ?').run(MIGRATIONS.length + 1);
    db.close();
    expect(() => open()).toThrow(/schema version/);
  });

  it('the cap guard is in the UPDATE itself: it refuses a hold the cap does not allow', () => {
    const db = new Database(join(dir, 'guard.sqlite'));
    try {
      db.pragma('foreign_keys = ON');
      migrate(db);
      db.prepare(
        "INSERT INTO accounts (id, name, plan, billing_day, status, created_at) VALUES ('acc_g', 'g', 'starter', " +
          "NULL, 'active', '')",
      ).run();
      const usage = new UsageCounters(db);
      const key = {
        account_id: 'acc_g',
        kind: 'contact',
        category: '*',
        window_kind: 'day',
        window_start: '2026-03-10T00:00:00.000Z',
      } as const;
      expect([usage.holdWithin(key, 6, 10), usage.holdWithin(key, 5, 10), usage.holdWithin(key, 4, 10)]).toEqual([
        true,
        false,
        true,
      ]);
      expect(usage.read(key)).toEqual({ used: 0, held: 10 });
      // A counter's first hold (the upsert's insert) is held to the cap too.
      const fresh = { ...key, window_start: '2026-03-11T00:00:00.000Z' };
      expect([
        usage.holdWithin(fresh, 11, 10),
        usage.holdWithin(fresh, 10, 10),
        usage.holdWithin(fresh, 1, 10),
      ]).toEqual([false, true, false]);
      expect(usage.read(fresh)).toEqual({ used: 0, held: 10 });
    } finally {
      db.close();
    }
  });

  it('uses the configured upgrade URL, with a default', async () => {
    const check = async (s: StateStore, url: string) => {
      const id = (await s.createAccount({ name: 'a', plan: 'free', billingDay: null, now: T0 })).id;
      try {
        await s.reserve({ accountId: id, kind: 'premium', category: null, amount: 1, mode: 'exact', now: T0 });
        throw new Error('expected premium_credits.exhausted');
      } catch (e) {
        expect((e as AppError).details?.upgrade_url).toBe(url);
      }
    };
    await check(open(), DEFAULT_UPGRADE_URL);
    await check(open({ upgradeUrl: 'https://billing.example.com/upgrade' }), 'https://billing.example.com/upgrade');
    expect(DEFAULT_UPGRADE_URL).toBe('https://contact-data-service.local/billing');
  });

  describe('<dataDir>/plans.json', () => {
    it('overrides a plan by slug and adds a plan', () => {
      writeFileSync(
        join(dir, PLANS_FILE),
        JSON.stringify({
          pro: { premiumMonthly: 20_000 },
          team: {
            name: 'Team',
            contact: { kind: 'windows', daily: 5, monthly: 50 },
            premiumMonthly: 10,
            alerts: true,
            maxActiveAlerts: 100,
          },
        }),
      );
      const s = open({ dataDir: dir });
      expect(s.getPlan('pro')).toEqual({ ...DEFAULT_PLANS.find((p) => p.slug === 'pro'), premiumMonthly: 20_000 });
      expect(s.getPlan('team')?.contact).toEqual({ kind: 'windows', daily: 5, monthly: 50 });
      expect(s.getPlan('free')).toEqual(DEFAULT_PLANS[0]);
    });

    it('serves the defaults when the file is absent', () => {
      expect(open({ dataDir: dir }).listPlans()).toEqual(DEFAULT_PLANS);
    });

    it.each<[string, string, RegExp]>([
      ['invalid JSON', '{ "pro": ', /not valid JSON/],
      ['an unknown field', JSON.stringify({ pro: { colour: 'red' } }), /colour/],
      ['a negative cap', JSON.stringify({ pro: { premiumMonthly: -1 } }), /premiumMonthly/],
      [
        'a fractional cap',
        JSON.stringify({ starter: { contact: { kind: 'windows', daily: 1.5, monthly: 10 } } }),
        /daily/,
      ],
      ['an unknown contact kind', JSON.stringify({ starter: { contact: { kind: 'weekly', cap: 5 } } }), /kind/],
      ['a new plan without every field', JSON.stringify({ team: { name: 'Team' } }), /"team" is new/],
      ['a bad slug', JSON.stringify({ 'Big Plan': { premiumMonthly: 1 } }), /slug/],
      ['not an object', JSON.stringify([1, 2]), /plans\.json/],
    ])('refuses %s, naming the file', (_t, content, message) => {
      writeFileSync(join(dir, PLANS_FILE), content);
      expect(() => open({ dataDir: dir })).toThrow(message);
      expect(() => open({ dataDir: dir })).toThrow(join(dir, PLANS_FILE));
    });
  });

  it('two threads reserving at once on one file never pass the cap', async () => {
    const plans: Plan[] = [
      {
        slug: 'race',
        name: 'Race',
        contact: { kind: 'windows', daily: 500, monthly: 10_000 },
        premiumMonthly: 0,
        alerts: false,
        maxActiveAlerts: 0,
      },
    ];
    const setup = open({ plans });
    const accountId = (await setup.createAccount({ name: 'race', plan: 'race', billingDay: null, now: T0 })).id;
    // Each worker asks for ~400 credits, so together they must run into the cap of 500 whatever the timing;
    // they open their connections first, then wait on a shared gate so their loops start together.
    const gate = new Int32Array(new SharedArrayBuffer(4));
    const workers = [0, 1].map(() =>
      startWorker({
        file: join(dir, 'state.sqlite'),
        pepper: PEPPER,
        plans,
        accountId,
        now: T0.toISOString(),
        rounds: 200,
        gate,
      }),
    );
    await Promise.all(workers.map((w) => w.ready));
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    const results = await Promise.all(workers.map((w) => w.done));
    expect(results.reduce((n, r) => n + r.granted, 0)).toBe(500);
    expect(results.map((r) => r.granted > 0)).toEqual([true, true]);
    expect(results.reduce((n, r) => n + r.refused, 0)).toBeGreaterThan(0);
    const snap = await setup.snapshot(accountId, T0);
    expect(snap.contact.kind === 'windows' && [snap.contact.day.used, snap.contact.day.held]).toEqual([500, 0]);
  });
});

function startWorker(data: Record<string, unknown>): {
  ready: Promise<void>;
  done: Promise<{ granted: number; refused: number }>;
} {
  const worker = new Worker(new URL('./reserve-worker.js', import.meta.url), { workerData: data });
  let onReady!: () => void;
  let onDone!: (r: { granted: number; refused: number }) => void;
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  const ready = Promise.race([new Promise<void>((resolve) => (onReady = resolve)), failed]);
  const done = Promise.race([
    new Promise<{ granted: number; refused: number }>((resolve) => (onDone = resolve)),
    failed,
  ]);
  worker.on('message', (m: 'ready' | { granted: number; refused: number }) => (m === 'ready' ? onReady() : onDone(m)));
  return { ready, done };
}
