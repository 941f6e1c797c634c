/**
 * Export benchmark (issue 4): CSV exports timed from POST to completed over real HTTP against a warm
 * server, then the download of the file through its signed link.
 *
 *   node dist/bench/export-bench.js --contacts 1000000 [--data DIR] [--rows 50000] [--runs 3] [--full]
 *
 * Scenarios: 50,000 rows family A (default columns, empty filter), 50,000 rows with a filter, 50,000 rows
 * with a per-company cap, family B 50,000 rows (labels), and with --full one export at the family A upper
 * bound (every contact up to 1,000,000 rows). Prints the timings and writes bench/results/export-<N>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { benchDataDir, benchKey } from './lib/bench-data.js';
import { machine } from './lib/machine.js';
import { startBenchServer } from './lib/server.js';
import { percentile, round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    contacts: { type: 'string', default: '1000000' },
    data: { type: 'string' },
    rows: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '3' },
    full: { type: 'boolean', default: false },
  },
});
const root = process.cwd();
const contacts = Number(values.contacts);
const rows = Number(values.rows);
const runs = Number(values.runs);
const dir = benchDataDir(root, contacts, values.data);
const key = benchKey(root, dir);
const server = await startBenchServer(dir);

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

interface Scenario {
  name: string;
  family: 'A' | 'B';
  body: Record<string, unknown>;
  runs: number;
}

const SCENARIOS: Scenario[] = [
  { name: `A ${rows} rows, default columns, empty filter`, family: 'A', body: { filter: {}, max_rows: rows }, runs },
  {
    name: `A ${rows} rows, filter (us, with work email)`,
    family: 'A',
    body: { filter: { countries: ['us'], has_work_email: true }, max_rows: rows },
    runs,
  },
  {
    name: `A ${rows} rows, max_rows_per_company 2`,
    family: 'A',
    body: { filter: {}, max_rows: rows, max_rows_per_company: 2 },
    runs,
  },
  { name: `B ${rows} rows, labels, default columns`, family: 'B', body: { max_rows: Math.min(rows, 50_000) }, runs },
  ...(values.full
    ? [
        {
          name: 'A full export (all contacts, up to the 1,000,000 bound)',
          family: 'A' as const,
          body: { filter: {}, columns: ['*'] },
          runs: 1,
        },
      ]
    : []),
];

/** One export: POST, poll every 100 ms until it ends, then download the file. */
async function runOnce(s: Scenario) {
  const t0 = performance.now();
  const started =
    s.family === 'A'
      ? await call('POST', '/v1/exports', s.body)
      : await call('POST', '/api/v1/contacts/search/export', s.body);
  const postMs = performance.now() - t0;
  if (started.status !== 202)
    throw new Error(`${s.name}: POST answered ${started.status} ${JSON.stringify(started.body).slice(0, 300)}`);
  const id: string = s.family === 'A' ? started.body.data.export_id : started.body.export_id;
  const path = s.family === 'A' ? `/v1/exports/${id}` : `/api/v1/contacts/search/export/${id}`;
  let status: any;
  for (;;) {
    const r = await call('GET', path);
    status = s.family === 'A' ? r.body.data : r.body;
    const state = s.family === 'A' ? status.status : status.job_status;
    if (state === 'completed') break;
    if (state === 'failed' || r.status !== 200) throw new Error(`${s.name}: ${JSON.stringify(r.body).slice(0, 300)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
  const completedMs = performance.now() - t0;
  const url: string = s.family === 'A' ? status.url : status.export_url;
  const d0 = performance.now();
  const file = await fetch(url);
  const bytes = (await file.arrayBuffer()).byteLength;
  const downloadMs = performance.now() - d0;
  return { postMs, completedMs, downloadMs, rows: status.rows_exported as number, bytes };
}

const results: Array<Record<string, unknown>> = [];
try {
  await call('POST', '/v1/contacts/count', { filter: {} }); // warm the file cache
  for (const s of SCENARIOS) {
    const samples = [];
    for (let i = 0; i < s.runs; i++) samples.push(await runOnce(s));
    const total = samples.map((x) => x.completedMs);
    const row = {
      scenario: s.name,
      runs: s.runs,
      rows: samples[0]!.rows,
      bytes: samples[0]!.bytes,
      post_ms_p50: round(
        percentile(
          samples.map((x) => x.postMs),
          50,
        ),
      ),
      post_to_completed_ms_p50: round(percentile(total, 50)),
      post_to_completed_ms_max: round(Math.max(...total)),
      rows_per_second: Math.round(samples[0]!.rows / (percentile(total, 50) / 1000)),
      download_ms_p50: round(
        percentile(
          samples.map((x) => x.downloadMs),
          50,
        ),
      ),
    };
    results.push(row);
    process.stdout.write(
      `${s.name.padEnd(58)} rows ${String(row.rows).padStart(8)}  ${(row.bytes / 1e6).toFixed(1).padStart(7)} MB  ` +
        `POST ${String(row.post_ms_p50).padStart(7)} ms  to completed p50 ` +
        `${String(row.post_to_completed_ms_p50).padStart(8)} ms  (${row.rows_per_second} rows/s)  download ` +
        `${row.download_ms_p50} ms\n`,
    );
  }
} finally {
  const peak = server.peakRssMb();
  await server.stop();
  const summary = {
    contacts,
    machine: machine(),
    at: new Date().toISOString(),
    settings: {
      batch_rows: Number(process.env.CDS_EXPORT_BATCH_ROWS ?? 100_000),
      duckdb_threads: Number(process.env.CDS_DUCKDB_THREADS ?? 2),
    },
    server_peak_rss_mb: round(peak),
    scenarios: results,
  };
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', `export-${contacts}.json`), `${JSON.stringify(summary, null, 2)}\n`);
  process.stdout.write(
    `\nserver peak RSS ${summary.server_peak_rss_mb} MB; wrote bench/results/export-${contacts}.json\n`,
  );
}
