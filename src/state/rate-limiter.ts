/**
 * RateLimiter port (spec "Limits": 300 requests a minute and 2 concurrent requests per key). In memory in
 * the embedded default; Redis in the scale-out deployment. Both are exact sliding windows: never more than
 * `perMinute` accepted in any 60-second span.
 */
export interface RateDecision {
  allowed: boolean;
  /** Which limit refused the request. */
  reason?: 'rate' | 'concurrency';
  limit: number;
  /** Requests still accepted in the current window after this one. */
  remaining: number;
  /** Seconds until the oldest accepted request leaves the window (a slot frees). */
  resetSeconds: number;
  /** Seconds the client should wait before retrying (429 only). */
  retryAfter: number;
  /**
   * The admitted request's in-flight slot, to hand back to `releaseSlot` (set when allowed by an adapter that
   * tells slots apart: the Redis one frees exactly this slot, never another process's).
   */
  slot?: string;
}

export interface RateLimiter {
  readonly perMinute: number;
  readonly concurrent: number;
  /**
   * Admits a request (counting it `weight` times in the window, default once, and once as in flight) or refuses
   * it. An MCP batch of N JSON-RPC messages weighs N. `nowMs` is the caller's clock; the Redis adapter reads
   * Redis's clock instead, so that every host of a deployment measures the shared window on one clock.
   */
  acquire(key: string, nowMs: number, weight?: number): Promise<RateDecision>;
  /**
   * Ends an admitted request's in-flight slot (`slot` from its decision); called exactly once per admitted request.
   * May reject when a shared store is unreachable; the Redis slot's lease then frees it.
   */
  releaseSlot(key: string, slot?: string): Promise<void>;
}
