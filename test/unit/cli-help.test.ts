import type { CommandSpec } from '../../src/cli/args.js';
import { COMMANDS, main } from '../../src/cli/main.js';
import { runCds } from '../helpers/child-server.js';

/**
 * `cds <command> --help` of every registered command (through main(), as bin/cds.js runs it; the child process of
 * the build under test for `cds --help` and `cds load --help`): it exits 0,
 * documents every option the command declares (usage line and option list), the usage names no option the command
 * does not take, and the text is tidy (no `..`, no double space after a sentence, no trailing spaces).
 */

/** The prose problems a help text must not have, as [what, pattern] per line. */
const UNTIDY: ReadonlyArray<[string, RegExp]> = [
  ['a line ending in ..', /\.\.\s*$/],
  ['two spaces after a sentence', /\S[.!?;,] {2,}\S/],
  ['trailing spaces', /[ \t]+$/],
  ['a space before punctuation', /\S [.,;:](\s|$)/],
];

function untidy(text: string): string[] {
  const found: string[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    for (const [what, re] of UNTIDY) if (re.test(line)) found.push(`line ${i + 1} (${what}): ${line}`);
  }
  return found;
}

/** The `--flag` names a text mentions. */
const flagsIn = (text: string): Set<string> => new Set([...text.matchAll(/--([a-z][a-z0-9-]*)/g)].map((m) => m[1]!));

it('cds --help lists every registered command, tidily', async () => {
  const { code, out, err } = await runCds(['--help']);
  expect(code).toBe(0);
  expect(err).toBe('');
  for (const { spec } of COMMANDS) expect(out).toMatch(new RegExp(`^  ${spec.name} +\\S`, 'm'));
  expect(untidy(out)).toEqual([]);
});

/** main(argv) in this process: its exit code and what it wrote on stdout and stderr. */
async function runMain(argv: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const written = { out: '', err: '' };
  const stdout = process.stdout.write.bind(process.stdout);
  const stderr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written.out += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    written.err += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    return { code: await main(argv), ...written };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

describe.each(COMMANDS.map((c): [string, CommandSpec] => [c.spec.name, c.spec]))('cds %s --help', (name, spec) => {
  let help: { code: number | null; out: string; err: string };
  beforeAll(async () => {
    help = await runMain([name, '--help']);
  });

  it('exits 0 and prints the usage, the summary and the options on stdout', () => {
    expect(help.code).toBe(0);
    expect(help.err).toBe('');
    expect(help.out.startsWith(`usage: cds ${name}`)).toBe(true);
    expect(help.out).toContain(spec.summary);
    expect(help.out).toContain(spec.help.trimEnd());
    expect(help.out.endsWith('\n')).toBe(true);
  });

  it('lists every option the command takes in its option list and its usage', () => {
    for (const option of Object.keys(spec.options)) {
      expect({ option, listed: new RegExp(`^ +--${option}\\b`, 'm').test(spec.help) }).toEqual({
        option,
        listed: true,
      });
      expect({ option, inUsage: flagsIn(spec.usage).has(option) }).toEqual({ option, inUsage: true });
    }
  });

  it('names no option the command does not take', () => {
    const taken = new Set(Object.keys(spec.options));
    const unknown = (text: string) => [...flagsIn(text)].filter((f) => !taken.has(f));
    expect(unknown(spec.usage)).toEqual([]);
    // The option list documents the command's own options (help texts may refer to other commands' flags in prose).
    const listed = [...spec.help.matchAll(/^ +--([a-z][a-z0-9-]*)/gm)].map((m) => m[1]!);
    expect(listed.filter((f) => !taken.has(f))).toEqual([]);
  });

  it('is tidy: no line ends in .., no double space after a sentence, no trailing spaces', () => {
    expect(untidy(help.out)).toEqual([]);
  });

  it('-h prints the same help', async () => {
    const short = await runMain([name, '-h']);
    expect(short.code).toBe(0);
    expect(short.out).toBe(help.out);
  });
});

it('cds load --help names every dump format the loader reads', async () => {
  const { out } = await runCds(['load', '--help']);
  for (const ext of ['.jsonl', '.ndjson', '.json', '.csv', '.parquet', '.gz', '.jsonl.gz', '.csv.gz']) {
    expect({ ext, named: out.includes(ext) }).toEqual({ ext, named: true });
  }
  expect(out).toMatch(/JSON Lines/);
  expect(out).toMatch(/Parquet/);
  expect(out).toMatch(/gzip/);
});

it('an unknown option is a usage error (exit 2) that prints the help', async () => {
  const { code, err } = await runMain(['plans', '--no-such-option']);
  expect(code).toBe(2);
  expect(err).toMatch(/usage: cds plans/);
});
