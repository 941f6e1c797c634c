import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { repoRoot } from '../helpers/paths.js';

/**
 * The layering rules of docs/architecture.md, read off the source: relative imports of every .ts file under src/,
 * loaders/, bench/ and test/ form a graph that must have no circles and must respect who may import whom.
 */
const root = repoRoot();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

/** file -> files it imports (type-only imports included: a type circle is still a circle of concepts). */
function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => m[1] ?? m[2] ?? '')
      .map((spec) => relative(root, resolve(root, dirname(file), spec)).replace(/\.js$/, '.ts'));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Tarjan's strongly connected components; every component of more than one file is a circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) {
      onStack.delete(w);
      component.push(w);
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const files = ['src', 'loaders', 'bench', 'test'].flatMap((dir) => sourceFiles(join(root, dir)));
const graph = importGraph(files);
const edges = [...graph].flatMap(([from, targets]) => targets.map((to) => ({ from, to })));
const under = (path: string, folder: string): boolean => path.startsWith(`${folder}/`);

describe('the import graph', () => {
  it('reads a plausible number of files and imports (the parser sees the code)', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(files.length);
    expect(edges.every(({ to }) => graph.has(to))).toBe(true);
  });

  it('has no circles', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('keeps src/domain pure: it imports only src/domain', () => {
    const outside = edges.filter(({ from, to }) => under(from, 'src/domain') && !under(to, 'src/domain'));
    expect(outside).toEqual([]);
  });

  it('keeps the MCP face independent of the HTTP face', () => {
    expect(edges.filter(({ from, to }) => under(from, 'src/mcp') && under(to, 'src/http'))).toEqual([]);
  });

  it('names DuckDB only in the composition: the engine folder itself, services.ts, the CLI, loaders, bench and tests', () => {
    const allowed = (from: string): boolean =>
      under(from, 'src/engine/duckdb') ||
      from === 'src/services.ts' ||
      under(from, 'src/cli') ||
      under(from, 'loaders') ||
      under(from, 'bench') ||
      under(from, 'test');
    const leaks = edges.filter(({ from, to }) => under(to, 'src/engine/duckdb') && !allowed(from));
    expect(leaks).toEqual([]);
  });

  it('finds a circle when there is one (the checker itself works)', () => {
    const sample = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(circles(sample)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
  });
});
