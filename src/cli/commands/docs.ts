import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SETTINGS } from '../../config.js';
import { ADDED_ERROR_CODES, ERROR_CATALOG, type ErrorCode } from '../../domain/errors/index.js';
import { indexDefinition } from '../../engine/search-cluster/mappings.js';
import { OPERATIONS } from '../../operations/index.js';
import { type CommandSpec, parse } from '../args.js';

export const docsSpec: CommandSpec = {
  name: 'docs',
  usage: 'cds docs [--check] [--root DIR]',
  summary:
    'Regenerates the guide sections made from the code (docs/api.md: routes and error codes; docs/configuration.md: ' +
    'settings) between their <!-- generated:NAME --> markers, and index-mappings/*.json (Elasticsearch mappings ' +
    'from the catalog); --check fails when they are out of date.',
  options: { check: { type: 'boolean' }, root: { type: 'string' } },
  help:
    'Options:\n  --root DIR     the repository to update (default: the working directory)\n  --check        change ' +
    'nothing; exit 1 when a section or a mappings file differs\n',
};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function settingsTable(): string {
  const rows = SETTINGS.map(
    (s) =>
      `| \`${s.env}\` | ${s.flag ? `\`${s.flag}\`` : ''} | \`${s.default === '' ? '(empty)' : s.default}\` | ` +
      `${cell(s.doc)} |`,
  );
  return ['| environment | flag | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

function routesTable(): string {
  const auth = { key: 'API key', optional: 'none (key optional)', operator: 'operator token', none: 'none' } as const;
  const rows = OPERATIONS.map(
    (op) =>
      `| ${op.family === 'system' ? 'ops' : op.family} | \`${op.method} ${op.path.replace(/:(\w+)/g, '{$1}')}\` | ` +
      `${cell(op.summary)} | ${cell(op.cost)} | ${auth[op.auth]} | ${op.mcp ? `\`${op.mcp.tool}\`` : ''} |`,
  );
  return ['| family | route | purpose | cost | auth | MCP tool |', '|---|---|---|---|---|---|', ...rows].join('\n');
}

function errorsTable(): string {
  const rows = (Object.keys(ERROR_CATALOG) as ErrorCode[]).map(
    (c) =>
      `| \`${c}\` | ${ERROR_CATALOG[c].status} | ${cell(ERROR_CATALOG[c].message)} | ` +
      `${ADDED_ERROR_CODES.includes(c) ? 'added by this service' : 'spec'} |`,
  );
  return ['| code | status | meaning | source |', '|---|---|---|---|', ...rows].join('\n');
}

export const GENERATED: Record<string, () => string> = {
  settings: settingsTable,
  routes: routesTable,
  errors: errorsTable,
};

/** The files holding generated sections, relative to the repository root, and the sections each holds. */
export const GENERATED_FILES: Record<string, readonly string[]> = {
  'docs/api.md': ['routes', 'errors'],
  'docs/configuration.md': ['settings'],
};

/** Replaces each named generated section of `text` (every one must be present); returns the new text. */
export function renderSections(text: string, names: readonly string[], file = 'the file'): string {
  let out = text;
  for (const name of names) {
    const make = GENERATED[name];
    if (!make) throw new Error(`no generated section named ${name}`);
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`${file} has no <!-- generated:${name} --> section`);
    out = out.replace(re, (_m, a: string, b: string) => `${a}${make()}\n${b}`);
  }
  return out;
}

/** Every generated file of the repository at `root`: its path, its text now and what it should be. */
export function renderDocs(root: string): Array<{ path: string; text: string; next: string }> {
  const out: Array<{ path: string; text: string; next: string }> = [];
  for (const [rel, names] of Object.entries(GENERATED_FILES)) {
    const path = join(root, rel);
    const text = readFileSync(path, 'utf8');
    out.push({ path, text, next: renderSections(text, names, rel) });
  }
  for (const [name, json] of Object.entries(indexMappingFiles())) {
    const path = join(root, 'index-mappings', name);
    out.push({ path, text: existsSync(path) ? readFileSync(path, 'utf8') : '', next: json });
  }
  return out;
}

export async function docs(argv: string[]): Promise<void> {
  const { values } = parse(docsSpec, argv);
  const root = typeof values.root === 'string' ? values.root : '.';
  const files = renderDocs(root);
  if (values.check) {
    const stale = files.filter((f) => f.next !== f.text).map((f) => f.path);
    if (stale.length > 0) throw new Error(`${stale.join(', ')} out of date; run: npx cds docs`);
    process.stdout.write(`${files.map((f) => f.path).join(', ')} up to date\n`);
    return;
  }
  for (const f of files) {
    if (f.next !== f.text) {
      mkdirSync(dirname(f.path), { recursive: true });
      writeFileSync(f.path, f.next);
    }
    process.stdout.write(`${f.path} ${f.next === f.text ? 'unchanged' : 'updated'}\n`);
  }
}

/** index-mappings/*.json: the Elasticsearch mappings and settings generated from the catalog. */
export function indexMappingFiles(): Record<string, string> {
  return {
    'contacts.json': `${JSON.stringify(indexDefinition('contact'), null, 2)}\n`,
    'companies.json': `${JSON.stringify(indexDefinition('company'), null, 2)}\n`,
  };
}
