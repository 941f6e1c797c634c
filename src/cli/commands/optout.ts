import { readFile, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { progressReporter } from '../../../loaders/load/progress.js';
import { ensureSecret, loadConfig } from '../../config.js';
import { systemClock } from '../../domain/clock.js';
import {
  isOptOutType,
  normalizeOptOut,
  OPT_OUT_TYPES,
  type OptOutEntry,
  type OptOutType,
} from '../../domain/optouts.js';
import { openState } from '../../services.js';
import type { StateStore } from '../../state/port.js';
import { type CommandSpec, intOption, parse, UsageError } from '../args.js';
import { jsonLine, printJson } from '../json-out.js';

export const optoutSpec: CommandSpec = {
  name: 'optout',
  usage:
    'cds optout add|remove [--data DIR] (--email E | --phone P | --url U | --id I | --sha256 H)\n       ' +
    'cds optout list [--data DIR] [--type T] [--limit N]\n       ' +
    'cds optout import [--data DIR] --type T [--report FILE] FILE\n       ' +
    'cds optout audit [--data DIR] [--limit N]',
  summary:
    'Manages the opt-out (suppression) list in the state store. add, remove and import print one JSON line with ' +
    'what changed; list and audit print JSON lines. Every change is audited (action, type, count; never an ' +
    'identifier). Exit 0 ok, 1 failed, 2 bad input.',
  options: {
    data: { type: 'string' },
    email: { type: 'string' },
    phone: { type: 'string' },
    url: { type: 'string' },
    id: { type: 'string' },
    sha256: { type: 'string' },
    type: { type: 'string' },
    limit: { type: 'string' },
    report: { type: 'string' },
  },
  help:
    'Identifiers (one per add or remove; normalized before they are stored):\n' +
    '  --email E        work or personal email (lowercased)\n' +
    '  --phone P        phone number (stored as E.164; without + only North American numbers are read)\n' +
    '  --url U          person profile URL on the network host (CDS_NETWORK_HOST), or its bare slug\n' +
    '  --id I           contact id (per_…)\n' +
    '  --sha256 H       SHA-256 hex of a normalized email or phone (see docs/data-team.md "Opt-outs")\n' +
    'Options:\n' +
    '  --type T         list: only this type; import: the type of every line (id, email, phone, url, sha256)\n' +
    '  --limit N        list: at most N entries (default all); audit: newest N records (default 100)\n' +
    '  --report FILE    import: write every rejected line as JSON lines {"line":N,"reason":"…"}\n' +
    '  --data DIR       data directory (default ./data)\n' +
    'import reads one identifier per line, or a one-column CSV (quoted cells, an optional header line); blank\n' +
    'lines are skipped, unreadable ones reported by line number on stderr (the first 20) and in --report. It\n' +
    'exits 2 when no line could be read (likely the wrong --type).\n',
};

/** Where the command reports rejected lines on stderr; the rest go to --report. */
const STDERR_REJECTS = 20;

/** First-line cells read as a CSV header rather than an identifier (lowercased, spaces and dashes as `_`). */
const HEADER_NAMES = new Set([
  'id',
  'ids',
  'person_id',
  'contact_id',
  'email',
  'emails',
  'email_address',
  'work_email',
  'personal_email',
  'phone',
  'phones',
  'phone_number',
  'mobile_phone',
  'direct_phone',
  'url',
  'urls',
  'profile',
  'profile_url',
  'network_url',
  'slug',
  'sha256',
  'hash',
  'hashes',
  'sha256_hash',
  'value',
  'identifier',
  'identifiers',
]);

function actor(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return `cli:${process.env.USER ?? 'unknown'}`;
  }
}

function typeOption(value: string | boolean | undefined): OptOutType | undefined {
  if (value === undefined) return undefined;
  if (!isOptOutType(value)) throw new UsageError(`--type must be one of ${OPT_OUT_TYPES.join(', ')}`);
  return value;
}

/** The one identifier flag of add or remove, normalized. */
function oneIdentifier(values: Record<string, string | boolean | undefined>, networkHost: string): OptOutEntry {
  const given = OPT_OUT_TYPES.filter((t) => values[t] !== undefined);
  if (given.length !== 1) {
    throw new UsageError('give exactly one of --email, --phone, --url, --id, --sha256 (use import for many)');
  }
  const type = given[0]!;
  const raw = values[type];
  if (typeof raw !== 'string') throw new UsageError(`--${type} needs a value`);
  const r = normalizeOptOut(type, raw, networkHost);
  if (!r.ok) throw new UsageError(`--${type}: ${r.reason}`);
  return r.entry;
}

export interface ImportLine {
  line: number;
  raw: string;
}

/**
 * The cells of a one-column file: one identifier per line, or a CSV cell (quoted with `""` escapes, trailing empty
 * cells allowed). Blank lines are skipped. Answers the cells with their line numbers, and the lines that are not one
 * cell with the reason.
 */
export function readCells(text: string): { cells: ImportLine[]; bad: Array<{ line: number; reason: string }> } {
  const cells: ImportLine[] = [];
  const bad: Array<{ line: number; reason: string }> = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (s === '') return;
    const cell = csvCell(s);
    if (typeof cell === 'string') cells.push({ line, raw: cell });
    else bad.push({ line, reason: cell.reason });
  });
  return { cells, bad };
}

