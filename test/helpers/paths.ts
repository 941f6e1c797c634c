import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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

/** The spec sits in ../shared beside the checkout (CI clones main with shared/ beside it). */
export function specPath(): string {
  return resolve(repoRoot(), '..', 'shared', 'spec', 'contact-data-service.md');
}
