import { type ParseArgsConfig, parseArgs } from 'node:util';
import { ENGINES, type EngineName } from '../config.js';

export class UsageError extends Error {}

export interface CommandSpec {
  name: string;
  usage: string;
  summary: string;
  options: NonNullable<ParseArgsConfig['options']>;
  help: string;
}

/** Parses a subcommand's argv strictly; unknown flags are usage errors that print the command's help. */
export function parse(
  spec: CommandSpec,
  argv: string[],
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const r = parseArgs({
      args: argv,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: r.values as Record<string, string | boolean | undefined>, positionals: r.positionals };
  } catch (e) {
    throw new UsageError(`${(e as Error).message}\n\n${helpText(spec)}`);
  }
}

export function helpText(spec: CommandSpec): string {
  return `${`usage: ${spec.usage}\n\n${spec.summary}\n\n${spec.help}`.trimEnd()}\n`;
}

export function intOption(
  value: string | boolean | undefined,
  name: string,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}`);
  return n;
}

/** Flags shared by every command that reads settings (see src/config.ts). */
export const DATA_OPTION = { data: { type: 'string' as const } };

/** `--engine NAME` of the commands that write a release: one of CDS_ENGINE's values, or the configured one. */
export function engineOption(value: unknown, configured: EngineName): EngineName {
  if (value === undefined) return configured;
  if (typeof value !== 'string' || !(ENGINES as readonly string[]).includes(value))
    throw new UsageError(`--engine takes ${ENGINES.join(', ')}`);
  return value as EngineName;
}
