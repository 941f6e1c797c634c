import { createClient } from 'redis';
import { AppError } from '../../domain/errors/index.js';

/**
 * One connection to the deployment's Redis (the official `redis` client), shared by the state store, the rate
 * limiter and the job queue of a process. Commands fail at once while the connection is down (no offline queue:
 * a request must not wait on a queue that may never drain, and a money move must not be replayed later); the
 * client reconnects by itself with a capped backoff, so the process recovers when Redis is back.
 */
export type RedisClient = ReturnType<typeof createClient>;

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
      ...(tls ? { tls: true as const } : {}),
    },
  });
  client.on('error', (err: Error) => o.onError?.(err));
  const connecting = client.connect();
  if (o.wait === false) connecting.catch((err: Error) => o.onError?.(err));
  else await connecting;
  return client;
}

/** A connection-level failure (refused, reset, closed, timed out): the store is unreachable, not wrong. */
export function isConnectionError(e: unknown): boolean {
  if (!(e instanceof Error)) return false;
  const name = e.constructor?.name ?? '';
  if (
    ['ClientClosedError', 'ClientOfflineError', 'SocketClosedUnexpectedlyError', 'ConnectionTimeoutError'].includes(
      name,
    )
  )
    return true;
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT';
}

/** The 503 every keyed or spending route answers while Redis is unreachable (never a 500, never a lost charge). */
export function redisUnavailable(): AppError {
  return new AppError('data.unavailable', 'Account data is unavailable for a short time.', {
    hint: 'Retry in a few seconds; the service reconnects by itself.',
    details: { component: 'state' },
  });
}

/** Runs one Redis step, turning a connection failure into 503 data.unavailable; other errors pass through. */
export async function redisStep<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isConnectionError(e)) throw redisUnavailable();
    throw e;
  }
}
