import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRelease } from '../../loaders/seed.js';

/**
 * Seeded releases made once per test run and copied into each test's data dir. Most suites serve a small seeded
 * release of the same few sizes; generating and loading one costs seconds of CPU, copying its files milliseconds.
 * The cache lives in a directory the run's global setup makes (its path in CDS_TEST_SEED_CACHE, inherited by every
 * worker) and removes at the end, so it never outlives the build that wrote it. Without it (a suite run outside
 * jest's global setup), every call seeds as before. A copy is the release a fresh seed of the same size, seed and
 * reference time makes (the generator and the loader are deterministic), except its release id, which names the
 * moment the cached one was loaded.
 */
export const SEED_CACHE_ENV = 'CDS_TEST_SEED_CACHE';

export interface CachedSeed {
  contacts: number;
  companies: number;
  seed: number;
  asOf: Date;
}

/** Global setup: makes the run's cache directory and names it for the workers. */
export function openSeedCache(): void {
  process.env[SEED_CACHE_ENV] = mkdtempSync(join(tmpdir(), 'cds-seed-cache-'));
}

/** Global teardown: removes the run's cache directory. */
export function removeSeedCache(): void {
  const dir = process.env[SEED_CACHE_ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
  delete process.env[SEED_CACHE_ENV];
}

/** Seeds `dataDir` (dumps and a loaded release, as seedRelease does) from the run's cache, filling it on a miss. */
export async function seedFromCache(dataDir: string, o: CachedSeed): Promise<void> {
  const cache = process.env[SEED_CACHE_ENV];
  if (!cache || !existsSync(cache)) {
    await seedRelease({ dataDir, ...o });
    return;
  }
  const entry = join(cache, `${o.seed}-${o.contacts}-${o.companies}-${o.asOf.getTime()}`);
  if (!existsSync(entry)) {
    // Made aside and renamed into place, so a worker never copies a half-made entry; two workers missing the same
    // entry at once both make it and the second rename fails, leaving the first's.
    const making = mkdtempSync(`${entry}.making-`);
    await seedRelease({ dataDir: making, ...o });
    retarget(making, making, entry);
    try {
      renameSync(making, entry);
    } catch {
      rmSync(making, { recursive: true, force: true });
    }
  }
  cpSync(entry, dataDir, { recursive: true });
  retarget(dataDir, entry, dataDir);
}

/** The serving release's record in `dir` names the dump files it was loaded from: moves them from `from` to `to`. */
function retarget(dir: string, from: string, to: string): void {
  const current = join(dir, 'releases', 'CURRENT');
  writeFileSync(current, readFileSync(current, 'utf8').split(from).join(to));
}
