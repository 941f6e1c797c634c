import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { ErrorReply, MultiErrorReply } from 'redis';
import type { Plan } from '../../src/domain/account.js';
import { AppError } from '../../src/domain/errors/index.js';
import { hashSecret } from '../../src/state/key-hash.js';
import { DEFAULT_PLANS, PLANS_FILE } from '../../src/state/plans.js';
import type { StateStore } from '../../src/state/port.js';
import {
  connectRedis,
  isUnavailable,
  type RedisClient,
  RedisCommandTimeoutError,
  redisStep,
} from '../../src/state/redis/client.js';
import { openRedisStore, type RedisStoreOptions } from '../../src/state/redis/index.js';
import { redisKeys, SETTLED_HOLD_TTL_MS, USAGE_TTL_MS } from '../../src/state/redis/keys.js';
import { DEFAULT_UPGRADE_URL } from '../../src/state/sqlite/index.js';
import { runStateStoreSuite, TEST_PLANS } from './conformance.js';
import { startStallProxy } from './stall-proxy.js';
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

    describe('expiry (Redis memory stays bounded)', () => {
      const k = () => redisKeys(prefix);
      const pttl = (key: string) => admin.pTTL(key);
      const DAY = 86_400_000;
      const within = (ttl: number, max: number) => expect([ttl > max - 60_000, ttl <= max]).toEqual([true, true]);
      /** The account's usage counter keys, by window kind (the part of the name before the window start). */
      const counters = async (accountId: string) => {
        const out: Record<string, string[]> = {};
        for await (const keys of admin.scanIterator({ MATCH: `${prefix}account:${accountId}:usage:*`, COUNT: 1000 }))
          for (const key of keys) {
            // <kind>:<scope>:<window>:<start>
            const window = key.slice(`${prefix}account:${accountId}:usage:`.length).split(':')[2] ?? '?';
            out[window] = [...(out[window] ?? []), key];
          }
        return out;
      };
      const lease = new Date(T0.getTime() + 60_000);

      it('a request hold expires 7 days after it settles (commit, release, orphan sweep), never while held', async () => {
        const s = await open();
        const id = await newAccount(s);
        const ask = { accountId: id, kind: 'contact' as const, category: null, amount: 2, mode: 'exact' as const };
        const committed = await s.reserve({ ...ask, now: T0, leaseUntil: lease });
        expect(await pttl(k().hold(committed.id))).toBe(-1);
        await s.commit(committed.id, 1, T0);
        within(await pttl(k().hold(committed.id)), SETTLED_HOLD_TTL_MS);
        expect(SETTLED_HOLD_TTL_MS).toBe(7 * DAY);
        const released = await s.reserve({ ...ask, now: T0, leaseUntil: lease });
        await s.releaseHold(released.id, T0);
        within(await pttl(k().hold(released.id)), SETTLED_HOLD_TTL_MS);
        const orphan = await s.reserve({ ...ask, now: T0, leaseUntil: lease });
        expect(await s.releaseOrphanHolds(new Date(lease.getTime() + 1))).toBe(1);
        within(await pttl(k().hold(orphan.id)), SETTLED_HOLD_TTL_MS);
        // A settled hold settled again changes nothing, its expiry included.
        await admin.pExpire(k().hold(committed.id), 3_600_000);
        expect((await s.commit(committed.id, 2, T0)).charged).toBe(1);
        within(await pttl(k().hold(committed.id)), 3_600_000);
      });

      it("a job's hold never expires, held or settled (the job's views read it)", async () => {
        const s = await open();
        const id = await newAccount(s);
        const { job, hold } = await s.createJob({
          id: 'exp_ttl1',
          accountId: id,
          kind: 'export',
          payload: {},
          hold: { kind: 'contact', category: 'export', amount: 3, mode: 'exact' },
          now: T0,
        });
        expect(await pttl(k().hold(hold!.id))).toBe(-1);
        expect((await s.claimJob(['export'], T0))?.id).toBe(job.id);
        expect(await s.finishJob(job.id, { status: 'completed', charge: 2 }, T0)).toBe(true);
        expect(await pttl(k().hold(hold!.id))).toBe(-1);
        expect(await s.getHold(hold!.id)).toMatchObject({ status: 'committed', charged: 2 });
      });

      it('day and month counters expire past any read of their window; the free pool never', async () => {
        const s = await open();
        const windows = await newAccount(s, 't_windows');
        await s.reserve({ accountId: windows, kind: 'contact', category: null, amount: 1, mode: 'exact', now: T0 });
        await s.reserve({ accountId: windows, kind: 'premium', category: null, amount: 1, mode: 'up_to', now: T0 });
        const unlimited = await newAccount(s, 't_unlimited');
        const h = await s.reserve({
          accountId: unlimited,
          kind: 'contact',
          category: 'export',
          amount: 1,
          mode: 'exact',
          now: T0,
          leaseUntil: lease,
        });
        await s.commit(h.id, 1, T0);
        expect(USAGE_TTL_MS).toEqual({ day: 35 * DAY, month: 400 * DAY, pool: 0 });
        for (const [accountId, days, months] of [
          [windows, 1, 2], // contact day and month ('*'), premium month
          [unlimited, 2, 2], // '*' and the category, day and month
        ] as const) {
          const c = await counters(accountId);
          expect([c.day?.length, c.month?.length, c.pool]).toEqual([days, months, undefined]);
          for (const key of c.day ?? []) within(await pttl(key), USAGE_TTL_MS.day);
          for (const key of c.month ?? []) within(await pttl(key), USAGE_TTL_MS.month);
        }
        const pool = await newAccount(s, 't_pool');
        const p = await s.reserve({
          accountId: pool,
          kind: 'contact',
          category: null,
          amount: 2,
          mode: 'exact',
          now: T0,
        });
        await s.commit(p.id, 2, T0);
        const c = await counters(pool);
        expect(c.pool).toHaveLength(1);
        expect(await pttl(c.pool![0]!)).toBe(-1);
        // Settling leaves a counter's expiry as the last hold set it.
        const day = (await counters(windows)).day![0]!;
        await admin.pExpire(day, 3_600_000);
        const last = await s.reserve({
          accountId: windows,
          kind: 'contact',
          category: null,
          amount: 1,
          mode: 'exact',
          now: T0,
        });
        within(await pttl(day), USAGE_TTL_MS.day);
        await admin.pExpire(day, 3_600_000);
        await s.commit(last.id, 1, T0);
        within(await pttl(day), 3_600_000);
      });

      it('an expired hold is unknown: getHold answers undefined, settling refuses it, the sweep passes it by', async () => {
        const s = await open();
        const id = await newAccount(s);
        const h = await s.reserve({
          accountId: id,
          kind: 'contact',
          category: null,
          amount: 3,
          mode: 'exact',
          now: T0,
          leaseUntil: lease,
        });
        await s.commit(h.id, 2, T0);
        await admin.pExpire(k().hold(h.id), 1);
        await sleep(20);
        expect(await s.getHold(h.id)).toBeUndefined();
        await expect(s.commit(h.id, 1, T0)).rejects.toThrow(/unknown hold/);
        await expect(s.releaseHold(h.id, T0)).rejects.toThrow(/unknown hold/);
        expect(await s.releaseOrphanHolds(new Date(T0.getTime() + 365 * DAY))).toBe(0);
        const snap = await s.snapshot(id, T0);
        expect(snap.contact.kind === 'windows' && [snap.contact.day.used, snap.contact.day.held]).toEqual([2, 0]);
      });

      it('settling a hold whose counter expired meanwhile does not bring the counter back', async () => {
        const s = await open();
        const id = await newAccount(s);
        const h = await s.reserve({
          accountId: id,
          kind: 'contact',
          category: null,
          amount: 3,
          mode: 'exact',
          now: T0,
        });
        const day = (await counters(id)).day![0]!;
        await admin.del(day); // as if its window had expired
        await s.commit(h.id, 2, T0);
        expect(await admin.exists(day)).toBe(0);
        const snap = await s.snapshot(id, T0);
        expect(snap.contact.kind === 'windows' && [snap.contact.month.used, snap.contact.month.held]).toEqual([2, 0]);
      });

      it('the orphan sweep drops a set member whose hold hash is gone instead of keeping it forever', async () => {
        const s = await open();
        const id = await newAccount(s);
        const ask = { accountId: id, kind: 'contact' as const, category: null, amount: 1, mode: 'exact' as const };
        const leased = await s.reserve({ ...ask, now: T0, leaseUntil: lease });
        const unleased = await s.reserve({ ...ask, now: T0 });
        await admin.del([k().hold(leased.id), k().hold(unleased.id)]); // never done by the adapter
        expect(await s.releaseOrphanHolds(new Date(lease.getTime() + 1))).toBe(0);
        expect(await admin.zScore(k().leasedHolds(), leased.id)).toBeNull();
        expect(await admin.sIsMember(k().heldHolds(), unleased.id)).toBe(0);
      });
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

      it('maps the replies of a Redis that is up but not serving to 503, and only those', async () => {
        const serving = (msg: string) => isUnavailable(new ErrorReply(msg));
        for (const code of ['LOADING', 'BUSY', 'MASTERDOWN', 'READONLY', 'OOM', 'MISCONF', 'TRYAGAIN', 'CLUSTERDOWN'])
          expect([code, serving(`${code} some text`)]).toEqual([code, true]);
        expect(serving('NOREPLICAS Not enough good replicas to write.')).toBe(true);
        // Inside a script, Redis 7 keeps the first word.
        expect(serving("OOM command not allowed when used memory > 'maxmemory'. script: abc, on @user_script:1.")).toBe(
          true,
        );
        // Real errors stay errors (a 500): same prefix but another word, NOSCRIPT (answered by re-sending), the rest.
        for (const msg of [
          'BUSYKEY Target key name already exists.',
          'BUSYGROUP Consumer Group name exists',
          'NOSCRIPT x',
        ])
          expect([msg, serving(msg)]).toEqual([msg, false]);
        expect(serving('WRONGTYPE Operation against a key holding the wrong kind of value')).toBe(false);
        expect(serving('ERR unknown command')).toBe(false);
        expect(isUnavailable(new Error('LOADING, but not from Redis'))).toBe(false);
        expect(isUnavailable(new MultiErrorReply([new ErrorReply('LOADING x')], [0]))).toBe(true);
        expect(isUnavailable(new MultiErrorReply([new ErrorReply('WRONGTYPE x')], [0]))).toBe(false);
        expect(isUnavailable(new RedisCommandTimeoutError(5000))).toBe(true);
        await expect(redisStep(() => Promise.reject(new ErrorReply('LOADING Redis is loading')))).rejects.toMatchObject(
          {
            code: 'data.unavailable',
            status: 503,
          },
        );
        await expect(redisStep(() => Promise.reject(new ErrorReply('WRONGTYPE x')))).rejects.toBeInstanceOf(ErrorReply);
      });

      (hasRedisServer ? it : it.skip)(
        'answers 503 while its Redis is up but not serving (OOM, READONLY, MASTERDOWN, BUSY), then serves again',
        async () => {
          const port = await freePort();
          const server = await startRedisServer(port);
          const url = `redis://127.0.0.1:${port}`;
          const ctl = await connectRedis({ url });
          try {
            const s = await open({ url });
            const id = await newAccount(s);
            const unavailable = { code: 'data.unavailable', status: 503 };
            const reserve = () =>
              s.reserve({ accountId: id, kind: 'contact', category: null, amount: 1, mode: 'exact', now: T0 });
            // Out of memory under maxmemory: writes are refused, a script's write too; reads are still served.
            await ctl.configSet('maxmemory', '1');
            await expect(
              s.createAccount({ name: 'b', plan: 't_windows', billingDay: null, now: T0 }),
            ).rejects.toMatchObject(unavailable);
            await expect(reserve()).rejects.toMatchObject(unavailable);
            expect((await s.getAccount(id))?.id).toBe(id);
            await ctl.configSet('maxmemory', '0');
            // A replica (what a failover may leave us talking to) refuses writes; cut from its primary with
            // replica-serve-stale-data off, reads too.
            await ctl.sendCommand(['REPLICAOF', '127.0.0.1', String(await freePort())]);
            await expect(reserve()).rejects.toMatchObject(unavailable);
            await ctl.configSet('replica-serve-stale-data', 'no');
            await expect(s.getAccount(id)).rejects.toMatchObject(unavailable);
            await ctl.sendCommand(['REPLICAOF', 'NO', 'ONE']);
            await ctl.configSet('replica-serve-stale-data', 'yes');
            // A long script on another connection: BUSY.
            await ctl.configSet('busy-reply-threshold', '50');
            const busy = ctl.eval(SPIN_LUA, { arguments: ['600'] });
            await sleep(150);
            await expect(s.getAccount(id)).rejects.toMatchObject(unavailable);
            await busy;
            expect((await reserve()).amount).toBe(1);
          } finally {
            await ctl.close();
            await stopRedisServer(server);
          }
        },
      );

      it('answers 503 within the bound when Redis stops answering, then drops the dead connection', async () => {
        const proxy = await startStallProxy(REDIS_URL);
        const s = await openRedisStore({
          url: proxy.url,
          prefix,
          keyPepper: PEPPER,
          plans: PLANS,
          commandTimeoutMs: 300,
        });
        try {
          const id = await newAccount(s);
          const { secret } = await s.createKey(id, { now: T0 });
          proxy.stall();
          const started = Date.now();
          await expect(s.authenticate(secret, T0)).rejects.toMatchObject({ code: 'data.unavailable', status: 503 });
          const took = Date.now() - started;
          expect(took).toBeGreaterThanOrEqual(290);
          expect(took).toBeLessThan(1500);
          // A PING gets no answer either: the client drops the connection and opens another, which answers (the
          // proxy forwards new connections, as a replaced host would).
          let back: Awaited<ReturnType<StateStore['authenticate']>>;
          const deadline = Date.now() + 5000;
          while (!back && Date.now() < deadline) {
            back = await s.authenticate(secret, T0).catch(() => undefined);
            if (!back) await sleep(50);
          }
          expect(back?.account.id).toBe(id);
          expect([proxy.accepted, proxy.open]).toEqual([2, 1]);
        } finally {
          await s.close();
          await proxy.close();
        }
      });

      (hasRedisServer ? it : it.skip)(
        'a slow answer is a 503 too, but a connection that still answers is kept',
        async () => {
          const port = await freePort();
          const server = await startRedisServer(port);
          const proxy = await startStallProxy(`redis://127.0.0.1:${port}`);
          const client = await connectRedis({ url: proxy.url, commandTimeoutMs: 500 });
          try {
            const s = await openRedisStore({ client, prefix, keyPepper: PEPPER, plans: PLANS });
            const id = await newAccount(s);
            // A 750 ms script on the store's own connection: the call behind it times out at 500 ms; the PING sent
            // then is answered at 750 ms, within its own 500 ms, so the connection stays.
            const slow = client.eval(SPIN_LUA, { arguments: ['750'] });
            await expect(s.getAccount(id)).rejects.toMatchObject({ code: 'data.unavailable', status: 503 });
            await slow;
            await sleep(400);
            expect((await s.getAccount(id))?.id).toBe(id);
            expect(proxy.accepted).toBe(1);
          } finally {
            await client.close();
            await proxy.close();
            await stopRedisServer(server);
          }
        },
      );

      it('commandTimeoutMs 0 leaves calls unbounded (a connection for blocking reads)', async () => {
        const proxy = await startStallProxy(REDIS_URL);
        const client = await connectRedis({ url: proxy.url, commandTimeoutMs: 0 });
        try {
          const s = await openRedisStore({ client, prefix, keyPepper: PEPPER, plans: PLANS });
          const id = await newAccount(s);
          proxy.stall();
          let settled = false;
          const pending = s.getAccount(id).finally(() => {
            settled = true;
          });
          await sleep(600);
          expect(settled).toBe(false);
          // Only the connection's end ends it, as before.
          await proxy.close();
          await expect(pending).rejects.toMatchObject({ code: 'data.unavailable', status: 503 });
        } finally {
          client.destroy();
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

/** Keeps Redis busy for ARGV[1] ms (a slow command, or BUSY for other connections past busy-reply-threshold). */
const SPIN_LUA = `
local function now() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000 end
local stop = now() + tonumber(ARGV[1])
while now() < stop do end
return 1
`;
