import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths.js';

/**
 * The OAuth authorization server's library agrees with the service's runtime (Node 20, `engines` ">=20"): loading
 * it in a fresh Node process prints nothing (oidc-provider 9 printed "Unsupported runtime" on Node 20 and used
 * Node >= 20.18 APIs; the service runs 8, whose own check accepts Node 18 and later LTS releases).
 */
const root = repoRoot();

describe('oidc-provider on the service runtime', () => {
  it('is the pinned major 8 release', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe('>=20');
    expect(pkg.dependencies['oidc-provider']).toMatch(/^8\.\d+\.\d+$/);
    const installed = JSON.parse(readFileSync(join(root, 'node_modules', 'oidc-provider', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(installed.version).toBe(pkg.dependencies['oidc-provider']);
  });

  it('loads in a child process on this Node without any warning on stderr', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "const m = await import('oidc-provider'); process.stdout.write(typeof m.default + ' ' + process.version);",
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`function ${process.version}`);
    expect(run.stdout + run.stderr).not.toMatch(/Unsupported runtime/);
    expect(run.stderr).toBe('');
  });
});
