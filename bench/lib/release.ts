import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The serving release of a data dir, from `releases/CURRENT`: its id and DuckDB file (read-only for benches). */
export function servingRelease(dataDir: string): { id: string; file: string } {
  const releases = join(dataDir, 'releases');
  const current = JSON.parse(readFileSync(join(releases, 'CURRENT'), 'utf8')) as { id: string; file: string };
  return { id: current.id, file: join(releases, current.file) };
}
