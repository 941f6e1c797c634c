import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { AppError } from '../../src/domain/errors/index.js';
import { MemoryRateLimiter } from '../../src/state/memory/rate-limiter.js';
import type { RateLimiter } from '../../src/state/rate-limiter.js';
import { closeRedis, connectRedis, type RedisClient } from '../../src/state/redis/client.js';
import { RedisRateLimiter, type RedisRateLimiterOptions } from '../../src/state/redis/rate-limiter.js';
import { startStallProxy } from '../state/stall-proxy.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('rate-limiter.test: REDIS_URL is not set, so the RedisRateLimiter tests are skipped.');
const describeRedis = REDIS_URL ? describe : describe.skip;

/** Largest number of accepted requests inside any 60-second span. */
function maxInAnyMinute(times: number[]): number {
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while (times[hi]! - times[lo]! >= 60_000) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/** A fresh, empty limiter (its own state) for each call. */
type NewLimiter = (perMinute: number, concurrent: number) => RateLimiter;

/** The port's expectations, identical for every adapter; time is driven by hand through `nowMs`. */
function rateLimiterExpectations(newLimiter: NewLimiter, propertyRuns: number): void {
  it('a weighted request (an MCP batch) counts its weight in the window and one slot in flight', async () => {
    const l = newLimiter(10, 2);
    const first = await l.acquire('k', 0, 7);
    expect(first).toMatchObject({ allowed: true, remaining: 3 });
    expect(await l.acquire('k', 1, 4)).toMatchObject({ allowed: false, reason: 'rate' });
    await l.releaseSlot('k', first.slot);
    expect(await l.acquire('k', 2, 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await l.acquire('k', 60_001, 7)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('admits 300 in a minute, refuses the 301st, and frees a slot 60 s after the oldest', async () => {
    const rl = newLimiter(300, 1000);
    for (let i = 0; i < 300; i++) expect((await rl.acquire('k', 1000 + i)).allowed).toBe(true);
    const refused = await rl.acquire('k', 30_000);
    expect(refused).toMatchObject({ allowed: false, reason: 'rate', remaining: 0 });
    expect(refused.retryAfter).toBe(31);
    expect((await rl.acquire('k', 60_999)).allowed).toBe(false);
    expect((await rl.acquire('k', 61_000)).allowed).toBe(true);
  });

  it('allows no burst of 600 across a minute boundary (a fixed window would)', async () => {
    const rl = newLimiter(300, 1000);
    const accepted: number[] = [];
    for (const t of [59_000, 61_000])
      for (let i = 0; i < 300; i++) if ((await rl.acquire('k', t + i)).allowed) accepted.push(t + i);
    expect(accepted.length).toBe(300);
  });

  it('never more than 300 accepted in any 60-second span, for any arrival pattern', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 1500 }), async (gaps) => {
        const rl = newLimiter(300, 1_000_000);
        let t = 0;
        const accepted: number[] = [];
        for (const g of gaps) {
          t += g;
          if ((await rl.acquire('k', t)).allowed) accepted.push(t);
        }
        return maxInAnyMinute(accepted) <= 300;
      }),
      { numRuns: propertyRuns },
    );
  });

  it('caps concurrent requests at 2 and frees a slot on release; keys are independent', async () => {
    const rl = newLimiter(300, 2);
    const a1 = await rl.acquire('a', 0);
    expect(a1.allowed).toBe(true);
    expect((await rl.acquire('a', 1)).allowed).toBe(true);
    expect(await rl.acquire('a', 2)).toMatchObject({ allowed: false, reason: 'concurrency', retryAfter: 1 });
    expect((await rl.acquire('b', 2)).allowed).toBe(true);
    await rl.releaseSlot('a', a1.slot);
    expect((await rl.acquire('a', 3)).allowed).toBe(true);
  });
}

describe('MemoryRateLimiter (sliding window, concurrency)', () => {
  rateLimiterExpectations((perMinute, concurrent) => new MemoryRateLimiter(perMinute, concurrent), 200);
});

