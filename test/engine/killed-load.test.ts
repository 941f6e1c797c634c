import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRelease } from '../../loaders/seed.js';
import { releasesDir, sweepKilledLoads } from '../../src/engine/duckdb/release-store.js';
import { startTestApp } from '../helpers/test-app.js';

/**
 * A killed load left `<id>.duckdb.tmp` and `<id>.points.sqlite.tmp` (and its staging folder) behind for good.
 * They are swept at the next load and at server start; a load whose process still runs keeps its files.
 */

const DEAD = 'r20260101T000000-dead';
const LIVE = 'r20260101T000001-live';
const UNMARKED = 'r20260101T000002-nomk';

function leave(dataDir: string, id: string, marker: string | null): string[] {
  const dir = releasesDir(dataDir);
  mkdirSync(join(dir, `${id}.staging`), { recursive: true });
  const files = [`${id}.duckdb.tmp`, `${id}.duckdb.tmp.wal`, `${id}.points.sqlite.tmp`, `${id}.index.tmp`];
  for (const f of files) writeFileSync(join(dir, f), 'partial');
  if (marker !== null) writeFileSync(join(dir, `${id}.loading`), marker);
  return files.map((f) => join(dir, f));
}

const deadPid = () => {
  // A pid far above any running one on this machine.
  return `${hostname()} 4194000`;
};

describe('leftovers of killed loads', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cds-killed-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('are swept, sparing a load whose process is alive', async () => {
    const dead = leave(dataDir, DEAD, deadPid());
    const unmarked = leave(dataDir, UNMARKED, null);
    const live = leave(dataDir, LIVE, `${hostname()} ${process.pid}`);
    const removed = await sweepKilledLoads(dataDir);
    expect(removed).toContain(`${DEAD}.duckdb.tmp`);
    expect(removed).toContain(`${DEAD}.loading`);
    expect(removed).toContain(`${UNMARKED}.staging`);
    expect([...dead, ...unmarked].filter(existsSync)).toEqual([]);
    expect(live.every(existsSync)).toBe(true);
    // Only what a load writes beside a release id is touched.
    writeFileSync(join(releasesDir(dataDir), 'notes.tmp'), 'mine');
    expect(await sweepKilledLoads(dataDir)).toEqual([]);
    expect(existsSync(join(releasesDir(dataDir), 'notes.tmp'))).toBe(true);
    expect(existsSync(join(releasesDir(dataDir), `${LIVE}.staging`))).toBe(true);
  });

  it('at the next load and at server start', async () => {
    const first = leave(dataDir, DEAD, deadPid());
    await seedRelease({ dataDir, contacts: 50, companies: 10, seed: 1, asOf: new Date('2026-11-01T00:00:00Z') });
    expect(first.filter(existsSync)).toEqual([]);
    const second = leave(dataDir, UNMARKED, null);
    const app = await startTestApp({ dataDir, noSeed: true });
    try {
      expect(second.filter(existsSync)).toEqual([]);
      expect((await app.request('GET', '/v1/health')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
