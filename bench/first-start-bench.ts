import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { machine } from './lib/machine.js';

/**
 * The first `npm start` after `npm ci`, piece by piece: the start script's build check (and tsc, timed apart), then
 * `cds start` on an empty data dir up to its banner, with the wall time and the process's CPU seconds (all threads,
 * read from /proc) at each progress line (generate, companies, people, build, point store, index, the banner).
 *   node dist/bench/first-start-bench.js [--dist DIR] [--contacts N] [--tag T]
 * `--dist` is the build folder `bin/cds.js` runs (CDS_DIST, default dist); tsc is timed into that folder with its own
 * build info, so run it on a folder of your own. Writes bench/results/gen-load-<N>-first-start[-T].json. Linux only.
 */
const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: 'dist' },
    contacts: { type: 'string', default: '200000' },
    tag: { type: 'string' },
  },
});
const dist = values.dist;
const contacts = Number(values.contacts);

/** Wall seconds and CPU seconds (user + system, children included) of a command run to its end. */
function timed(cmd: string, args: string[]): { wall_s: number; cpu_s: number; status: number | null } {
  const start = Date.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', cmd, ...args], { encoding: 'utf8' });
  const [user, sys] = (r.stderr.trim().split('\n').pop() ?? '0 0').split(' ').map(Number);
  return {
    wall_s: (Date.now() - start) / 1000,
    cpu_s: Math.round(((user ?? 0) + (sys ?? 0)) * 100) / 100,
    status: r.status,
  };
}

const tsc = ['-p', 'tsconfig.json', '--outDir', dist, '--tsBuildInfoFile', join(dist, '.tsbuildinfo')];
// The start script's step, with dist/ already built by `npm ci` (prepare): nothing to compile. A first run brings the
// folder up to date (untimed), so the timed one has nothing to do.
const tscUpdate = timed('node_modules/.bin/tsc', tsc);
const tscNoop = timed('node_modules/.bin/tsc', tsc);
const freshCheck = timed('node', ['tools/dist-fresh.mjs', dist]);

const dir = mkdtempSync(join(tmpdir(), 'cds-first-start-'));
const loadAtStart = loadavg();
const steps: Array<{ at_s: number; cpu_s: number; line: string }> = [];
try {
  const t0 = Date.now();
  const child = spawn('node', ['bin/cds.js', 'start', '--data', join(dir, 'data'), '--port', '0'], {
    env: { ...process.env, CDS_DIST: dist, CDS_DEMO_CONTACTS: String(contacts) },
  });
  /** The child's CPU seconds so far, every thread (utime + stime of /proc/PID/stat, in clock ticks of 1/100 s). */
  const cpu = (): number => {
    const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  };
  const banner = new Promise<void>((resolve, reject) => {
    const onLine = (text: string): void => {
      for (const line of text.split('\n')) {
        // Each phase's first and last progress lines, and the banner.
        if (!/^(No data|Contact Data Service|Stop with)| 0% \(| 100% \(/.test(line)) continue;
        steps.push({ at_s: (Date.now() - t0) / 1000, cpu_s: cpu(), line });
        if (line.startsWith('Stop with')) resolve();
      }
    };
    child.stdout.on('data', (b: Buffer) => onLine(b.toString()));
    child.stderr.on('data', (b: Buffer) => onLine(b.toString()));
    child.on('exit', (code) => reject(new Error(`cds start exited with code ${code} before its banner`)));
  });
  await banner;
  const done = steps.at(-1)!;
  child.kill('SIGTERM');
  const result = {
    contacts,
    /** tsc bringing the folder up to date first (what the start script paid after a source changed), then with nothing to do. */
    tsc_update: tscUpdate,
    tsc_noop: tscNoop,
    dist_fresh_check: freshCheck,
    start_to_banner_s: done.at_s,
    start_cpu_s: done.cpu_s,
    steps,
    machine: machine(),
    /** Load averages (1, 5, 15 minutes) before and after: other processes on the machine slow the wall times. */
    load_average: { start: loadAtStart, end: loadavg() },
    at: new Date().toISOString(),
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  const out = join(process.cwd(), 'bench', 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, `gen-load-${contacts}-first-start${values.tag ? `-${values.tag}` : ''}.json`),
    `${JSON.stringify(result, null, 2)}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