/**
 * One connection for the file; each test gets its own key prefix, and its keys (only those) are deleted after it.
 * Limiters made here are closed after each test so no renewal timer outlives it.
 */
function redisFixture() {
  let client: RedisClient | undefined;
  let prefix = '';
  let made: RedisRateLimiter[] = [];
  beforeAll(async () => {
    client = await connectRedis({ url: REDIS_URL! });
  });
  beforeEach(() => {
    prefix = `cds-test:rate:${randomUUID()}:`;
  });
  afterEach(async () => {
    for (const l of made) l.close();
    made = [];
    const keys: string[] = [];
    for await (const batch of client!.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) keys.push(...batch);
    if (keys.length > 0) await client!.del(keys);
  });
  afterAll(async () => {
    await client?.close();
  });
  return {
    client: () => client!,
    prefix: () => prefix,
    /** A limiter on this test's prefix; `sub` gives it state of its own (another deployment). */
    limiter(options: Omit<RedisRateLimiterOptions, 'prefix'>, sub = ''): RedisRateLimiter {
      const l = new RedisRateLimiter(client!, { ...options, prefix: `${prefix}${sub}` });
      made.push(l);
      return l;
    },
  };
}

describeRedis('RedisRateLimiter (same expectations, time driven by the caller)', () => {
  const redis = redisFixture();
  let n = 0;
  rateLimiterExpectations(
    (perMinute, concurrent) => redis.limiter({ perMinute, concurrent, useCallerClock: true }, `${n++}:`),
    200,
  );
});

