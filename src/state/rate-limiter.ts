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
}

export interface RateLimiter {
  readonly perMinute: number;
  readonly concurrent: number;
  /**
   * Admits a request (counting it `weight` times in the window, default once, and once as in flight) or refuses
   * it. An MCP batch of N JSON-RPC messages weighs N.
   */
  acquire(key: string, nowMs: number, weight?: number): Promise<RateDecision>;
  /** Ends an admitted request's in-flight slot; called exactly once per admitted request. */
  releaseSlot(key: string): Promise<void>;
}
