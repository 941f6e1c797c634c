import { ConfigError } from '../config.js';
import { type CommandSpec, helpText, UsageError } from './args.js';
import { accounts, accountsSpec } from './commands/accounts.js';
import { backup, backupSpec, restore, restoreSpec } from './commands/backup.js';
import { docs, docsSpec } from './commands/docs.js';
import { keys, keysSpec } from './commands/keys.js';
import { load, loadSpec } from './commands/load.js';
import { optout, optoutSpec } from './commands/optout.js';
import { plans, plansSpec } from './commands/plans.js';
import { releases, releasesSpec } from './commands/releases.js';
import { seed, seedSpec } from './commands/seed.js';
import { serve, serveSpec } from './commands/serve.js';
import { start, startSpec } from './commands/start.js';
import { state, stateSpec } from './commands/state.js';
import { worker, workerSpec } from './commands/worker.js';

/** Every command `cds` runs, in the order `cds --help` lists them. */
export const COMMANDS: ReadonlyArray<{ spec: CommandSpec; run: (argv: string[]) => Promise<void> }> = [
  { spec: startSpec, run: start },
  { spec: serveSpec, run: (argv) => serve(argv) },
  { spec: workerSpec, run: worker },
  { spec: seedSpec, run: seed },
  { spec: loadSpec, run: load },
  { spec: accountsSpec, run: accounts },
  { spec: keysSpec, run: keys },
  { spec: optoutSpec, run: optout },
  { spec: plansSpec, run: plans },
  { spec: releasesSpec, run: releases },
  { spec: backupSpec, run: backup },
  { spec: restoreSpec, run: restore },
  { spec: stateSpec, run: state },
  { spec: docsSpec, run: docs },
];

function overview(): string {
  const lines = COMMANDS.map(
    (c) => `  ${c.spec.name.padEnd(10)} ${c.spec.summary.split('. ')[0]!.replace(/\.$/, '')}.`,
  );
  return (
    `usage: cds <command> [options]   (cds <command> --help for each)\n\nCommands:\n${lines.join('\n')}\n\nEvery ` +
    `setting also reads the environment; see docs/configuration.md.\n`
  );
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(overview());
    return 0;
  }
  const cmd = COMMANDS.find((c) => c.spec.name === name);
  if (!cmd) {
    process.stderr.write(`cds: unknown command ${name}\n\n${overview()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(helpText(cmd.spec));
    return 0;
  }
  try {
    await cmd.run(rest);
    return 0;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      process.stderr.write(`cds ${name}: ${e.message}\n`);
      return 2;
    }
    const err = e as { code?: string; message?: string; hint?: string };
    process.stderr.write(
      `cds ${name}: ${err.code ? `${err.code}: ` : ''}${err.message ?? String(e)}${err.hint ? ` (${err.hint})` : ''}\n`,
    );
    return 1;
  }
}