function csvCell(s: string): string | { reason: string } {
  if (!s.startsWith('"')) {
    const [first, ...rest] = s.split(',');
    return rest.every((c) => c.trim() === '')
      ? first!.trim()
      : { reason: 'more than one column (quote a cell holding a comma)' };
  }
  let out = '';
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c !== '"') {
      out += c;
      continue;
    }
    if (s[i + 1] === '"') {
      out += '"';
      i++;
      continue;
    }
    const rest = s.slice(i + 1);
    return /^(\s*,)*\s*$/.test(rest) ? out.trim() : { reason: 'more than one column (quote a cell holding a comma)' };
  }
  return { reason: 'a quoted cell without its closing quote' };
}

function firstLine(cells: readonly ImportLine[], bad: ReadonlyArray<{ line: number }>): number {
  return Math.min(cells[0]?.line ?? Number.POSITIVE_INFINITY, bad[0]?.line ?? Number.POSITIVE_INFINITY);
}

function isHeader(cell: string): boolean {
  return HEADER_NAMES.has(
    cell
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_'),
  );
}

const print = printJson;

export async function optout(argv: string[]): Promise<void> {
  const { values, positionals } = parse(optoutSpec, argv);
  const [action, file, ...extra] = positionals;
  if (extra.length > 0 || (file !== undefined && action !== 'import')) {
    throw new UsageError(`unexpected argument ${extra[0] ?? file}`);
  }
  if (!['add', 'remove', 'list', 'import', 'audit'].includes(action ?? '')) {
    throw new UsageError(`unknown action ${action ?? '(none)'}; use add, remove, list, import or audit`);
  }
  const config = loadConfig(argv);
  // Everything about the input is checked before the store is opened: bad input never touches the state.
  const type = typeOption(values.type);
  const entry = action === 'add' || action === 'remove' ? oneIdentifier(values, config.networkHost) : undefined;
  const limit = intOption(values.limit, '--limit', 1, 1_000_000_000);
  let text: string | undefined;
  if (action === 'import') {
    if (!type) throw new UsageError('import needs --type (id, email, phone, url or sha256)');
    if (!file) throw new UsageError('import needs the FILE to read');
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
    }
  }

  const state = await openState(config, ensureSecret(config));
  const now = systemClock.now();
  try {
    switch (action) {
      case 'add': {
        const r = await state.addOptOuts([entry!], { action: 'add', actor: actor() }, now);
        print({ type: entry!.type, value: entry!.value, ...r });
        return;
      }
      case 'remove': {
        const r = await state.removeOptOuts([entry!], { action: 'remove', actor: actor() }, now);
        print({ type: entry!.type, value: entry!.value, ...r });
        return;
      }
      case 'list':
        await list(state, type, limit);
        return;
      case 'audit':
        for (const r of await state.listOptOutAudit(limit ?? 100)) print(r);
        return;
      default:
        await importFile(state, type!, text!, {
          networkHost: config.networkHost,
          now,
          ...(typeof values.report === 'string' ? { report: values.report } : {}),
        });
    }
  } finally {
    await state.close();
  }
}

async function list(state: StateStore, type: OptOutType | undefined, limit: number | undefined): Promise<void> {
  let left = limit ?? Number.POSITIVE_INFINITY;
  let after: string | null = null;
  while (left > 0) {
    const page = await state.listOptOuts({ ...(type ? { type } : {}), after, limit: Math.min(1000, left) });
    for (const e of page.entries) print({ type: e.type, value: e.value, created_at: e.createdAt });
    left -= page.entries.length;
    if (page.next === null) return;
    after = page.next;
  }
}

async function importFile(
  state: StateStore,
  type: OptOutType,
  text: string,
  o: { networkHost: string; now: Date; report?: string },
): Promise<void> {
  const progress = progressReporter();
  const { cells, bad } = readCells(text);
  const unreadable = bad.length;
  // Only the first non-blank line may be a header, and only a known column name (a header `url` is also a slug).
  const header = cells.length > 0 && cells[0]!.line === firstLine(cells, bad) && isHeader(cells[0]!.raw);
  const rows = header ? cells.slice(1) : cells;
  const entries: OptOutEntry[] = [];
  rows.forEach((c, i) => {
    const r = normalizeOptOut(type, c.raw, o.networkHost);
    if (r.ok) entries.push(r.entry);
    else bad.push({ line: c.line, reason: r.reason });
    if ((i + 1) % 10_000 === 0 || i + 1 === rows.length) progress({ phase: 'read', done: i + 1, total: rows.length });
  });
  bad.sort((a, b) => a.line - b.line);
  const result =
    entries.length > 0
      ? await state.addOptOuts(entries, { action: 'import', actor: actor() }, o.now, (done, total) =>
          progress({ phase: 'write', done, total }),
        )
      : { added: 0, already: 0 };
  for (const b of bad.slice(0, STDERR_REJECTS)) process.stderr.write(`line ${b.line}: ${b.reason}\n`);
  if (bad.length > STDERR_REJECTS) {
    process.stderr.write(
      `… and ${bad.length - STDERR_REJECTS} more rejected lines${o.report ? ` (all in ${o.report})` : ' (--report FILE lists them all)'}\n`,
    );
  }
  if (o.report) await writeFile(o.report, bad.map(jsonLine).join(''));
  print({
    type,
    lines: rows.length + unreadable,
    header,
    ...result,
    rejected: bad.length,
    ...(o.report ? { report: o.report } : {}),
  });
  if (entries.length === 0 && bad.length > 0) {
    throw new UsageError(`no line of the file is a valid ${type} identifier (is --type right?)`);
  }
}
