import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root, found from the working directory (jest runs from it). */
export function repoRoot(): string {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found');
    dir = up;
  }
  return dir;
}

/** A fact of the published contract kept as data in test/fixtures/contract (see its README). */
export function contractFixture<T>(name: string): T {
  return JSON.parse(readFileSync(join(repoRoot(), 'test', 'fixtures', 'contract', name), 'utf8')) as T;
}
