import type { CommandSpec } from '../../src/cli/args.js';
import { COMMANDS } from '../../src/cli/main.js';

/** The commands `cds` runs, by name: main.ts's own list, so the docs and deploy-file checks read what the CLI runs. */
export function cliCommands(): Map<string, CommandSpec> {
  return new Map(COMMANDS.map(({ spec }): [string, CommandSpec] => [spec.name, spec]));
}
