import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderReadme } from '../../src/cli/commands/docs.js';
import { repoRoot } from '../helpers/paths.js';

/** The README's reference sections are generated from the code (settings, routes, errors) and must be current. */
describe('README stays in step with the code', () => {
  const readme = readFileSync(join(repoRoot(), 'README.md'), 'utf8');

  it('the generated sections are up to date (run `npx cds docs` after changing settings, routes or codes)', () => {
    expect(renderReadme(readme)).toBe(readme);
  });

  it('names the test command that .ci/run runs', () => {
    expect(readme).toContain('npm test');
    expect(readFileSync(join(repoRoot(), '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
