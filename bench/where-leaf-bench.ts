/**
 * Where-leaf paths: every leaf shape the catalog allows on a contact (each public column under each operator its kind
 * takes, with values drawn from the release), plus the shapes only filter keys make (whole-word title phrases of one
 * to five words) and substrings of several lengths of the text columns with trigram postings. For each it names the
 * path the DuckDB engine takes — `index` (postings alone), `candidates + check` (postings narrow, the release's
 * columns verify), or `scan` — and times a count and a first page of 100 ids in the engine itself (no HTTP, the
 * result cache off, so every call plans and answers again).
 *
 *   node dist/bench/where-leaf-bench.js --contacts 1000000 [--data DIR] [--runs 5] [--scan-runs N] [--tag T] [--only a,b]
 * (--scan-runs: the runs of the shapes the engine scans, default --runs; 0 leaves them untimed, path only, for a
 * release where every scan takes seconds)
 *
 * Writes bench/results/where-leaf-<size>[-T].json; docs/performance.md's where-leaf table is made from it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { publicColumns } from '../src/domain/catalog/index.js';
import type { IRNode, Leaf, Scalar } from '../src/domain/query/ir.js';
import { opsOf } from '../src/domain/query/where-operators.js';
import { indexFile } from '../src/engine/duckdb/bitmap-index/format.js';
import { IndexCannotAnswer, planBitset, type Verify } from '../src/engine/duckdb/bitmap-index/plan.js';
import { BitmapIndex } from '../src/engine/duckdb/bitmap-index/reader.js';
import { openDuckDBEngine } from '../src/engine/duckdb/duckdb-engine.js';
import { VERIFY_MAX } from '../src/engine/duckdb/indexed-query.js';
import { currentRelease, releaseFile } from '../src/engine/duckdb/release-store.js';
import { benchDataDir } from './lib/bench-data.js';
import { machine } from './lib/machine.js';
import { percentile, round, timed } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    runs: { type: 'string', default: '5' },
    /** Runs of the shapes the engine scans (default --runs); 0 records their path and matches without timing them. */
    'scan-runs': { type: 'string' },
    tag: { type: 'string' },
    /** Only the shapes whose name contains one of these (comma-separated), e.g. --only "phrase,contains". */
    only: { type: 'string' },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const runs = Number(values.runs);
const scanRuns = values['scan-runs'] === undefined ? runs : Number(values['scan-runs']);
const dir = benchDataDir(root, contacts, values.data);
const cur = currentRelease(dir);
if (!cur) throw new Error(`no release in ${dir}`);
const file = releaseFile(dir, cur.id);
const log = (s: string): boolean => process.stdout.write(s);

interface Shape {
  shape: string;
  leaf: Leaf;
}

