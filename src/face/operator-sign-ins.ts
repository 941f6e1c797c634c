import { AppError } from '../domain/errors/index.js';

/** Failed operator sign-ins a client address may make in any 60 seconds before it is refused. */
export const OPERATOR_FAILURES_PER_MINUTE = 10;
const WINDOW_MS = 60_000;

/**
 * Failed operator sign-ins per client address, in a sliding minute: past the bound every operator request from
 * that address answers 429 rate.limited (with Retry-After) until the oldest failure leaves the window, so the
 * token cannot be guessed at request speed. Kept in this process (the scale-out moves it with the rate windows).
 */
export class OperatorSignIns {
  private readonly failures = new Map<string, number[]>();

  /** Throws 429 while `address` has used up its failures. */
  check(address: string, now: number): void {
    const recent = this.recent(address, now);
    if (recent.length < OPERATOR_FAILURES_PER_MINUTE) return;
    const retryAfter = Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000));
    throw new AppError('rate.limited', 'Too many failed operator sign-ins from this address.', {
      hint: `Retry after ${retryAfter} s with the right operator token.`,
      details: { retry_after: retryAfter },
    });
  }

  fail(address: string, now: number): void {
    const recent = this.recent(address, now);
    recent.push(now);
    this.failures.set(address, recent);
    // Forget addresses with nothing recent, so the map does not grow with every address ever seen.
    if (this.failures.size > 10_000) {
      for (const [a, times] of this.failures) if (times.every((t) => t <= now - WINDOW_MS)) this.failures.delete(a);
    }
  }

  private recent(address: string, now: number): number[] {
    return (this.failures.get(address) ?? []).filter((t) => t > now - WINDOW_MS);
  }
}
