import fc from 'fast-check';
import { MemoryRateLimiter } from '../../src/state/memory/rate-limiter.js';

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

describe('MemoryRateLimiter (sliding window, concurrency)', () => {
  it('a weighted request (an MCP batch) counts its weight in the window and one slot in flight', async () => {
    const l = new MemoryRateLimiter(10, 2);
    expect(await l.acquire('k', 0, 7)).toMatchObject({ allowed: true, remaining: 3 });
    expect(await l.acquire('k', 1, 4)).toMatchObject({ allowed: false, reason: 'rate' });
    await l.releaseSlot('k');
    expect(await l.acquire('k', 2, 3)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await l.acquire('k', 60_001, 7)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('admits 300 in a minute, refuses the 301st, and frees a slot 60 s after the oldest', async () => {
    const rl = new MemoryRateLimiter(300, 1000);
    for (let i = 0; i < 300; i++) expect((await rl.acquire('k', 1000 + i)).allowed).toBe(true);
    const refused = await rl.acquire('k', 30_000);
    expect(refused).toMatchObject({ allowed: false, reason: 'rate', remaining: 0 });
    expect(refused.retryAfter).toBe(31);
    expect((await rl.acquire('k', 60_999)).allowed).toBe(false);
    expect((await rl.acquire('k', 61_000)).allowed).toBe(true);
  });

  it('allows no burst of 600 across a minute boundary (a fixed window would)', async () => {
    const rl = new MemoryRateLimiter(300, 1000);
    const accepted: number[] = [];
    for (const t of [59_000, 61_000])
      for (let i = 0; i < 300; i++) if ((await rl.acquire('k', t + i)).allowed) accepted.push(t + i);
    expect(accepted.length).toBe(300);
  });

  it('never more than 300 accepted in any 60-second span, for any arrival pattern', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 600 }), { minLength: 1, maxLength: 1500 }), async (gaps) => {
        const rl = new MemoryRateLimiter(300, 1_000_000);
        let t = 0;
        const accepted: number[] = [];
        for (const g of gaps) {
          t += g;
          if ((await rl.acquire('k', t)).allowed) accepted.push(t);
        }
        return maxInAnyMinute(accepted) <= 300;
      }),
      { numRuns: 200 },
    );
  });

  it('caps concurrent requests at 2 and frees a slot on release; keys are independent', async () => {
    const rl = new MemoryRateLimiter(300, 2);
    expect((await rl.acquire('a', 0)).allowed).toBe(true);
    expect((await rl.acquire('a', 1)).allowed).toBe(true);
    expect(await rl.acquire('a', 2)).toMatchObject({ allowed: false, reason: 'concurrency', retryAfter: 1 });
    expect((await rl.acquire('b', 2)).allowed).toBe(true);
    await rl.releaseSlot('a');
    expect((await rl.acquire('a', 3)).allowed).toBe(true);
  });
});
