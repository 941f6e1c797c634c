import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { type CommandSpec, parse as parseCommand } from '../../src/cli/args.js';
import { cliCommands } from '../helpers/cli-commands.js';
import { repoRoot } from '../helpers/paths.js';

/**
 * The documentation keeps its word: every relative link of README.md, CONTRIBUTING.md and docs/*.md opens a file
 * that exists (and, with `#anchor`, a heading of that file, slugged as GitHub slugs them), and every `cds` command
 * line they show (`cds X`, `npx cds X`, `node bin/cds.js X`, `npm start -- …`), in code blocks and inline code, names
 * a real command and only options that command accepts.
 */
const root = repoRoot();
const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
const read = (file: string) => readFileSync(join(root, file), 'utf8');

// ---------- markdown structure ----------

interface Line {
  text: string;
  line: number;
  code: boolean;
}

/** The file's lines, each marked whether it lies inside a fenced code block (fence lines count as code). */
function lines(text: string): Line[] {
  let fence: string | null = null;
  return text.split('\n').map((text, i) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(text);
    if (m?.[1]) {
      if (fence === null) fence = m[1];
      else if (m[1].startsWith(fence)) fence = null;
      return { text, line: i + 1, code: true };
    }
    return { text, line: i + 1, code: fence !== null };
  });
}

/** GitHub's heading anchor: the rendered text lowercased, punctuation dropped, each space a hyphen. */
function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/\*\*|__|\*/g, '');
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file's headings give, with GitHub's -1, -2 … for repeats. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const l of lines(text)) {
    const m = l.code ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(l.text);
    if (!m?.[1]) continue;
    const slug = githubSlug(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) if (m[1]) out.add(m[1]);
  return out;
}

