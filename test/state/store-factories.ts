import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectRedis } from '../../src/state/redis/client.js';
import { openRedisStore } from '../../src/state/redis/index.js';
import { openSqliteStore } from '../../src/state/sqlite/index.js';
import type { StoreFactory } from './conformance.js';

/**
 * The state adapters as StoreFactories, for suites that run against both: the stores of one factory share one
 * storage (one SQLite file, or one key prefix on Redis), like processes of one deployment.
 */
export const PEPPER = 'test-pepper-0123456789abcdef';

/** Redis for the Redis runs; unset, those suites are skipped with a message saying so. */
export const REDIS_URL = process.env.REDIS_URL ?? '';

export function sqliteFactory(pepper = PEPPER): StoreFactory {
  const dir = mkdtempSync(join(tmpdir(), 'cds-state-'));
  return {
    open: async (opts) =>
      openSqliteStore({
        file: join(dir, 'state.sqlite'),
        keyPepper: pepper,
        ...(opts?.plans ? { plans: opts.plans } : {}),
      }),
    dispose: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A prefix no other test store uses (letters and digits only, so it is also a literal SCAN pattern). */
export function testPrefix(): string {
  return `cds-test:${randomBytes(8).toString('hex')}:`;
}

/** Each `open` is its own connection (a process); dispose deletes the prefix's keys, and only those. */
export function redisFactory(url = REDIS_URL, pepper = PEPPER): StoreFactory {
  const prefix = testPrefix();
  return {
    open: (opts) => openRedisStore({ url, prefix, keyPepper: pepper, ...(opts?.plans ? { plans: opts.plans } : {}) }),
    dispose: () => dropPrefix(url, prefix),
  };
}

/** Deletes every key under `prefix` (never FLUSHDB: the Redis is shared). */
export async function dropPrefix(url: string, prefix: string): Promise<void> {
  const client = await connectRedis({ url });
  try {
    for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 }))
      if (keys.length > 0) await client.del(keys);
  } finally {
    await client.close();
  }
}

/** `describe` when REDIS_URL is set; otherwise a visible skip. */
export function describeRedis(name: string, fn: () => void): void {
  if (REDIS_URL) {
    describe(name, fn);
    return;
  }
  console.warn(`${name}: skipped, REDIS_URL is not set (e.g. REDIS_URL=redis://127.0.0.1:6379)`);
  describe.skip(name, fn);
}
