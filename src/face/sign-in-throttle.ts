import { createHmac, randomBytes } from 'node:crypto';
import { AppError } from '../domain/errors/index.js';
import type { Services } from '../operations/types.js';
import { type RedisClient, type RedisStep, redisStepFor } from '../state/redis/client.js';

/**
 * One throttle for every sign-in: the console's POST /app/api/session, the operator routes (Bearer
 * CDS_ADMIN_TOKEN) and the OAuth authorization page. Call `signInAttempt(services, address, credential, attempt)`
 * around the check of a credential: it refuses (429 rate.limited, Retry-After) before checking, counts the attempt's
 * failure (an AppError of status 401 or 403) and remembers its success.
 *
 * Keyed so that a right credential is not locked out by someone else's wrong ones:
 * - failures are counted per client address AND credential prefix (its first 12 characters: `cds_` and the key's
 *   display prefix for an API key): past CREDENTIAL_FAILURES in a sliding minute, that prefix from that address is
 *   refused unchecked; another credential from the same address (a colleague behind the same NAT) is not;
 * - failures are also counted per address: past ADDRESS_FAILURES in a minute (someone trying many credentials) the
 *   address is refused unchecked, except for a credential whose prefix signed in successfully in the last 30 days
 *   (known to be right: it is still checked, and counted per prefix).
 *
 * In Redis mode the counts live in Redis (sorted sets under `<CDS_REDIS_PREFIX>signin:`), so every process of a
 * deployment shares them; otherwise in this process. Addresses and prefixes are stored only as HMACs under the
 * service secret.
 */

/** Failed sign-ins one address may make with one credential prefix in any 60 seconds. */
export const CREDENTIAL_FAILURES = 10;
/** Failed sign-ins one address may make in any 60 seconds, whatever the credential. */
export const ADDRESS_FAILURES = 30;
export const WINDOW_MS = 60_000;
/** How long a prefix that signed in stays known to be right. */
export const KNOWN_MS = 30 * 86_400_000;
const PREFIX_CHARS = 12;

/** Where failure times and known prefixes are kept. */
export interface SignInCounts {
  /** Failures of `key` within the window ending at `nowMs`, and the oldest one's time (ms) when there is one. */
  recent(key: string, nowMs: number): Promise<{ count: number; oldest: number | null }>;
  fail(key: string, nowMs: number): Promise<void>;
  known(key: string, nowMs: number): Promise<boolean>;
  remember(key: string, nowMs: number): Promise<void>;
}

export class MemorySignInCounts implements SignInCounts {
  private readonly failures = new Map<string, number[]>();
  private readonly good = new Map<string, number>();

  async recent(key: string, nowMs: number) {
    const times = this.live(key, nowMs);
    return { count: times.length, oldest: times[0] ?? null };
  }

  async fail(key: string, nowMs: number) {
    const times = this.live(key, nowMs);
    times.push(nowMs);
    this.failures.set(key, times);
    // Forget keys with nothing recent, so the map does not grow with every address ever seen.
    if (this.failures.size > 10_000)
      for (const [k, t] of this.failures) if (t.every((x) => x <= nowMs - WINDOW_MS)) this.failures.delete(k);
  }

  async known(key: string, nowMs: number) {
    const at = this.good.get(key);
    return at !== undefined && at > nowMs - KNOWN_MS;
  }

  async remember(key: string, nowMs: number) {
    this.good.set(key, nowMs);
    if (this.good.size > 100_000) for (const [k, at] of this.good) if (at <= nowMs - KNOWN_MS) this.good.delete(k);
  }

  private live(key: string, nowMs: number): number[] {
    return (this.failures.get(key) ?? []).filter((t) => t > nowMs - WINDOW_MS);
  }
}

export class RedisSignInCounts implements SignInCounts {
  private readonly step: RedisStep;
  constructor(
    private readonly client: RedisClient,
    private readonly prefix: string,
  ) {
    this.step = redisStepFor(client);
  }

  async recent(key: string, nowMs: number) {
    const k = `${this.prefix}f:${key}`;
    const [, count, first] = (await this.step(() =>
      this.client
        .multi()
        .zRemRangeByScore(k, '-inf', nowMs - WINDOW_MS)
        .zCard(k)
        .zRangeWithScores(k, 0, 0)
        .exec(),
    )) as unknown as [number, number, Array<{ score: number }>];
    return { count: Number(count), oldest: first[0]?.score ?? null };
  }

