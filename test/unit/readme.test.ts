import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED, GENERATED_FILES, renderDocs } from '../../src/cli/commands/docs.js';
import { repoRoot } from '../helpers/paths.js';

/**
 * The guides' reference sections are generated from the code (routes and error codes in docs/api.md, settings in
 * docs/configuration.md), as are index-mappings/*.json, and must be current; the README names the test command.
 */
describe('README and guides stay in step with the code', () => {
  const root = repoRoot();
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it.each(renderDocs(root).map((f) => [f.path.slice(root.length + 1), f] as const))(
    '%s is up to date (run `npx cds docs` after changing settings, routes, codes or the catalog)',
    (_name, f) => {
      expect(f.next).toBe(f.text);
    },
  );

  it('every generated section lives in exactly one guide', () => {
    const placed = Object.values(GENERATED_FILES).flat();
    expect([...placed].sort()).toEqual(Object.keys(GENERATED).sort());
    expect(readme).not.toMatch(/<!-- generated:/);
  });

  it('names the test command that .ci/run runs', () => {
    expect(readme).toContain('npm test');
    expect(readFileSync(join(root, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
