import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDumps } from '../loaders/generate/index.js';
import { loadRelease } from '../loaders/load/index.js';
import { indexFile } from '../src/engine/duckdb/bitmap-index/format.js';
import { pointStoreFile } from '../src/engine/duckdb/point-store/schema.js';
import { releaseFile } from '../src/engine/duckdb/release-store.js';
import { machine } from './lib/machine.js';

/**
 * Generate + load benchmark: seeded dumps into a temp data dir, then a full load; prints and records
 * generate ms, load ms, total, rows/s, peak RSS and the sizes of the release file, its point store and its index.
 *   node dist/bench/gen-load-bench.js --contacts 1000000 [--companies N] [--seed S] [--keep] [--tag T]
 *   node dist/bench/gen-load-bench.js --dumps DIR [--tag T]     load only: people.jsonl + companies.jsonl in DIR
 * Writes bench/results/gen-load-<contacts>.json (gen-load-<contacts>-<T>.json with --tag).
 * Peak RSS covers the main thread and the loader's worker threads (one process). CPU seconds (all
 * threads, DuckDB's included) are recorded too: on a shared machine wall time depends on the neighbours,
 * CPU time much less.
 */
const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    companies: { type: 'string' },
    seed: { type: 'string', default: '42' },
    keep: { type: 'boolean', default: false },
    dumps: { type: 'string' },
    tag: { type: 'string' },
  },
});
const contacts = Number(values.contacts);
const companies = Number(values.companies ?? Math.max(1, Math.round(contacts / 10)));

let peakRss = 0;
/** The peak RSS of the phase running now, recorded per phase when the next one starts. */
let phasePeak = 0;
const sampler = setInterval(() => {
  const rss = process.memoryUsage.rss();
  peakRss = Math.max(peakRss, rss);
  phasePeak = Math.max(phasePeak, rss);
}, 100);

const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return Math.round((u.user + u.system) / 1e5) / 10;
};
const loadAtStart = loadavg()[0]!;
const dir = mkdtempSync(join(tmpdir(), 'cds-gen-load-'));
try {
  const dataDir = join(dir, 'data');
  const genCpu = process.cpuUsage();
  // With --dumps the dumps exist already (a 10 M load without generating again): generation is not timed.
  const g = values.dumps
    ? { peopleFile: join(values.dumps, 'people.jsonl'), companiesFile: join(values.dumps, 'companies.jsonl'), ms: 0 }
    : await generateDumps({ contacts, companies, seed: Number(values.seed), outDir: join(dir, 'dumps') });
  const genMs = Math.round(g.ms);
  const generateCpuS = cpuSeconds(genCpu);
  const loadCpu = process.cpuUsage();
  const phases: Record<string, number> = {};
  const phaseCpu: Record<string, number> = {};
  const phaseRss: Record<string, number> = {};
  let phase = '';
  let phaseCpuAt = process.cpuUsage();
  const endPhase = (): void => {
    if (!phase) return;
    phaseCpu[phase] = cpuSeconds(phaseCpuAt);
    phaseRss[phase] = Math.round(Math.max(phasePeak, process.memoryUsage.rss()) / 2 ** 20);
  };
  const t0 = Date.now();
  const load = await loadRelease({
    dataDir,
    peopleFile: g.peopleFile,
    companiesFile: g.companiesFile,
    asOf: new Date('2026-11-01T00:00:00Z'),
    onProgress: (e) => {
      if (e.phase !== phase) {
        endPhase();
        phases[e.phase] = Date.now() - t0;
        phase = e.phase;
        phaseCpuAt = process.cpuUsage();
        phasePeak = 0;
      }
    },
  });
  endPhase();
  const loadCpuS = cpuSeconds(loadCpu);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  const result = {
    contacts: load.contacts,
    companies: load.companies,
    skipped: load.skipped,
    generate_ms: genMs,
    load_ms: load.ms,
    total_ms: genMs + load.ms,
    load_phase_start_ms: phases,
    /** CPU seconds (all threads) and peak RSS (MB) of each phase. */
    load_phase_cpu_s: phaseCpu,
    load_phase_peak_rss_mb: phaseRss,
    generate_cpu_s: generateCpuS,
    load_cpu_s: loadCpuS,
    load_rows_per_s: Math.round((load.contacts + load.companies) / (load.ms / 1000)),
    total_rows_per_s: Math.round((load.contacts + load.companies) / ((genMs + load.ms) / 1000)),
    peak_rss_mb: Math.round(peakRss / 2 ** 20),
    people_dump_mb: Math.round(statSync(g.peopleFile).size / 2 ** 20),
    release_file_mb: Math.round(statSync(releaseFile(dataDir, load.releaseId)).size / 2 ** 20),
    point_store_mb: Math.round(statSync(pointStoreFile(releaseFile(dataDir, load.releaseId))).size / 2 ** 20),
    index_mb: Math.round(statSync(indexFile(releaseFile(dataDir, load.releaseId))).size / 2 ** 20),
    ...(values.dumps ? { dumps: values.dumps } : {}),
    machine: machine(),
    /** 1-minute load average before and after: other processes on the machine slow the wall times. */
    load_average: { start: loadAtStart, end: loadavg()[0]! },
    at: new Date().toISOString(),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  const out = join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, `gen-load-${load.contacts}${values.tag ? `-${values.tag}` : ''}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
} finally {
  clearInterval(sampler);
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`kept ${dir}\n`);
}