  async fail(key: string, nowMs: number) {
    const k = `${this.prefix}f:${key}`;
    const member = `${nowMs}.${randomBytes(6).toString('base64url')}`;
    await this.step(() =>
      this.client
        .multi()
        .zAdd(k, { score: nowMs, value: member })
        .zRemRangeByScore(k, '-inf', nowMs - WINDOW_MS)
        .pExpire(k, WINDOW_MS * 2)
        .exec(),
    );
  }

  async known(key: string, nowMs: number) {
    const at = await this.step(() => this.client.get(`${this.prefix}k:${key}`));
    return at !== null && Number(at) > nowMs - KNOWN_MS;
  }

  async remember(key: string, nowMs: number) {
    await this.step(() => this.client.set(`${this.prefix}k:${key}`, String(nowMs), { PX: KNOWN_MS }));
  }
}

export class SignInThrottle {
  constructor(
    private readonly counts: SignInCounts,
    private readonly secret: string,
  ) {}

  /** Refuses (429) before the credential is checked, when its address and prefix, or its address, failed too often. */
  async check(address: string, credential: string, nowMs: number): Promise<void> {
    const keys = this.keysOf(address, credential);
    const mine = await this.counts.recent(keys.pair, nowMs);
    if (mine.count >= CREDENTIAL_FAILURES)
      throw refusal('Too many failed sign-ins with this credential from this address.', mine.oldest, nowMs);
    const all = await this.counts.recent(keys.address, nowMs);
    if (all.count >= ADDRESS_FAILURES && !(await this.counts.known(keys.prefix, nowMs)))
      throw refusal('Too many failed sign-ins from this address.', all.oldest, nowMs);
  }

  async fail(address: string, credential: string, nowMs: number): Promise<void> {
    const keys = this.keysOf(address, credential);
    await this.counts.fail(keys.pair, nowMs);
    await this.counts.fail(keys.address, nowMs);
  }

  async succeed(credential: string, nowMs: number): Promise<void> {
    await this.counts.remember(this.keysOf('', credential).prefix, nowMs);
  }

  /** check, then `attempt`: a 401/403 AppError it throws counts as a failure, a result as a success. */
  async attempt<T>(address: string, credential: string, nowMs: number, attempt: () => Promise<T>): Promise<T> {
    await this.check(address, credential, nowMs);
    let result: T;
    try {
      result = await attempt();
    } catch (e) {
      if (e instanceof AppError && (e.status === 401 || e.status === 403)) await this.fail(address, credential, nowMs);
      throw e;
    }
    await this.succeed(credential, nowMs);
    return result;
  }

  private keysOf(address: string, credential: string) {
    const mac = (s: string) => createHmac('sha256', this.secret).update(s).digest('base64url').slice(0, 32);
    const prefix = credential.slice(0, PREFIX_CHARS);
    return {
      pair: `p:${mac(`${address}\0${prefix}`)}`,
      address: `a:${mac(address)}`,
      prefix: mac(`prefix\0${prefix}`),
    };
  }
}

/** The throttle's 429: an AppError like any other, told apart by the metrics (reason `sign_in`). */
export class SignInRefused extends AppError {}

function refusal(message: string, oldest: number | null, nowMs: number): AppError {
  const retryAfter = Math.max(1, Math.ceil(((oldest ?? nowMs) + WINDOW_MS - nowMs) / 1000));
  return new SignInRefused('rate.limited', message, {
    hint: `Retry after ${retryAfter} s with the right credential.`,
    details: { retry_after: retryAfter },
  });
}

const throttles = new WeakMap<object, SignInThrottle>();

/** The deployment's sign-in throttle: shared in Redis when the state lives there, else this process's. */
export function signInThrottle(services: Services): SignInThrottle {
  let t = throttles.get(services);
  if (!t) {
    const counts = services.redis
      ? new RedisSignInCounts(services.redis, `${services.config.redisPrefix}signin:`)
      : new MemorySignInCounts();
    t = new SignInThrottle(counts, services.secret);
    throttles.set(services, t);
  }
  return t;
}

/**
 * Every sign-in calls this around its credential check (`attempt` throws the check's 401/403 AppError or returns
 * the signed-in result): 429 rate.limited with Retry-After while the address (and credential) failed too often.
 */
export function signInAttempt<T>(
  services: Services,
  address: string,
  credential: string,
  attempt: () => Promise<T>,
): Promise<T> {
  return signInThrottle(services).attempt(address, credential, services.clock.now().getTime(), attempt);
}
