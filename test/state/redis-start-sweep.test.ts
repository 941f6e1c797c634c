import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { seedRelease } from '../../loaders/seed.js';
import { loadConfig } from '../../src/config.js';
import { closeServices, openServices } from '../../src/services.js';
import { describeRedis, dropPrefix, REDIS_URL, testPrefix } from './store-factories.js';

/**
 * Issue 42 finding 7: in Redis mode a server opens its connection in the background (it starts while Redis is down
 * and answers 503 until it is up) and swept orphan credit holds at once; the connection refuses commands until it is
 * ready (no offline queue), so a start racing its own connect, as two processes starting at once do, logged "could
 * not look for orphan credit holds" while Redis was reachable. The start-up sweep now waits (bounded) for the
 * connection to be ready. Several services started at once, a few times over, log no such warning.
 */
describeRedis('Redis mode start-up: the orphan-hold sweep gives no false alarm', () => {
  const prefix = testPrefix();
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cds-start-sweep-'));
    await seedRelease({ dataDir, contacts: 50, companies: 10, seed: 3, asOf: new Date('2026-11-01T00:00:00Z') });
  });
  afterAll(async () => {
    await dropPrefix(REDIS_URL, prefix);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('services started at once (as two processes are) log no orphan-hold warning', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino(
      { level: 'warn' },
      { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) },
    );
    const config = loadConfig(['--data', dataDir, '--port', '0'], {
      CDS_STATE: 'redis',
      REDIS_URL,
      CDS_REDIS_PREFIX: prefix,
      CDS_SECRET: 'start-sweep-secret-0123456789abcdef0123',
      CDS_LOG_LEVEL: 'warn',
      CDS_DUCKDB_THREADS: '1',
      CDS_DUCKDB_POOL: '1',
      CDS_WORKERS: '0',
    });
    for (let round = 0; round < 3; round++) {
      const all = await Promise.all([1, 2].map(() => openServices(config, { logger })));
      await Promise.all(all.map((s) => closeServices(s)));
    }
    expect(lines.filter((l) => /orphan credit holds/.test(l.msg))).toEqual([]);
  }, 60_000);
});