/** Values drawn from the release: each column's most frequent values, median, and a frequent text value. */
async function shapes(): Promise<Shape[]> {
  const db = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await db.connect();
  const one = async (sql: string): Promise<unknown[]> =>
    (await conn.runAndReadAll(sql)).getRows().map((r) => {
      const v = r[0];
      return typeof v === 'bigint' ? Number(v) : v;
    });
  const out: Shape[] = [];
  const add = (shape: string, leaf: Leaf): void => {
    out.push({ shape, leaf });
  };
  for (const col of publicColumns('contact')) {
    const c = `"${col.name}"`;
    const list = col.storage === 'VARCHAR[]';
    const json = col.storage === 'JSON';
    const src = list ? `(SELECT unnest(${c}) AS v FROM contacts)` : `(SELECT ${c} AS v FROM contacts)`;
    const top = json
      ? []
      : await one(`SELECT v FROM ${src} WHERE v IS NOT NULL GROUP BY v ORDER BY count(*) DESC, v LIMIT 3`);
    const median =
      list || json
        ? undefined
        : (
            await one(
              `SELECT v FROM ${src} WHERE v IS NOT NULL ORDER BY v LIMIT 1 OFFSET (SELECT count(v) / 2 FROM ${src})`,
            )
          )[0];
    const kind = list ? 'list' : json ? 'record' : col.kind === 'date' || col.type === 'month' ? 'date' : col.kind;
    for (const op of opsOf(col)) {
      const name = `${col.name} (${col.type === 'month' ? 'month' : kind}) ${op}`;
      if (op === 'exists') {
        add(`${name} true`, { field: col.name, op, value: true });
        add(`${name} false`, { field: col.name, op, value: false });
      } else if (op === 'in' || op === 'not_in') {
        if (top.length) add(name, { field: col.name, op, value: top as Scalar[] });
      } else if (op === 'eq' || op === 'neq') {
        if (col.storage === 'BOOLEAN') add(name, { field: col.name, op, value: true });
        else if (top.length) add(name, { field: col.name, op, value: top[0] as Scalar });
      } else if (op === 'contains') {
        const text = json
          ? String((await one(`SELECT ${c}::VARCHAR FROM contacts WHERE ${c} IS NOT NULL LIMIT 1`))[0] ?? '')
          : String(top[0] ?? '');
        const word = text.split(/[^A-Za-z0-9]+/).find((w) => w.length >= 4) ?? text;
        add(`${name} (4 chars)`, { field: col.name, op, value: word.slice(0, 4) });
      } else if (median !== undefined && median !== null) {
        add(name, { field: col.name, op, value: median as Scalar });
      }
    }
    if (col.substrings) {
      // Substrings of the most frequent value: a trigram, then longer needles (candidates the columns verify).
      const text = String(top[0] ?? '');
      for (const len of [3, 6]) {
        const needle = text.slice(1, 1 + len).toLowerCase();
        if (needle.length === len)
          add(`${col.name} (text) contains (${len} chars)`, { field: col.name, op: 'contains', value: needle });
      }
    }
  }
  // Whole-word title phrases (title_query): the most frequent title's first one to five words.
  const titles = (await one(
    `SELECT title FROM contacts WHERE len(string_split(trim(title), ' ')) >= 5 GROUP BY title ORDER BY count(*) DESC LIMIT 1`,
  )) as string[];
  const words = String(titles[0] ?? '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  for (let n = 1; n <= Math.min(5, words.length); n++)
    add(`title_query, ${n}-word phrase`, { field: 'title', op: 'words', value: words.slice(0, n).join(' ') });
  conn.closeSync();
  return out;
}

const only = values.only?.split(',').filter(Boolean);
const list = (await shapes()).filter((s) => !only || only.some((o) => s.shape.includes(o)));
const opened = BitmapIndex.open(indexFile(file), cur);
if (!opened.index) throw new Error(opened.reason);
const ix = opened.index.entity('contact');
const engine = await openDuckDBEngine({ dataDir: dir, poolSize: 2, threads: 2, resultCacheMb: 0, index: true });
const rows: Array<Record<string, unknown>> = [];
try {
  for (const { shape, leaf } of list) {
    // The path: a plan, whether it verifies candidates, and how many (the engine verifies at most VERIFY_MAX).
    let candidates = -1;
    const verify: Verify = async (_l, c) => {
      let n = 0;
      for (const w of c) n += popcount(w);
      candidates = Math.max(candidates, n);
      return c;
    };
    const plan = planBitset({ ix, entity: 'contact', verify }, leaf as IRNode);
    if (plan)
      await plan().catch((e) => {
        if (!(e instanceof IndexCannotAnswer)) throw e;
      });
    const path =
      plan === null
        ? 'scan'
        : candidates < 0
          ? 'index'
          : candidates > VERIFY_MAX
            ? `scan (${candidates} candidates > ${VERIFY_MAX})`
            : 'candidates + check';
    const count: number[] = [];
    const first: number[] = [];
    let matches: number | null = null;
    const timedRuns = path === 'index' || path === 'candidates + check' ? runs : scanRuns;
    for (let i = 0; i < timedRuns; i++) {
      const c = await timed(() => engine.query('contact', leaf, { countBudgetMs: 60_000 }));
      count.push(c.ms);
      matches = c.value.count;
      const page = { columns: ['id'], afterSortKey: null, limit: 100, budgetMs: 60_000 };
      first.push((await timed(() => engine.query('contact', leaf, { page }))).ms);
    }
    const row = {
      shape,
      leaf,
      path,
      candidates: candidates < 0 ? null : candidates,
      matches,
      count_p50_ms: count.length ? round(percentile(count, 50), 2) : null,
      first_page_p50_ms: first.length ? round(percentile(first, 50), 2) : null,
    };
    rows.push(row);
    log(
      `${shape.padEnd(44)} ${path.padEnd(20)} ${String(matches).padStart(8)}  count ${String(row.count_p50_ms).padStart(8)} ms  first ${String(row.first_page_p50_ms).padStart(8)} ms\n`,
    );
  }
} finally {
  await engine.close();
  opened.index.close();
}

function popcount(w: number): number {
  let x = w >>> 0;
  let n = 0;
  while (x) {
    x &= x - 1;
    n++;
  }
  return n;
}

const summary = {
  contacts,
  runs,
  scan_runs: scanRuns,
  tag: values.tag ?? null,
  release: cur.id,
  machine: machine(),
  load_average: loadavg().map((l) => round(l, 2)),
  at: new Date().toISOString(),
  verify_max: VERIFY_MAX,
  how: 'engine.query in-process, result cache off, index posting cache warm; p50 of runs',
  shapes: rows,
};
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const out = join(root, 'bench', 'results', `where-leaf-${contacts}${values.tag ? `-${values.tag}` : ''}.json`);
writeFileSync(out, `${JSON.stringify(summary, null, 2)}\n`);
log(`\nwrote ${out}\n`);
