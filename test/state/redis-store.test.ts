import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Plan } from '../../src/domain/account.js';
import { AppError } from '../../src/domain/errors/index.js';
import { hashSecret } from '../../src/state/key-hash.js';
import { DEFAULT_PLANS, PLANS_FILE } from '../../src/state/plans.js';
import type { StateStore } from '../../src/state/port.js';
import { connectRedis, type RedisClient } from '../../src/state/redis/client.js';
import { openRedisStore, type RedisStoreOptions } from '../../src/state/redis/index.js';
import { DEFAULT_UPGRADE_URL } from '../../src/state/sqlite/index.js';
import { runStateStoreSuite, TEST_PLANS } from './conformance.js';
import { describeRedis, dropPrefix, PEPPER, REDIS_URL, redisFactory, testPrefix } from './store-factories.js';

const T0 = new Date('2026-03-10T12:00:00.000Z');
const PLANS: Plan[] = [...DEFAULT_PLANS, ...TEST_PLANS];

describeRedis('Redis state store', () => {
  runStateStoreSuite('redis', () => redisFactory());

  describe('Redis store specifics', () => {
    let prefix: string;
    let admin: RedisClient;
    const stores: StateStore[] = [];
    const open = async (opts: Partial<RedisStoreOptions> = {}) => {
      const s = await openRedisStore({ url: REDIS_URL, prefix, keyPepper: PEPPER, plans: PLANS, ...opts });
      stores.push(s);
      return s;
    };
    const newAccount = async (s: StateStore, plan = 't_windows') =>
      (await s.createAccount({ name: 'a', plan, billingDay: null, now: T0 })).id;
    /** Every value stored under the prefix, as text. */
    const dump = async () => {
      const out: string[] = [];
      for await (const keys of admin.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
        for (const key of keys) {
          out.push(key);
          const type = await admin.type(key);
          if (type === 'string') out.push((await admin.get(key)) ?? '');
          else if (type === 'hash') out.push(JSON.stringify(await admin.hGetAll(key)));
          else if (type === 'set') out.push(JSON.stringify(await admin.sMembers(key)));
          else if (type === 'zset') out.push(JSON.stringify(await admin.zRange(key, 0, -1)));
        }
      }
      return out;
    };

    beforeAll(async () => {
      admin = await connectRedis({ url: REDIS_URL });
    });
    afterAll(async () => {
      await admin.close();
    });
    beforeEach(() => {
      prefix = testPrefix();
    });
    afterEach(async () => {
      for (const s of stores.splice(0)) await s.close();
      await dropPrefix(REDIS_URL, prefix);
    });

    it('keeps only the keyed hash of a secret, under its own prefix only', async () => {
      const store = await open();
      const id = await newAccount(store);
      const { secret } = await store.createKey(id, { now: T0 });
      await store.authenticate(secret, T0);
      const stored = (await dump()).join('\n');
      expect(stored).toContain(hashSecret(PEPPER, secret)); // proves the dump sees the key record
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice(12)); // nothing past the 8-character display prefix
      // Another prefix is another deployment: it sees nothing of this one.
      const elsewhere = await open({ prefix: testPrefix() });
      expect(await elsewhere.getAccount(id)).toBeUndefined();
      expect(await elsewhere.authenticate(secret, T0)).toBeUndefined();
    });

    it('does not authenticate with another pepper', async () => {
      const a = await open();
      const { secret } = await a.createKey(await newAccount(a), { now: T0 });
      expect(await (await open({ keyPepper: 'another-pepper' })).authenticate(secret, T0)).toBeUndefined();
    });

    it('uses the configured upgrade URL, with a default', async () => {
      const check = async (s: StateStore, url: string) => {
        const id = await newAccount(s, 'free');
        const e = await s
          .reserve({ accountId: id, kind: 'premium', category: null, amount: 1, mode: 'exact', now: T0 })
          .then(
            () => undefined,
            (err: unknown) => err,
          );
        expect((e as AppError).details?.upgrade_url).toBe(url);
      };
      await check(await open(), DEFAULT_UPGRADE_URL);
      await check(
        await open({ upgradeUrl: 'https://billing.example.com/upgrade' }),
        'https://billing.example.com/upgrade',
      );
    });

    it('reads plans from <dataDir>/plans.json, and a bad file fails before any connection', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cds-redis-plans-'));
      try {
        writeFileSync(join(dir, PLANS_FILE), JSON.stringify({ pro: { premiumMonthly: 20_000 } }));
        const s = await openRedisStore({ url: REDIS_URL, prefix, keyPepper: PEPPER, dataDir: dir });
        stores.push(s);
        expect(s.getPlan('pro')?.premiumMonthly).toBe(20_000);
        writeFileSync(join(dir, PLANS_FILE), '{ "pro": ');
        // Port 1 answers nothing: the plans error comes first.
        await expect(
          openRedisStore({ url: 'redis://127.0.0.1:1', prefix, keyPepper: PEPPER, dataDir: dir }),
        ).rejects.toThrow(/not valid JSON/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    describe('checks and writes that race across processes', () => {
      let a: StateStore;
      let b: StateStore;
      let accountId: string;
      beforeEach(async () => {
        a = await open();
        b = await open();
        accountId = await newAccount(a);
      });
      /** Runs `n` calls alternating between the two stores, all at once; the codes of the refusals. */
      const race = async <T>(n: number, call: (s: StateStore, i: number) => Promise<T>) => {
        const settled = await Promise.allSettled(Array.from({ length: n }, (_, i) => call(i % 2 ? b : a, i)));
        const won = settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        const refused = settled.flatMap((r) =>
          r.status === 'rejected' ? [r.reason instanceof AppError ? r.reason.code : String(r.reason)] : [],
        );
        return { won, refused };
      };

      it('one active key', async () => {
        const { won, refused } = await race(10, (s) => s.createKey(accountId, { now: T0 }));
        expect(won).toHaveLength(1);
        expect(refused).toEqual(Array(9).fill('key.limit_reached'));
        expect(await a.listKeys(accountId)).toHaveLength(1);
      });

      it('the domain list limits', async () => {
        const limits = { lists: 3, domains: 100 };
        const { won, refused } = await race(10, (s, i) =>
          s.createDomainList(accountId, { name: `l${i}`, domains: ['a.com'], now: T0 }, limits),
        );
        expect(won).toHaveLength(3);
        expect(refused).toEqual(Array(7).fill('domain_lists.limit_reached'));
        expect(await b.listDomainLists(accountId)).toHaveLength(3);
      });

      it('the active alert limit and the alert slot', async () => {
        const input = {
          accountId,
          kind: 'network_profile' as const,
          target: 'https://network.com/in/x',
          intervalMinutes: 60,
          maxFollowers: null,
          now: T0,
        };
        const created = await race(10, (s) => s.createAlert(input, 2));
        expect(created.won).toHaveLength(2);
        expect(created.refused).toEqual(Array(8).fill('alerts.limit_reached'));
        const alert = created.won[0]!;
        const next = new Date(T0.getTime() + 3_600_000).toISOString();
        const claims = await race(10, (s) => s.claimAlertSlot(alert.id, alert.nextRunAt!, next, T0));
        expect(claims.won.filter((x) => x)).toHaveLength(1);
      });

      it('a batch written twice at once is written once, its people counted once', async () => {
        const run = { accountId, sourceType: 'collect' as const, sourceId: 'col_r', runId: 'col_r' };
        const batch = ['a', 'b', 'c', 'a'].map((slug, position) => ({
          position,
          personKey: slug,
          engager: {
            name: slug,
            headline: null,
            profile_url: `https://network.com/in/${slug}`,
            engagement: 'reaction' as const,
            post_url: null,
            at: T0.toISOString(),
          },
          contact: null,
        }));
        const { won } = await race(6, (s) => s.addSignals(run, batch, T0));
        expect(won.reduce((n, r) => n + r.written, 0)).toBe(4);
        expect(won.reduce((n, r) => n + r.newLeads, 0)).toBe(3);
        expect(await a.runStats('col_r')).toEqual({ signals: 4, leads: 3, contactsMatched: 0 });
      });
    });

    it('two threads reserving at once never pass the cap', async () => {
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
      const setup = await open({ plans });
      const accountId = await newAccount(setup, 'race');
      const gate = new Int32Array(new SharedArrayBuffer(4));
      const workers = [0, 1].map(() =>
        startWorker({
          redis: { url: REDIS_URL, prefix },
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
      const snap = await setup.snapshot(accountId, T0);
      expect(snap.contact.kind === 'windows' && [snap.contact.day.used, snap.contact.day.held]).toEqual([500, 0]);
    });

    describe('connection', () => {
      it('a shared client stays open after close(); a client the store opened is closed', async () => {
        const shared = await connectRedis({ url: REDIS_URL });
        try {
          const s = await openRedisStore({ client: shared, prefix, keyPepper: PEPPER });
          expect(await s.ping()).toBe(true);
          await s.close();
          expect(shared.isOpen).toBe(true);
          expect(await shared.ping()).toBe('PONG');
        } finally {
          await shared.close();
        }
        const owned = await open();
        await owned.close();
        expect(await owned.ping()).toBe(false);
        await owned.close(); // twice is harmless
      });

      it('over a closed connection: ping answers false, every call 503 data.unavailable', async () => {
        const client = await connectRedis({ url: REDIS_URL });
        const s = await openRedisStore({ client, prefix, keyPepper: PEPPER, plans: PLANS });
        const id = await newAccount(s);
        await client.close();
        expect(await s.ping()).toBe(false);
        for (const call of [
          () => s.getAccount(id),
          () => s.createAccount({ name: 'b', plan: 't_windows', billingDay: null, now: T0 }),
          () => s.createKey(id, { now: T0 }),
          () => s.beginIdempotent(id, 'k', 'h', T0, 1000),
          () => s.listSignals({ accountId: id, afterSeq: null, limit: 10 }),
          () => s.snapshot(id, T0),
        ]) {
          const e = await call().then(
            () => undefined,
            (err: unknown) => err,
          );
          expect(e).toBeInstanceOf(AppError);
          expect([(e as AppError).code, (e as AppError).status]).toEqual(['data.unavailable', 503]);
        }
      });

      const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
      (hasRedisServer ? it : it.skip)('answers 503 while its Redis is down and recovers when it is back', async () => {
        const port = await freePort();
        let server = await startRedisServer(port);
        try {
          const s = await openRedisStore({ url: `redis://127.0.0.1:${port}`, prefix, keyPepper: PEPPER, plans: PLANS });
          stores.push(s);
          const id = await newAccount(s);
          await stopRedisServer(server);
          expect(await s.ping()).toBe(false);
          await expect(s.getAccount(id)).rejects.toMatchObject({ code: 'data.unavailable', status: 503 });
          server = await startRedisServer(port);
          // The client reconnects by itself within about a second (its backoff is capped at 1 s).
          const deadline = Date.now() + 10_000;
          while (!(await s.ping()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
          expect(await s.ping()).toBe(true);
          // The instance kept no data (no persistence): the account is simply unknown, not an error.
          expect(await s.getAccount(id)).toBeUndefined();
          // Nor its script cache: a script call sends the source again on NOSCRIPT.
          const again = await newAccount(s);
          expect((await s.createKey(again, { now: T0 })).key.accountId).toBe(again);
        } finally {
          await stopRedisServer(server);
        }
      });
    });
  });
});

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** This test's own Redis on its own port (the shared one is never stopped), without persistence. */
async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    const up = await connectRedis({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 200 }).then(
      async (c) => {
        await c.close();
        return true;
      },
      () => false,
    );
    if (up) return child;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${port}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGKILL');
  await exited;
}

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