describeRedis('RedisRateLimiter (shared by processes, on Redis clock, leased slots)', () => {
  const redis = redisFixture();

  it('two processes share one window: exactly perMinute accepted across both, whatever their clocks say', async () => {
    const a = redis.limiter({ perMinute: 10, concurrent: 100 });
    const b = redis.limiter({ perMinute: 10, concurrent: 100 });
    const accepted = { a: 0, b: 0 };
    for (let i = 0; i < 30; i++) {
      // Clocks 285 years apart: with the callers' clocks b would see an empty window every time.
      const [name, l, now] = i % 2 === 0 ? (['a', a, 0] as const) : (['b', b, 9e12] as const);
      if ((await l.acquire('k', now)).allowed) accepted[name]++;
    }
    expect(accepted).toEqual({ a: 5, b: 5 });
    const refused = await b.acquire('k', 0);
    expect(refused).toMatchObject({ allowed: false, reason: 'rate', limit: 10, remaining: 0 });
    expect(refused.retryAfter).toBeGreaterThanOrEqual(59);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
  });

  it('concurrent acquires from two processes admit exactly perMinute (the check and the write are atomic)', async () => {
    const a = redis.limiter({ perMinute: 20, concurrent: 1000 });
    const b = redis.limiter({ perMinute: 20, concurrent: 1000 });
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).acquire('k', 0)));
    expect(decisions.filter((d) => d.allowed).length).toBe(20);
    expect(new Set(decisions.flatMap((d) => (d.allowed ? [d.remaining] : []))).size).toBe(20);
  });

  it('two processes share the in-flight limit, and each frees only its own slots', async () => {
    const a = redis.limiter({ concurrent: 2 });
    const b = redis.limiter({ concurrent: 2 });
    const fromA = await a.acquire('k', 0);
    expect(fromA).toMatchObject({ allowed: true });
    expect(await b.acquire('k', 0)).toMatchObject({ allowed: true });
    expect(await a.acquire('k', 0)).toMatchObject({ allowed: false, reason: 'concurrency', retryAfter: 1 });
    expect(await b.acquire('k', 0)).toMatchObject({ allowed: false, reason: 'concurrency' });
    await a.releaseSlot('k', fromA.slot);
    // a holds no slot any more: a release without a token must not free b's.
    await a.releaseSlot('k');
    expect(await b.acquire('k', 0)).toMatchObject({ allowed: true });
    expect(await a.acquire('k', 0)).toMatchObject({ allowed: false, reason: 'concurrency' });
  });

  it('a slot of a process dropped without release frees when its lease runs out; live slots stay', async () => {
    const dead = redis.limiter({ concurrent: 2, slotLeaseMs: 500 });
    const other = redis.limiter({ concurrent: 2, slotLeaseMs: 500 });
    expect((await dead.acquire('k', 0)).allowed).toBe(true);
    dead.close(); // the process ends: no release, no more renewals
    // other's own live slot keeps the key alive, so only the expired lease can free dead's slot.
    expect((await other.acquire('k', 0)).allowed).toBe(true);
    expect(await other.acquire('k', 0)).toMatchObject({ allowed: false, reason: 'concurrency' });
    await sleep(800);
    expect((await other.acquire('k', 0)).allowed).toBe(true);
    expect(await other.acquire('k', 0)).toMatchObject({ allowed: false, reason: 'concurrency' });
  });

  it('a live slot outlives its lease because its process renews it', async () => {
    const live = redis.limiter({ concurrent: 1, slotLeaseMs: 500 });
    const other = redis.limiter({ concurrent: 1, slotLeaseMs: 500 });
    const held = await live.acquire('k', 0);
    expect(held.allowed).toBe(true);
    await sleep(1600); // over three leases
    expect(await other.acquire('k', 0)).toMatchObject({ allowed: false, reason: 'concurrency' });
    await live.releaseSlot('k', held.slot);
    expect((await other.acquire('k', 0)).allowed).toBe(true);
  });

  it('every key it writes expires: the window after 60 s, the slots after a lease', async () => {
    const l = redis.limiter({ slotLeaseMs: 5000 });
    expect((await l.acquire('idle', 0, 3)).allowed).toBe(true);
    const keys: string[] = [];
    for await (const batch of redis.client().scanIterator({ MATCH: `${redis.prefix()}*` })) keys.push(...batch);
    expect(keys.sort()).toEqual([`${redis.prefix()}{idle}:f`, `${redis.prefix()}{idle}:w`]);
    const ttl = async (k: string) => Number(await redis.client().pTTL(k));
    expect(await ttl(`${redis.prefix()}{idle}:w`)).toBeGreaterThan(59_000);
    expect(await ttl(`${redis.prefix()}{idle}:w`)).toBeLessThanOrEqual(60_000);
    expect(await ttl(`${redis.prefix()}{idle}:f`)).toBeGreaterThan(4000);
    expect(await ttl(`${redis.prefix()}{idle}:f`)).toBeLessThanOrEqual(5000);
  });

  it('an unreachable Redis answers 503 data.unavailable, not a 500', async () => {
    const closed = await connectRedis({ url: REDIS_URL! });
    await closed.close();
    const l = new RedisRateLimiter(closed, { prefix: redis.prefix() });
    try {
      const err = await l.acquire('k', 0).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('data.unavailable');
    } finally {
      l.close();
    }
  });

  it('a Redis that stops answering answers 503 within the bound, not a request left hanging', async () => {
    const proxy = await startStallProxy(REDIS_URL!);
    const client = await connectRedis({ url: proxy.url, commandTimeoutMs: 300 });
    const l = new RedisRateLimiter(client, { prefix: redis.prefix(), concurrent: 5 });
    try {
      const first = await l.acquire('k', 0);
      expect(first.allowed).toBe(true);
      proxy.stall();
      for (const call of [() => l.acquire('k', 0), () => l.releaseSlot('k', first.slot)]) {
        const started = Date.now();
        const err = await call().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(AppError);
        expect([(err as AppError).code, (err as AppError).status]).toEqual(['data.unavailable', 503]);
        expect(Date.now() - started).toBeLessThan(1500);
      }
    } finally {
      l.close();
      await closeRedis(client);
      await proxy.close();
    }
  });
});
