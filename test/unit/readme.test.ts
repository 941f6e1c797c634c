import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS } from '../../src/config.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { ERROR_CATALOG } from '../../src/domain/errors/index.js';
import { repoRoot } from '../helpers/paths.js';

/** The README documents every setting, every route and every error code the code knows. */
describe('README stays in step with the code', () => {
  const readme = readFileSync(join(repoRoot(), 'README.md'), 'utf8');

  it.each(SETTINGS.map((s) => [s.env]))('documents setting %s', (env) => {
    expect(readme).toContain(`\`${env}\``);
  });

  it.each(OPERATIONS.map((op) => [`${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}`]))('documents route %s', (route) => {
    expect(readme).toContain(route);
  });

  it.each(Object.keys(ERROR_CATALOG).map((c) => [c]))('documents error code %s', (code) => {
    expect(readme).toContain(`\`${code}\``);
  });

  it('names the test command that .ci/run runs', () => {
    expect(readme).toContain('npm test');
    expect(readFileSync(join(repoRoot(), '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
