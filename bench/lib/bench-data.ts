import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A data dir seeded once per size under bench/tmp (reused across runs), with a bench plan of huge caps. */
export function benchDataDir(root: string, contacts: number, explicit?: string): string {
  const dir = explicit ?? join(root, 'bench', 'tmp', `data-${contacts}`);
  if (!existsSync(join(dir, 'releases', 'CURRENT'))) {
    mkdirSync(dir, { recursive: true });
    const companies = Math.max(1000, Math.round(contacts / 10));
    process.stderr.write(`seeding ${contacts} contacts, ${companies} companies into ${dir} …\n`);
    execFileSync(
      process.execPath,
      [
        join(root, 'bin', 'cds.js'),
        'seed',
        '--data',
        dir,
        '--contacts',
        String(contacts),
        '--companies',
        String(companies),
        '--seed',
        '42',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
  writeFileSync(
    join(dir, 'plans.json'),
    JSON.stringify({
      bench: {
        name: 'Benchmark',
        contact: { kind: 'windows', daily: 1_000_000_000, monthly: 1_000_000_000 },
        premiumMonthly: 1_000_000,
        alerts: true,
        maxActiveAlerts: 100,
      },
    }),
  );
  return dir;
}

/** Creates an account on the bench plan through the CLI; returns its key. */
export function benchKey(root: string, dir: string): string {
  const out = execFileSync(
    process.execPath,
    [join(root, 'bin', 'cds.js'), 'accounts', 'create', '--data', dir, '--plan', 'bench', '--name', 'bench'],
    { encoding: 'utf8' },
  );
  return (JSON.parse(out.trim()) as { api_key: string }).api_key;
}
