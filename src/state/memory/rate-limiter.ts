import type { RateDecision, RateLimiter } from '../rate-limiter.js';

const WINDOW_MS = 60_000;

interface KeyState {
  /** Accepted request times, oldest first (at most perMinute inside the window). */
  times: number[];
  inFlight: number;
}

/**
 * Exact sliding-window log: a request is admitted only if fewer than `perMinute` were admitted in the last
 * 60 s, so no 60-second span ever holds more (a fixed window allows twice that across a boundary).
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly keys = new Map<string, KeyState>();

  constructor(
    readonly perMinute = 300,
    readonly concurrent = 2,
  ) {}

  async acquire(key: string, nowMs: number, weight = 1): Promise<RateDecision> {
    const s = this.keys.get(key) ?? { times: [], inFlight: 0 };
    this.keys.set(key, s);
    while (s.times.length > 0 && s.times[0]! <= nowMs - WINDOW_MS) s.times.shift();
    const resetSeconds = s.times.length > 0 ? Math.max(1, Math.ceil((s.times[0]! + WINDOW_MS - nowMs) / 1000)) : 60;
    if (s.times.length + weight > this.perMinute) {
      return {
        allowed: false,
        reason: 'rate',
        limit: this.perMinute,
        remaining: 0,
        resetSeconds,
        retryAfter: resetSeconds,
      };
    }
    if (s.inFlight >= this.concurrent) {
      return {
        allowed: false,
        reason: 'concurrency',
        limit: this.perMinute,
        remaining: this.perMinute - s.times.length,
        resetSeconds,
        retryAfter: 1,
      };
    }
    for (let i = 0; i < weight; i++) s.times.push(nowMs);
    s.inFlight++;
    return {
      allowed: true,
      limit: this.perMinute,
      remaining: this.perMinute - s.times.length,
      resetSeconds,
      retryAfter: 0,
    };
  }

  /** One process holds every slot here, so a count suffices and the slot token is not needed. */
  async releaseSlot(key: string, _slot?: string): Promise<void> {
    const s = this.keys.get(key);
    if (!s) return;
    s.inFlight = Math.max(0, s.inFlight - 1);
    if (s.inFlight === 0 && s.times.length === 0) this.keys.delete(key);
  }
}
