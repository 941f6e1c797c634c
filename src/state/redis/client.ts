import { createClient, ErrorReply, MultiErrorReply } from 'redis';
import { AppError } from '../../domain/errors/index.js';

/**
 * One connection to the deployment's Redis (the official `redis` client), shared by the state store and the rate
 * limiter of a process (the job queue opens one of its own). Commands fail at once while the connection is down (no
 * offline queue: a request must not wait on a queue that may never drain, and a money move must not be replayed
 * later); the client reconnects by itself with a capped backoff, so the process recovers when Redis is back.
 */
export type RedisClient = ReturnType<typeof createClient>;

/** The default bound on one state-store or rate-limiter call (`commandTimeoutMs`). */
export const DEFAULT_COMMAND_TIMEOUT_MS = 5000;

export interface RedisConnectOptions {
  /** `redis://[:password@]host:port[/db]` or `rediss://…` for TLS. */
  url: string;
  /** Force TLS on a `redis://` URL (REDIS_TLS=1). */
  tls?: boolean;
  connectTimeoutMs?: number;
  /**
   * Wait for the first connection (commands, default), or return at once and connect in the background (a server
   * starts while Redis is down and answers 503 until it is up).
   */
  wait?: boolean;
  /** Called on connection errors (the client keeps reconnecting); default: ignored. */
  onError?: (err: Error) => void;
  /**
   * How long one call of the state store or the rate limiter over this connection may wait for Redis before it
   * answers 503 data.unavailable (default 5000 ms; see `redisStepFor`). 0 turns the bound off: for a connection
   * that issues blocking reads (BullMQ's BZPOPMIN waits for seconds by design). The bound lives in this module, not
   * in the client's socket options, so the client and its duplicates (BullMQ's workers) are never cut off by it.
   */
  commandTimeoutMs?: number;
}

/** What `redisStepFor` knows of a connection: its bound, and whether a stall probe is under way. */
interface Guard {
  timeoutMs: number;
  probing: boolean;
  onError: ((err: Error) => void) | undefined;
}

const guards = new WeakMap<RedisClient, Guard>();

function guardOf(client: RedisClient): Guard {
  let g = guards.get(client);
  if (!g) {
    // A client made elsewhere (not by connectRedis) gets the default bound.
    g = { timeoutMs: DEFAULT_COMMAND_TIMEOUT_MS, probing: false, onError: undefined };
    guards.set(client, g);
  }
  return g;
}

export async function connectRedis(o: RedisConnectOptions): Promise<RedisClient> {
  const tls = o.tls === true || o.url.startsWith('rediss://');
  const client = createClient({
    url: o.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: o.connectTimeoutMs ?? 2000,
      // 50 ms, 100 ms, … capped at 1 s: back within a second of Redis coming back.
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 5), 1000),
      // No `socketTimeout`: it is an idle timer (Node's socket.setTimeout), which every write re-arms, so a steady
      // stream of requests to a Redis that answers nothing never trips it, while an idle connection or a blocking
      // read would be cut. The bound is `commandTimeoutMs`, measured from the call (redisStepFor).
      ...(tls ? { tls: true as const } : {}),
    },
  });
  guards.set(client, {
    timeoutMs: Math.max(0, o.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS),
    probing: false,
    onError: o.onError,
  });
  client.on('error', (err: Error) => o.onError?.(err));
  const connecting = client.connect();
  if (o.wait === false) connecting.catch((err: Error) => o.onError?.(err));
  else await connecting;
  return client;
}

/**
 * Resolves true once the client is ready for commands (at once when it is), false after `timeoutMs`. A client opened
 * with `wait: false` refuses commands until its connection is up (no offline queue), so a step that runs right after
 * opening it (a server's start-up sweep) waits here first, or it would fail while Redis is reachable.
 */
export function whenReady(client: RedisClient, timeoutMs: number): Promise<boolean> {
  if (client.isReady) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(client.isReady), timeoutMs);
    timer.unref();
    client.on('ready', onReady);
  });
}