/** Link targets outside code: inline links and images `[x](target)`, and reference definitions `[x]: target`. */
function links(text: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  for (const l of lines(text)) {
    if (l.code) continue;
    const prose = l.text.replace(/`[^`]*`/g, '``');
    for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      if (m[1]) out.push({ target: m[1], line: l.line });
    const ref = /^\s*\[[^\]]+\]:\s*(\S+)/.exec(prose);
    if (ref?.[1]) out.push({ target: ref[1], line: l.line });
  }
  return out;
}

/** Why a link of `file` does not open what it names, or null. */
function linkProblem(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null; // http(s), mailto, …
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  if (pathPart.startsWith('/')) return `${target}: an absolute path (use a path relative to ${file})`;
  const abs = pathPart === '' ? join(root, file) : join(dirname(join(root, file)), pathPart);
  const rel = relative(root, abs);
  if (rel.startsWith('..')) return `${target}: points outside the repository`;
  if (!existsSync(abs)) return `${target}: ${rel} does not exist`;
  if (anchor === null || anchor === '') return null;
  if (statSync(abs).isDirectory()) return `${target}: an anchor on a folder`;
  if (!abs.endsWith('.md')) return /^L\d+(-L\d+)?$/.test(anchor) ? null : `${target}: an anchor in a non-markdown file`;
  const known = anchors(readFileSync(abs, 'utf8'));
  return known.has(anchor)
    ? null
    : `${target}: ${rel} has no heading #${anchor} (it has: ${[...known].map((a) => `#${a}`).join(' ')})`;
}

// ---------- cds command lines ----------

interface Invocation {
  file: string;
  line: number;
  text: string;
  command: string;
  options: string[];
}

const INVOKE = /(?:^|[\s(`'"=$])(?:(?:npx\s+)?cds|node\s+(?:\.\/)?bin\/cds\.js)\s+([a-z][a-z-]*)\b(.*)$/;

/** `cds` invocations in one piece of shell text (a code line, continuation lines joined, or an inline code span). */
function invocationsIn(piece: string): Array<{ command: string; options: string[]; text: string }> {
  const out: Array<{ command: string; options: string[]; text: string }> = [];
  const withoutComment = piece.replace(/(^|\s)#.*$/, '');
  // One shell command at a time: split at ;, &&, ||, a spaced pipe, $( and backticks.
  for (const segment of withoutComment.split(/;|&&|\|\||\s\|\s|\$\(|`/)) {
    const npmStart = /\bnpm\s+start\s+--\s+(.*)$/.exec(segment);
    if (npmStart) {
      out.push({ command: 'start', options: flags(npmStart[1] ?? ''), text: segment.trim() });
      continue;
    }
    const m = INVOKE.exec(segment);
    if (m?.[1]) out.push({ command: m[1], options: flags(m[2] ?? ''), text: segment.trim() });
  }
  return out;
}

const flags = (rest: string) => [...rest.matchAll(/(?:^|[\s[(|])--([a-z][a-z0-9-]*)/g)].map((m) => m[1] ?? '');

function invocations(file: string): Invocation[] {
  const out: Invocation[] = [];
  const all = lines(read(file));
  for (let i = 0; i < all.length; i++) {
    const l = all[i] as Line;
    if (l.code) {
      let text = l.text;
      let j = i;
      while (text.endsWith('\\') && all[j + 1]?.code) {
        j += 1;
        text = `${text.slice(0, -1)} ${(all[j] as Line).text}`;
      }
      for (const inv of invocationsIn(text)) out.push({ file, line: l.line, ...inv });
      i = j;
    } else {
      for (const span of l.text.matchAll(/`([^`]+)`/g))
        for (const inv of invocationsIn(span[1] ?? '')) out.push({ file, line: l.line, ...inv });
    }
  }
  return out;
}

// ---------- the tests ----------

describe('documentation links', () => {
  it('covers the README, CONTRIBUTING.md and every guide in docs/', () => {
    expect(DOCS).toEqual(expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/api.md']));
  });

  it.each(DOCS)('every relative link of %s opens an existing file and heading', (file) => {
    const problems = links(read(file))
      .map((l) => ({ l, problem: linkProblem(file, l.target) }))
      .filter((x) => x.problem !== null)
      .map((x) => `${file}:${x.l.line}: ${x.problem}`);
    expect(problems).toEqual([]);
  });

  it('slugs headings as GitHub does', () => {
    expect(githubSlug('Decisions where the spec says "not shown"')).toBe('decisions-where-the-spec-says-not-shown');
    expect(githubSlug('CSV enrichment uploads (MCP only)')).toBe('csv-enrichment-uploads-mcp-only');
    expect(githubSlug('The `cds` command')).toBe('the-cds-command');
    expect(githubSlug('Search cluster: OpenSearch or Elasticsearch (`CDS_ENGINE=opensearch|elasticsearch`)')).toBe(
      'search-cluster-opensearch-or-elasticsearch-cds_engineopensearchelasticsearch',
    );
    expect(githubSlug('Performance (measured here: 2 cores, 24 GB)')).toBe('performance-measured-here-2-cores-24-gb');
    expect([...anchors('# A\n## A\n```\n# not a heading\n```\n## A')]).toEqual(['a', 'a-1', 'a-2']);
  });
});

describe('documented cds commands', () => {
  let commands: Map<string, CommandSpec>;
  beforeAll(async () => {
    commands = cliCommands();
  });

  it('finds the command lines it checks', () => {
    const found = DOCS.flatMap(invocations);
    expect(found.length).toBeGreaterThan(20);
    expect(invocationsIn('x || cds releases list --data /srv/cds')).toEqual([
      { command: 'releases', options: ['data'], text: 'cds releases list --data /srv/cds' },
    ]);
    expect(invocationsIn('node bin/cds.js load --data D --full-cards  # then bench --all-columns')[0]?.options).toEqual(
      ['data', 'full-cards'],
    );
  });

  it.each(DOCS)('every cds command %s names is a real command with options it accepts', (file) => {
    const problems: string[] = [];
    for (const inv of invocations(file)) {
      const spec = commands.get(inv.command);
      if (!spec) {
        problems.push(`${inv.file}:${inv.line}: \`${inv.text}\`: cds has no command ${inv.command}`);
        continue;
      }
      const accepted = new Set([...Object.keys(spec.options), 'help']);
      const unknown = inv.options.filter((o) => !accepted.has(o));
      for (const o of unknown)
        problems.push(`${inv.file}:${inv.line}: \`${inv.text}\`: cds ${inv.command} has no option --${o}`);
      // A line written out in full (no placeholders or alternatives) must parse exactly as the CLI parses it.
      if (unknown.length === 0 && !/[[\]|…<>]|\b[A-Z]{2,}\b/.test(inv.text)) {
        const argv = inv.text.split(/\s+/).slice(inv.text.startsWith('node ') || inv.text.startsWith('npx ') ? 3 : 2);
        try {
          if (!inv.text.startsWith('npm ')) parseCommand(spec, argv);
        } catch (e) {
          problems.push(`${inv.file}:${inv.line}: \`${inv.text}\`: ${(e as Error).message.split('\n')[0]}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
