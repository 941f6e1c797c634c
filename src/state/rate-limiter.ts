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
  /** Admits a request (counting it in the window and as in flight) or refuses it. */
  acquire(key: string, nowMs: number): Promise<RateDecision>;
  /** Ends an admitted request's in-flight slot; called exactly once per admitted request. */
  releaseSlot(key: string): Promise<void>;
}