/** A call that got no answer from Redis within its connection's `commandTimeoutMs`. */
export class RedisCommandTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Redis did not answer within ${timeoutMs} ms`);
    this.name = 'RedisCommandTimeoutError';
  }
}

/** Client-side failures of the connection itself (node-redis error classes, by name: no deep imports). */
const CONNECTION_ERRORS = new Set([
  'ClientClosedError',
  'ClientOfflineError',
  'SocketClosedUnexpectedlyError',
  'ConnectionTimeoutError',
  'DisconnectsClientError',
  'SocketTimeoutError',
  'TimeoutError',
  'ReconnectStrategyError',
]);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * Error replies of a Redis that is up but cannot serve for now, by their first word: loading its dataset
 * (LOADING), running a long script (BUSY), a replica cut from its primary (MASTERDOWN) or one we were failed over
 * onto (READONLY), out of memory under `maxmemory` (OOM), refusing writes after a failed snapshot (MISCONF), a
 * cluster resharding or down (TRYAGAIN, CLUSTERDOWN), too few replicas for min-replicas-to-write (NOREPLICAS). A
 * script's call that gets one fails the script with the same first word (Redis 7: "OOM … script: <sha>, on
 * @user_script:1."). First word only: BUSYKEY or BUSYGROUP are real errors. NOSCRIPT is not here: script.ts and
 * rate-limiter-scripts.ts answer it by sending the script again.
 */
const UNAVAILABLE_REPLIES = new Set([
  'LOADING',
  'BUSY',
  'MASTERDOWN',
  'READONLY',
  'OOM',
  'MISCONF',
  'TRYAGAIN',
  'CLUSTERDOWN',
  'NOREPLICAS',
]);

function isUnavailableReply(e: unknown): boolean {
  if (e instanceof MultiErrorReply) return [...e.errors()].some(isUnavailableReply);
  if (!(e instanceof ErrorReply)) return false;
  return UNAVAILABLE_REPLIES.has(e.message.split(' ', 1)[0] ?? '');
}

/**
 * The store cannot be used now, though nothing is wrong with the request: the connection is down or timed out
 * (refused, reset, closed, no answer within the bound), or Redis answered one of the "not serving now" replies.
 * Such a failure is a 503 data.unavailable; anything else (a bug, a WRONGTYPE) stays a 500.
 */
export function isUnavailable(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  if (e instanceof RedisCommandTimeoutError || isUnavailableReply(e)) return true;
  if (CONNECTION_ERRORS.has(e.constructor?.name ?? '')) return true;
  return SOCKET_CODES.has((e as NodeJS.ErrnoException).code ?? '');
}

/** The 503 every keyed or spending route answers while Redis is unreachable (never a 500, never a lost charge). */
export function redisUnavailable(): AppError {
  return new AppError('data.unavailable', 'Account data is unavailable for a short time.', {
    hint: 'Retry in a few seconds; the service reconnects by itself.',
    details: { component: 'state' },
  });
}

/**
 * Runs one Redis step, turning an unavailable store (`isUnavailable`) into 503 data.unavailable; other errors pass
 * through. Unbounded: for steps inside a call that `redisStepFor` already bounds.
 */
export async function redisStep<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isUnavailable(e)) throw redisUnavailable();
    throw e;
  }
}

export type RedisStep = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * `redisStep` bounded by the connection's `commandTimeoutMs`: a call still unanswered then answers 503 at once.
 *
 * Why here and not in the client: node-redis's per-command `timeout` (and `AbortSignal`) only covers the wait to be
 * written, and is dropped once the command is on the socket, so a Redis that stops answering still hangs the call;
 * `socket.socketTimeout` is an idle timer, see connectRedis. The bound covers the whole call (all its round trips).
 *
 * What a timeout means: the caller gets its 503 at once, but what was sent may still run, and a call of several
 * round trips goes on with the next one if a late answer comes (a dropped connection, below, fails them all). As
 * with a reply lost to a reset connection, the caller cannot tell. Each write is atomic on its own (one script or
 * MULTI), so it lands whole or not at all; a request's hold that lands late is leased, so the orphan sweep releases
 * it once its lease runs out unrenewed.
 *
 * A connection that answers nothing at all (a partition, a host gone without a reset: Linux TCP would take about
 * 15 minutes to give up, with every command queued behind the first) is reset: after a timeout one PING is sent,
 * and if it too gets no answer within the bound, the client drops the socket, failing what waits on it with 503,
 * and connects again. A merely slow Redis answers the PING and keeps its connection, as does a partition that heals
 * within the PING's bound (TCP delivers the late answers).
 */
export function redisStepFor(client: RedisClient): RedisStep {
  const guard = guardOf(client);
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (guard.timeoutMs <= 0) return redisStep(fn);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RedisCommandTimeoutError(guard.timeoutMs)), guard.timeoutMs);
      timer.unref();
    });
    try {
      // A late answer or failure of `fn` after the timeout is observed by the race: never an unhandled rejection.
      return await Promise.race([fn(), late]);
    } catch (e) {
      if (e instanceof RedisCommandTimeoutError) probeStall(client, guard);
      if (isUnavailable(e)) throw redisUnavailable();
      throw e;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** One PING bounded like a call; no answer at all means the connection is dead: reconnect (see redisStepFor). */
function probeStall(client: RedisClient, guard: Guard): void {
  if (guard.probing || !client.isReady) return;
  guard.probing = true;
  let timer: NodeJS.Timeout | undefined;
  // Any answer, even an error reply or a closed connection, is not a silent one.
  const answered = client.ping().then(
    () => true,
    () => true,
  );
  const silent = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), guard.timeoutMs);
    timer.unref();
  });
  void Promise.race([answered, silent]).then((alive) => {
    clearTimeout(timer);
    guard.probing = false;
    // Closed meanwhile (the store's close()): leave it closed.
    if (alive || !client.isOpen) return;
    guard.onError?.(new Error(`Redis answered nothing for ${2 * guard.timeoutMs} ms; reconnecting`));
    client.destroy();
    client.connect().catch((err: Error) => guard.onError?.(err));
  });
}

/**
 * Closes a connection without hanging on a Redis that answers nothing: `close()` waits for every pending reply, so
 * it is used only once a PING comes back within the connection's bound; otherwise the socket is dropped.
 */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (!client.isOpen) return;
  const waitMs = guardOf(client).timeoutMs || DEFAULT_COMMAND_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([
    client.ping().then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), waitMs);
    }),
  ]);
  clearTimeout(timer);
  if (!client.isOpen) return;
  if (answered) await client.close().catch(() => client.destroy());
  else client.destroy();
}
