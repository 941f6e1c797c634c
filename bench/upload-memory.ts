/**
 * Memory per upload (issue 42 finding 3): each case uploads one file through the upload page of a fresh `cds serve`
 * (SQLite state, a small seeded release), then calls `state` ten times, and records the server's RSS before, after
 * and at peak (VmHWM), the answer sizes, and the growth as a multiple of the file's size (target: at most 5x).
 *
 *   node dist/bench/upload-memory.js
 *
 * Writes bench/results/upload-memory.json.
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
];

const rss = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

const results = [];
for (const c of cases) {
  const server = await startBenchServer(dir, { CDS_SECRET: secret });
  try {
    const link = await fetch(`${server.url}/v1/enrichment-uploads`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: '{}',
    }).then((r) => r.json() as Promise<{ data: { upload_url: string } }>);
    const u = new URL(link.data.upload_url);
    const at = (a: string) => `${server.url}${u.pathname}/${a}${u.search}`;
    await new Promise((r) => setTimeout(r, 1000));
    const before = rss(server.pid, 'VmRSS');
    const hwmBefore = rss(server.pid, 'VmHWM');
    const bytes = Buffer.byteLength(c.body);
    const up = await fetch(at('file'), { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: c.body });
    const upText = await up.text();
    const states: number[] = [];
    for (let i = 0; i < 10; i++) states.push((await (await fetch(at('state'))).text()).length);
    await new Promise((r) => setTimeout(r, 1000));
    const after = rss(server.pid, 'VmRSS');
    const peak = rss(server.pid, 'VmHWM');
    results.push({
      case: c.name,
      file_mb: round(bytes / 2 ** 20, 2),
      status: up.status,
      answer: up.status === 200 ? undefined : (JSON.parse(upText) as { error: { message: string } }).error.message,
      answer_kb: round(upText.length / 1024, 1),
      state_answer_kb: round(states[states.length - 1]! / 1024, 1),
      rss_before_mb: round(before),
      rss_after_mb: round(after),
      rss_peak_mb: round(Math.max(peak, hwmBefore)),
      growth_after_mb: round(after - before),
      growth_peak_mb: round(peak - before),
      growth_peak_x_file: round((peak - before) / (bytes / 2 ** 20), 2),
    });
  } finally {
    await server.stop();
  }
}
const summary = {
  target: 'RSS growth per upload at most 5x the file size',
  note:
    'growth_peak_x_file is the peak (VmHWM) over the RSS before the upload, divided by the file size: it includes ' +
    'the body buffer, the decoded text, the parsed rows and whatever the garbage collector had not yet returned',
  results,
  machine: machine(),
  at: new Date().toISOString(),
};
rmSync(dir, { recursive: true, force: true });
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'upload-memory.json'), `${JSON.stringify(summary, null, 2)}\n`);
process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
process.exit(0);
