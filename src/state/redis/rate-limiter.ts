import { randomBytes } from 'node:crypto';
import type { RateDecision, RateLimiter } from '../rate-limiter.js';
import { type RedisClient, type RedisStep, redisStepFor } from './client.js';
import { ACQUIRE, RENEW, runScript } from './rate-limiter-scripts.js';

export interface RedisRateLimiterOptions {
  /** Prefix of this limiter's keys (default `cds:rate:`). */
  prefix?: string;
  perMinute?: number;
  concurrent?: number;
  /**
   * How long an in-flight slot outlives its process's last renewal (default 30 s): the time a dead process's
   * slots stay taken. Live slots are renewed every third of it.
   */
  slotLeaseMs?: number;
  /**
   * Measure the window on the caller's `nowMs` instead of Redis's clock. For tests that drive time by hand; a
   * deployment leaves it off, since its hosts' clocks need not agree.
   */
  useCallerClock?: boolean;
}

const REASONS = [undefined, 'rate', 'concurrency'] as const;

/**
 * The RateLimiter shared by every process of a scale-out deployment: the same exact sliding window and in-flight
 * cap as the memory adapter, kept in Redis per key in two sorted sets (`<prefix>{<key>}:w`, accepted request
 * times; `<prefix>{<key>}:f`, in-flight slots scored by lease end; one hash tag so a cluster keeps them on one
 * node). The check and the write happen in one Lua script on Redis's clock (see `rate-limiter-scripts.ts`).
 *
 * A process that dies mid-request cannot release its slots, so a slot is a lease: it frees by itself once
 * `slotLeaseMs` passes without renewal, and this process renews the leases of its live slots on an unref'd timer
 * (stopped by `close()`) so a request longer than the lease keeps its slot. Both keys carry a PEXPIRE, so an idle
 * key leaves Redis on its own.
 *
 * Round trips: an acquire is one (EVALSHA; one more, EVAL, the first time after Redis starts or drops its script
 * cache); a release is one (ZREM), not awaited by the request; renewal is one script per key holding live slots in
 * this process, every `slotLeaseMs / 3`, issued together (pipelined) whatever the request rate.
 *
 * Failures: an unreachable Redis, a "not serving now" reply (LOADING, BUSY, OOM…) or no answer within the client's
 * `commandTimeoutMs` (client.ts) makes acquire and release throw 503 data.unavailable.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly perMinute: number;
  readonly concurrent: number;
  private readonly prefix: string;
  private readonly slotLeaseMs: number;
  private readonly useCallerClock: boolean;
  /** This process's live slots, by key: what the renewal timer keeps alive. */
  private readonly live = new Map<string, Set<string>>();
  /** Slot tokens: unique across processes (random instance id) and within one (sequence). */
  private readonly instance = randomBytes(6).toString('base64url');
  private seq = 0;
  private readonly timer: NodeJS.Timeout;
  private renewing = false;
  /** Every call bounded by the client's commandTimeoutMs (client.ts): no answer in time is a 503, not a hang. */
  private readonly step: RedisStep;

  constructor(
    private readonly client: RedisClient,
    options: RedisRateLimiterOptions = {},
  ) {
    this.step = redisStepFor(client);
    this.prefix = options.prefix ?? 'cds:rate:';
    this.perMinute = options.perMinute ?? 300;
    this.concurrent = options.concurrent ?? 2;
    this.slotLeaseMs = options.slotLeaseMs ?? 30_000;
    this.useCallerClock = options.useCallerClock ?? false;
    this.timer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.slotLeaseMs / 3)));
    this.timer.unref();
  }

  async acquire(key: string, nowMs: number, weight = 1): Promise<RateDecision> {
    const slot = `${this.instance}.${(this.seq++).toString(36)}`;
    const args = [this.perMinute, this.concurrent, weight, this.slotLeaseMs, slot, this.useCallerClock ? nowMs : ''];
    const reply = await this.step(() =>
      runScript(this.client, ACQUIRE, [this.windowKey(key), this.inFlightKey(key)], args.map(String)),
    );
    const [allowed, reason, remaining, resetSeconds, retryAfter] = parseReply(reply);
    const decision: RateDecision = {
      allowed: allowed === 1,
      limit: this.perMinute,
      remaining,
      resetSeconds,
      retryAfter,
    };
    const why = REASONS[reason];
    if (why) decision.reason = why;
    if (decision.allowed) {
      decision.slot = slot;
      const slots = this.live.get(key) ?? new Set<string>();
      this.live.set(key, slots.add(slot));
    }
    return decision;
  }

  /** Frees `slot`; without one, any slot this process holds for the key (never another process's). */
  async releaseSlot(key: string, slot?: string): Promise<void> {
    const slots = this.live.get(key);
    const token = slot ?? slots?.values().next().value;
    if (token === undefined) return;
    // Off the renewal list first, so a renewal racing this release cannot keep the slot alive.
    slots?.delete(token);
    if (slots?.size === 0) this.live.delete(key);
    await this.step(() => this.client.zRem(this.inFlightKey(key), token));
  }

  /** Stops renewing; slots still held free when their leases run out, as if the process had ended. */
  close(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    if (this.renewing || this.live.size === 0) return;
    this.renewing = true;
    try {
      await Promise.all(
        [...this.live].map(([key, slots]) =>
          // A failed renewal (Redis unreachable or silent past the bound) is retried at the next tick, a third of a
          // lease later; bounded, so a renewal that never gets an answer cannot stop the next ones.
          this.step(() =>
            runScript(this.client, RENEW, [this.inFlightKey(key)], [String(this.slotLeaseMs), ...slots]),
          ).catch(() => 0),
        ),
      );
    } finally {
      this.renewing = false;
    }
  }

  private windowKey(key: string): string {
    return `${this.prefix}{${key}}:w`;
  }

  private inFlightKey(key: string): string {
    return `${this.prefix}{${key}}:f`;
  }
}

function parseReply(reply: unknown): [number, 0 | 1 | 2, number, number, number] {
  if (!Array.isArray(reply) || reply.length !== 5 || !reply.every((v) => typeof v === 'number'))
    throw new Error(`Unexpected rate limiter script reply: ${JSON.stringify(reply)}`);
  const [allowed, reason, remaining, resetSeconds, retryAfter] = reply as number[];
  return [allowed!, reason === 1 || reason === 2 ? reason : 0, remaining!, resetSeconds!, retryAfter!];
}
