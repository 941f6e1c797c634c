import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SWEEP_EVERY_MS, sweepExpired } from '../../src/jobs/folder-sweep.js';

/**
 * The sweep of expired upload and result files (real files in a temp folder): it deletes only what is past its keep
 * time and matched, runs at most once per SWEEP_EVERY_MS per folder and never twice at once, so a busy upload folder
 * is not read whole on every upload link (the soak's upload links took 1.7 s p50 with 3,300 uploads kept).
 */
const DAY = 24 * 3600_000;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cds-sweep-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, ageMs: number, now: Date): void {
  const path = join(dir, name);
  writeFileSync(path, 'x');
  const t = new Date(now.getTime() - ageMs);
  utimesSync(path, t, t);
}

it('deletes matched files past the keep time, and runs again only once its interval has passed', async () => {
  const now = new Date();
  file('old.csv', 8 * DAY, now);
  file('old.tmp', 8 * DAY, now);
  file('old.keep', 8 * DAY, now);
  file('young.csv', DAY, now);
  const keep = (n: string) => (n.endsWith('.keep') ? null : 7 * DAY);
  const first = sweepExpired(dir, now, keep);
  expect(first).not.toBeNull();
  expect(await first).toBe(2);
  expect(readdirSync(dir).sort()).toEqual(['old.keep', 'young.csv']);

  // Within the interval: not due, nothing read.
  file('later.csv', 8 * DAY, now);
  expect(sweepExpired(dir, new Date(now.getTime() + SWEEP_EVERY_MS - 1), keep)).toBeNull();
  expect(readdirSync(dir)).toContain('later.csv');
  // Past it: due again.
  expect(await sweepExpired(dir, new Date(now.getTime() + SWEEP_EVERY_MS), keep)).toBe(1);
  expect(readdirSync(dir).sort()).toEqual(['old.keep', 'young.csv']);
});

it('never runs twice at once for one folder; another folder has its own turn', async () => {
  const now = new Date(Date.now() + 10 * DAY); // a later clock than the test above: due at once
  for (let i = 0; i < 200; i++) file(`f${i}.csv`, 0, new Date(now.getTime() - 8 * DAY));
  const running = sweepExpired(dir, now, () => 7 * DAY);
  expect(running).not.toBeNull();
  // Still running: a second call, even past the interval, is not a second sweep.
  expect(sweepExpired(dir, new Date(now.getTime() + SWEEP_EVERY_MS * 2), () => 7 * DAY)).toBeNull();
  expect(await running).toBe(200);
  const other = mkdtempSync(join(tmpdir(), 'cds-sweep-other-'));
  try {
    expect(await sweepExpired(other, now, () => 7 * DAY)).toBe(0);
  } finally {
    rmSync(other, { recursive: true, force: true });
  }
});

it('a folder that does not exist sweeps nothing', async () => {
  expect(await sweepExpired(join(dir, 'missing'), new Date(), () => 7 * DAY)).toBe(0);
});
