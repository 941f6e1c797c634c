/**
 * Memory per upload (issue 42 finding 3): each case uploads one file through the upload page of a fresh `cds serve`
 * (SQLite state, a small seeded release), then calls `state` ten times, and records the server's RSS before, after
 * and at peak (VmHWM, reset just before the upload), the answer sizes, and the growth as a multiple of the file's
 * size (target: at most 5x); then the same again on that server (`second_upload_*`: an upload once the process has
 * served one). A 10-row case shows the fixed cost of an upload.
 *
 *   CDS_DIST=dist node dist/bench/upload-memory.js [--runs 3]   (CDS_DIST: the build the server runs)
 *
 * Writes bench/results/upload-memory.json (`--out NAME`: bench/results/NAME.json, e.g. for a build before a change).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRelease } from '../loaders/seed.js';
import { ensureSecret, loadConfig } from '../src/config.js';
import { openSqliteStore } from '../src/state/sqlite/index.js';
import { machine } from './lib/machine.js';
import { startBenchServer } from './lib/server.js';
import { round } from './lib/stats.js';

const root = process.cwd();
const dir = mkdtempSync(join(tmpdir(), 'cds-upload-mem-'));
await seedRelease({ dataDir: dir, contacts: 200, companies: 40, seed: 3, asOf: new Date('2026-11-01T00:00:00Z') });
const secret = ensureSecret(loadConfig(['--data', dir]));
const store = openSqliteStore({ file: join(dir, 'state.sqlite'), keyPepper: secret, dataDir: dir });
const now = new Date();
const account = await store.createAccount({ name: 'mem', plan: 'pro', billingDay: null, now });
const key = (await store.createKey(account.id, { name: 'mem', now })).secret;
await store.close();

const people = (rows: number, note: number) =>
  `Email,First name,Last name,Company,Notes\r\n${Array.from(
    { length: rows },
    (_, i) => `person${i}@example${i % 997}.com,First${i},Last${i},Company ${i % 313},${'n'.repeat(note)}`,
  ).join('\r\n')}\r\n`;
const cases: Array<{ name: string; body: string }> = [
  { name: '14 MB one-cell header (refused: header cap)', body: `${'x'.repeat(14 * 2 ** 20)}\r\nann@example.com\r\n` },
  {
    name: '1.45 MB wide in one row (500 columns) then narrow rows',
    body: `Email,Name\r\n${','.repeat(498)}\r\n${Array.from({ length: 48_000 }, (_, i) => `p${i}@ex.com,P${i}`).join('\r\n')}\r\n`,
  },
  { name: '15 MB sheet: 50,000 people with 200-character notes', body: people(50_000, 220) },
  { name: '4 MB sheet: 40,000 people', body: people(40_000, 20) },
  // What any upload costs whatever its size (its multiple of the file means nothing).
  { name: '1 KB sheet: 10 people (the fixed cost of an upload)', body: people(10, 20) },
];

const rss = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Fresh servers per case; each figure is the median of the runs (RSS moves by a few MB from run to run). */
const args = process.argv.slice(2).join(' ');
const RUNS = Number(/--runs[= ](\d+)/.exec(args)?.[1] ?? 3);
const OUT = /--out[= ]([\w.-]+)/.exec(args)?.[1] ?? 'upload-memory';

/** One upload of `body` and ten `state` calls, with the server's RSS before, after and at peak. */
async function measure(pid: number, at: (a: string) => string, body: string) {
  await new Promise((r) => setTimeout(r, 1000));
  const before = rss(pid, 'VmRSS');
  // The peak is the upload's own: VmHWM is reset to the RSS now (Linux clear_refs 5), so a higher peak left by the
  // server's start (or by the first upload) does not count as this upload's growth.
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const up = await fetch(at('file'), { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body });
  const upText = await up.text();
  let stateText = '';
  for (let i = 0; i < 10; i++) stateText = await (await fetch(at('state'))).text();
  await new Promise((r) => setTimeout(r, 1000));
  return { up, upText, stateText, before, after: rss(pid, 'VmRSS'), peak: rss(pid, 'VmHWM') };
}

/** A case on a fresh server: its first upload, then the same file again (once the process has served one). */
async function runCase(body: string) {
  const server = await startBenchServer(dir, { CDS_SECRET: secret });
  try {
    const link = await fetch(`${server.url}/v1/enrichment-uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: '{}',
    }).then((r) => r.json() as Promise<{ data: { upload_url: string } }>);
    const u = new URL(link.data.upload_url);
    const at = (a: string) => `${server.url}${u.pathname}/${a}${u.search}`;
    const first = await measure(server.pid, at, body);
    const second = await measure(server.pid, at, body);
    return { first, second };
  } finally {
    await server.stop();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const results = [];
for (const c of cases) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runCase(c.body));
  const { up, upText, stateText } = runs[0]!.first;
  const mb = Buffer.byteLength(c.body) / 2 ** 20;
  const growth = runs.map((r) => r.first.peak - r.first.before);
  const second = runs.map((r) => r.second.peak - r.second.before);
  results.push({
    case: c.name,
    file_mb: round(mb, 3),
    status: up.status,
    answer: up.status === 200 ? undefined : (JSON.parse(upText) as { error: { message: string } }).error.message,
    answer_kb: round(upText.length / 1024, 1),
    state_answer_kb: round(stateText.length / 1024, 1),
    rss_before_mb: round(median(runs.map((r) => r.first.before))),
    growth_after_mb: round(median(runs.map((r) => r.first.after - r.first.before))),
    growth_peak_mb: round(median(growth)),
    growth_peak_x_file: round(median(growth) / mb, 2),
    growth_peak_mb_runs: growth.map((g) => round(g)),
    second_upload_growth_peak_mb: round(median(second)),
    second_upload_growth_peak_x_file: round(median(second) / mb, 2),
    second_upload_growth_peak_mb_runs: second.map((g) => round(g)),
  });
}
const summary = {
  target: 'RSS growth per upload at most 5x the file size',
  note:
    'growth_peak_x_file is the peak (VmHWM, reset just before the upload) over the RSS before it, divided by the ' +
    'file size: it includes ' +
    'the body buffer, the decoded text, the parsed rows and whatever the garbage collector had not yet returned; ' +
    'second_upload_* is the same upload made again on the same server; each figure is the median of `runs` fresh ' +
    'servers (the *_runs lists give each)',
  runs: RUNS,
  // The build the servers ran (CDS_DIST) and the V8 options they ran with (NODE_OPTIONS), when not the defaults.
  server_build: process.env.CDS_DIST || 'dist',
  node_options: process.env.NODE_OPTIONS || null,
  results,
  machine: machine(),
  at: new Date().toISOString(),
};
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', `${OUT}.json`), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exit(0);
