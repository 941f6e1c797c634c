import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { SETTINGS } from '../../config.js';
import { ADDED_ERROR_CODES, ERROR_CATALOG, type ErrorCode } from '../../domain/errors/index.js';
import { indexDefinition } from '../../engine/search-cluster/mappings.js';
import { OPERATIONS } from '../../operations/index.js';
import { type CommandSpec, parse } from '../args.js';

export const docsSpec: CommandSpec = {
  name: 'docs',
  usage: 'cds docs [--check] [--readme FILE]',
  summary:
    'Regenerates the README sections made from the code (settings, routes, MCP tools, error codes) between their ' +
    '<!-- generated:NAME --> markers, and index-mappings/*.json (Elasticsearch mappings from the catalog); --check ' +
    'fails when they are out of date.',
  options: { check: { type: 'boolean' }, readme: { type: 'string' } },
  help:
    'Options:\n  --readme FILE  the README to update (default README.md)\n  --check        change nothing; exit 1 ' +
    'when a section differs\n',
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

/** Replaces each generated section; returns the new text. */
export function renderReadme(text: string): string {
  let out = text;
  for (const [name, make] of Object.entries(GENERATED)) {
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    if (!re.test(out)) throw new Error(`README has no <!-- generated:${name} --> section`);
    out = out.replace(re, (_m, a: string, b: string) => `${a}${make()}\n${b}`);
  }
  return out;
}

export async function docs(argv: string[]): Promise<void> {
  const { values } = parse(docsSpec, argv);
  const file = typeof values.readme === 'string' ? values.readme : 'README.md';
  const text = readFileSync(file, 'utf8');
  const next = renderReadme(text);
  if (values.check) {
    if (next !== text) throw new Error(`${file} is out of date; run: npx cds docs`);
    for (const [name, json] of Object.entries(indexMappingFiles())) {
      const path = join(dirname(file), 'index-mappings', name);
      if (!existsSync(path) || readFileSync(path, 'utf8') !== json)
        throw new Error(`${path} is out of date; run: npx cds docs`);
    }
    process.stdout.write(`${file} is up to date\n`);
    return;
  }
  writeFileSync(file, next);
  process.stdout.write(`${file} ${next === text ? 'unchanged' : 'updated'}\n`);
  for (const [name, json] of Object.entries(indexMappingFiles())) {
    const path = join(dirname(file), 'index-mappings', name);
    const old = existsSync(path) ? readFileSync(path, 'utf8') : '';
    mkdirSync(dirname(path), { recursive: true });
    if (old !== json) writeFileSync(path, json);
    process.stdout.write(`${path} ${old === json ? 'unchanged' : 'updated'}\n`);
  }
}

/** index-mappings/*.json: the Elasticsearch mappings and settings generated from the catalog. */
export function indexMappingFiles(): Record<string, string> {
  return {
    'contacts.json': `${JSON.stringify(indexDefinition('contact'), null, 2)}\n`,
    'companies.json': `${JSON.stringify(indexDefinition('company'), null, 2)}\n`,
  };
}
