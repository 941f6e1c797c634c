import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths.js';

/**
 * The README's quick start as a reader runs it: `cds start` (what `npm start` runs after its build) on a fresh data
 * dir, with the demo's default size and seed, then every command of the README's tour, as written, in bash with the
 * printed key in `$KEY` and the printed address in place of `http://localhost:8080`. Every answer must be 2xx and
 * `ok: true` (MCP: a result that is not an error), the search must return rows, the export must complete and download,
 * and the enrichment example must match every input: its email and phone are demo contacts.
 */
const root = repoRoot();
const README_BASE = 'http://localhost:8080';
const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
const tools = ['bash', 'curl', 'jq'].filter((t) => !has(t));
if (tools.length > 0) console.warn(`readme-quickstart: skipped, ${tools.join(', ')} not installed`);
const maybe = tools.length > 0 ? describe.skip : describe;

/** The commands of the README's tour: its ```sh blocks, continuation lines joined, comments and blank lines dropped. */
function tourCommands(readme: string): string[] {
  const start = readme.indexOf('\n## A five-minute tour');
  if (start < 0) throw new Error('README.md has no "## A five-minute tour" section');
  const next = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, next < 0 ? undefined : next);
  const commands: string[] = [];
  for (const block of section.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)) {
    let current = '';
    for (const raw of (block[1] ?? '').split('\n')) {
      const line = raw.trim();
      if (current === '' && (line === '' || line.startsWith('#'))) continue;
      if (line.endsWith('\\')) {
        current += `${line.slice(0, -1).trimEnd()} `;
        continue;
      }
      commands.push(current + line);
      current = '';
    }
  }
  return commands;
}

let dir: string;
let server: ChildProcess | undefined;
let outFile: string;
let base = '';
let key = '';
const output = () => readFileSync(outFile, 'utf8');

maybe('the README quick start, as written', () => {
  const commands = tourCommands(readFileSync(join(root, 'README.md'), 'utf8'));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cds-readme-'));
    outFile = join(dir, 'start.log');
    const fd = openSync(outFile, 'w');
    const env: NodeJS.ProcessEnv = { ...process.env, CDS_CHECK_CONTRACTS: '1' };
    for (const k of ['CDS_DEMO_CONTACTS', 'CDS_DEMO_COMPANIES', 'CDS_ENGINE', 'CDS_STATE', 'PORT', 'CDS_DATA_DIR'])
      delete env[k];
    server = spawn(
      process.execPath,
      [join(root, 'bin', 'cds.js'), 'start', '--data', join(dir, 'data'), '--port', '0'],
      { env, stdio: ['ignore', fd, fd] },
    );
    closeSync(fd);
    const deadline = Date.now() + 600_000;
    for (;;) {
      const text = output();
      const url = /listening on (http:\/\/[^\s/]+)/.exec(text)?.[1];
      const printed = /API key\s+(cds_\S+)/.exec(text)?.[1];
      if (url && printed) {
        base = url;
        key = printed;
        break;
      }
      if (server.exitCode !== null) throw new Error(`cds start exited (${server.exitCode}):\n${text.slice(-3000)}`);
      if (Date.now() > deadline) throw new Error(`cds start printed no key and URL in time:\n${text.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }, 660_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server?.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('has the tour: count, search, export (start, poll, download), enrich and MCP, against localhost:8080', () => {
    const all = commands.join('\n');
    for (const part of ['/v1/contacts/count', '/v1/contacts/search', '/v1/exports', '/v1/enrichments', '/mcp'])
      expect(all).toContain(`${README_BASE}${part}`);
    expect(commands.some((c) => /curl .*-o \S+ "\$URL"/.test(c))).toBe(true);
    expect(all).toContain('$KEY');
  });

  it('runs every command of the tour with the printed key: all 2xx and ok, the enrichment matches', async () => {
    const vars: Record<string, string> = { KEY: key };
    const ran: string[] = [];
    for (const written of commands) {
      if (/^KEY=/.test(written)) continue; // the reader pastes the printed key; the test sets it
      const command = written.split(README_BASE).join(base);
      const assignment = /^([A-Z_][A-Z0-9_]*)=\$\((.*)\)$/.exec(command);
      const run = (script: string) => {
        const r = spawnSync('bash', ['-c', script], {
          cwd: dir,
          env: { ...process.env, ...vars },
          encoding: 'utf8',
          timeout: 60_000,
        });
        if (r.status !== 0) throw new Error(`\`${written}\` exited ${r.status}: ${r.stderr}`);
        return r.stdout;
      };
      if (assignment) {
        const name = assignment[1] as string;
        const value = run(`${command}\nprintf '%s' "$${name}"`).trim();
        expect({ written, value }).toEqual({ written, value: expect.stringMatching(/^(?!null$)\S+$/) });
        vars[name] = value;
        ran.push(written);
        continue;
      }
      // Each curl also writes its status code on a last line; a status poll is repeated until the job ends.
      let status = 0;
      let body = '';
      for (let attempt = 0; attempt < 120; attempt++) {
        const out = run(`${command} -w '\\n%{http_code}'`);
        const nl = out.lastIndexOf('\n');
        status = Number(out.slice(nl + 1));
        body = out.slice(0, Math.max(nl, 0));
        const json = parseJson(body);
        const jobStatus = (json?.data as { status?: string } | undefined)?.status;
        if (jobStatus !== 'queued' && jobStatus !== 'running') break;
        await new Promise((r) => setTimeout(r, 500));
      }
      if (status < 200 || status > 299) throw new Error(`\`${written}\` answered ${status}: ${body.slice(0, 500)}`);
      const json = parseJson(body);
      if (/\s-o\s/.test(command)) {
        const file = /\s-o\s+(\S+)/.exec(command)?.[1] as string;
        const csv = readFileSync(join(dir, file), 'utf8').trim().split('\n');
        expect(csv.length).toBeGreaterThan(1);
      } else if (json && 'jsonrpc' in json) {
        const result = json.result as { isError?: boolean } | undefined;
        expect({ written, result: result !== undefined && result.isError !== true }).toEqual({ written, result: true });
      } else {
        expect({ written, ok: json?.ok }).toEqual({ written, ok: true });
      }
      if (command.includes('/v1/contacts/search') && !command.includes('"dry_run":true'))
        expect({ written, rows: ((json?.data ?? json?.contacts ?? []) as unknown[]).length > 0 }).toEqual({
          written,
          rows: true,
        });
      if (command.includes('/v1/exports/'))
        expect((json?.data as { status?: string } | undefined)?.status).toBe('completed');
      if (command.includes('/v1/enrichments')) {
        const items = (json?.data ?? []) as Array<{ input: string; matched: boolean }>;
        expect(items.length).toBeGreaterThan(0);
        for (const item of items)
          expect({ input: item.input, matched: item.matched }).toEqual({ input: item.input, matched: true });
      }
      ran.push(written);
    }
    expect(ran.length).toBeGreaterThanOrEqual(8);
    expect(existsSync(join(dir, 'contacts.csv'))).toBe(true);
  }, 300_000);
});

function parseJson(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
