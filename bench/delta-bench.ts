import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDumps } from '../loaders/generate/index.js';
import { cutDelta } from './lib/delta-files.js';
import { machine } from './lib/machine.js';

/**
 * Delta load benchmark: seeded dumps, a full load (`cds load`), then a delta of `--share` of the people (changed
 * titles, deletions and as many new people) and of the companies (changed sizes) applied with `cds load --delta`
 * (patching the serving release; `--rebuild` times the rebuild from every row instead).
 * Each load runs as its own process; its wall time and peak RSS (VmHWM of /proc, all threads) are recorded.
 *   node dist/bench/delta-bench.js --contacts 100000 [--share 0.01] [--seed S] [--keep] [--rebuild] [--tag T]
 *   node dist/bench/delta-bench.js --dumps DIR --data DATA [--share 0.01] [--rebuild] [--tag T]
 * The second form reuses dumps (people.jsonl, companies.jsonl in DIR) and a data dir whose serving release was
 * loaded from them (a 10 M run without generating and loading again): only the delta is timed, and the release it
 * wrote is rolled back afterwards, so the run can be repeated.
 * Writes bench/results/delta-<contacts>.json (delta-<contacts>-<T>.json with --tag).
 */
const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '100000' },
    share: { type: 'string', default: '0.01' },
    seed: { type: 'string', default: '42' },
    keep: { type: 'boolean', default: false },
    rebuild: { type: 'boolean', default: false },
    dumps: { type: 'string' },
    data: { type: 'string' },
    tag: { type: 'string' },
  },
});
if ((values.dumps === undefined) !== (values.data === undefined)) throw new Error('--dumps and --data go together');
const contacts = Number(values.contacts);
const share = Number(values.share);

/** Peak resident memory of a process so far, in MB (0 once it is gone). */
function hwmMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

interface Timed {
  ms: number;
  peak_rss_mb: number;
  /** When each phase of the progress lines first showed, ms from the start. */
  phase_start_ms: Record<string, number>;
  /** When each progress line (phase and percentage) first showed. */
  progress_ms: Record<string, number>;
  report: Record<string, unknown>;
}

/** Runs `cds <args>` to its end: wall ms, peak RSS MB, phase starts, the JSON line it printed. */
function timedCds(args: string[]): Promise<Timed> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'cds.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let peak = 0;
  const phases: Record<string, number> = {};
  const steps: Record<string, number> = {};
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => {
    process.stderr.write(b);
    for (const m of b.toString().matchAll(/^(([a-z ]+?) \d+%)/gm)) {
      phases[m[2]!] ??= Date.now() - t0;
      steps[m[1]!] ??= Date.now() - t0;
    }
  });
  const sampler = setInterval(() => (peak = Math.max(peak, hwmMb(child.pid!))), 100);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`cds ${args.join(' ')} exited ${code}`));
      resolve({
        ms: Date.now() - t0,
        peak_rss_mb: peak,
        phase_start_ms: phases,
        progress_ms: steps,
        report: JSON.parse(out.trim().split('\n').pop()!),
      });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cds-delta-bench-'));
const loadAtStart = loadavg()[0]!;
try {
  const data = values.data ?? join(dir, 'data');
  const g = values.dumps
    ? { peopleFile: join(values.dumps, 'people.jsonl'), companiesFile: join(values.dumps, 'companies.jsonl') }
    : await generateDumps({
        contacts,
        companies: Math.max(1, Math.round(contacts / 10)),
        seed: Number(values.seed),
        outDir: join(dir, 'dumps'),
        asOf: new Date('2026-11-01T00:00:00Z'),
      });
  const full = values.data
    ? null
    : await timedCds(['load', '--data', data, '--people', g.peopleFile, '--companies', g.companiesFile]);
  const delta = await cutDelta({ people: g.peopleFile, companies: g.companiesFile }, dir, share);
  const run = await timedCds([
    'load',
    '--data',
    data,
    '--delta',
    '--people',
    delta.people,
    '--companies',
    delta.companies,
    '--deletes',
    delta.deletes,
    ...(values.rebuild ? ['--rebuild'] : []),
  ]);
  // A reused data dir serves its full load again, for the next run.
  const parent = (run.report.delta as { parent: string }).parent;
  if (values.data) await timedCds(['releases', 'rollback', '--data', data, parent]);
  const result = {
    contacts: run.report.contacts,
    share,
    delta_rows: delta.counts,
    full_load: full && {
      ms: full.ms,
      peak_rss_mb: full.peak_rss_mb,
      phase_start_ms: full.phase_start_ms,
      contacts: full.report.contacts,
    },
    delta_load: {
      ms: run.ms,
      peak_rss_mb: run.peak_rss_mb,
      phase_start_ms: run.phase_start_ms,
      progress_ms: run.progress_ms,
      contacts: run.report.contacts,
      companies: run.report.companies,
      delta: run.report.delta,
    },
    delta_vs_full: full && Math.round((run.ms / full.ms) * 100) / 100,
    machine: machine(),
    load_average: { start: loadAtStart, end: loadavg()[0]! },
    at: new Date().toISOString(),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  const out = join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  const name = `delta-${run.report.contacts}${values.tag ? `-${values.tag}` : ''}.json`;
  writeFileSync(join(out, name), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`kept ${dir}\n`);
}
