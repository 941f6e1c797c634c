import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { generateDumps } from '../loaders/generate/index.js';
import { loadRelease } from '../loaders/load/index.js';
import { pointStoreFile } from '../src/engine/duckdb/point-store/schema.js';
import { releaseFile } from '../src/engine/duckdb/release-store.js';

/**
 * Generate + load benchmark: seeded dumps into a temp data dir, then a full load; prints and records
 * generate ms, load ms, total, rows/s, peak RSS and the sizes of the release file and its point store.
 *   node dist/bench/gen-load-bench.js --contacts 1000000 [--companies N] [--seed S] [--keep]
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
  },
});
const contacts = Number(values.contacts);
const companies = Number(values.companies ?? Math.max(1, Math.round(contacts / 10)));

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);

const cpuSeconds = (since: NodeJS.CpuUsage): number => {
  const u = process.cpuUsage(since);
  return Math.round((u.user + u.system) / 1e5) / 10;
};
const loadAtStart = loadavg()[0]!;
const dir = mkdtempSync(join(tmpdir(), 'cds-gen-load-'));
try {
  const dataDir = join(dir, 'data');
  const genCpu = process.cpuUsage();
  const g = await generateDumps({ contacts, companies, seed: Number(values.seed), outDir: join(dir, 'dumps') });
  const genMs = Math.round(g.ms);
  const generateCpuS = cpuSeconds(genCpu);
  const loadCpu = process.cpuUsage();
  const phases: Record<string, number> = {};
  let phase = '';
  const t0 = Date.now();
  const load = await loadRelease({
    dataDir,
    peopleFile: g.peopleFile,
    companiesFile: g.companiesFile,
    asOf: new Date('2026-11-01T00:00:00Z'),
    onProgress: (e) => {
      if (e.phase !== phase) {
        phases[e.phase] = Date.now() - t0;
        phase = e.phase;
      }
    },
  });
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
    generate_cpu_s: generateCpuS,
    load_cpu_s: loadCpuS,
    load_rows_per_s: Math.round((load.contacts + load.companies) / (load.ms / 1000)),
    total_rows_per_s: Math.round((load.contacts + load.companies) / ((genMs + load.ms) / 1000)),
    peak_rss_mb: Math.round(peakRss / 2 ** 20),
    people_dump_mb: Math.round(statSync(g.peopleFile).size / 2 ** 20),
    release_file_mb: Math.round(statSync(releaseFile(dataDir, load.releaseId)).size / 2 ** 20),
    point_store_mb: Math.round(statSync(pointStoreFile(releaseFile(dataDir, load.releaseId))).size / 2 ** 20),
    machine: { cpus: availableParallelism(), cpu: cpus()[0]?.model ?? 'unknown', memory_gb: Math.round(totalmem() / 2 ** 30), node: process.version },
    /** 1-minute load average before and after: other processes on the machine slow the wall times. */
    load_average: { start: loadAtStart, end: loadavg()[0]! },
    at: new Date().toISOString(),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  const out = join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, `gen-load-${contacts}.json`), `${JSON.stringify(result, null, 2)}\n`);
} finally {
  clearInterval(sampler);
  if (!values.keep) rmSync(dir, { recursive: true, force: true });
  else process.stderr.write(`kept ${dir}\n`);
}
