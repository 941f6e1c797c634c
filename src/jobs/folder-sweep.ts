import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** How often one process sweeps one folder: a sweep reads every file's modification time, so never per request. */
export const SWEEP_EVERY_MS = 60_000;

/** How long a file of that name is kept after its last modification; null: not swept. */
export type KeepTime = (name: string) => number | null;

const lastSweep = new Map<string, { at: number; running: boolean }>();

/**
 * Deletes the files of `dir` last modified longer ago than `keep` allows for their name, so the folder stays bounded
 * (upload records and sheets, upload-run results, export files and the temp files of all three). A sweep reads every
 * file's time, which grows with the folder (thousands of uploads made each upload link take seconds when every link
 * swept), so it runs at most once per SWEEP_EVERY_MS of `now` per folder in this process, never twice at once, and
 * its callers do not wait for it. Answers the sweep (the number of files deleted), or null when it is not due. A file
 * another process deleted first is skipped.
 */
export function sweepExpired(dir: string, now: Date, keep: KeepTime): Promise<number> | null {
  const t = now.getTime();
  const last = lastSweep.get(dir);
  // A clock set back (tests, a corrected host clock) sweeps at once rather than waiting for it to catch up.
  if (last && (last.running || (t >= last.at && t - last.at < SWEEP_EVERY_MS))) return null;
  const entry = { at: t, running: true };
  lastSweep.set(dir, entry);
  return sweep(dir, t, keep).finally(() => {
    entry.running = false;
  });
}

/** Starts a sweep when one is due, in the background: a failed sweep is retried at the next due call. */
export function sweepInBackground(dir: string, now: Date, keep: KeepTime): void {
  sweepExpired(dir, now, keep)?.catch(() => undefined);
}

async function sweep(dir: string, t: number, keep: KeepTime): Promise<number> {
  let deleted = 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const keepMs = keep(name);
    if (keepMs === null) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && t - info.mtimeMs > keepMs) {
      await rm(path, { force: true });
      deleted++;
    }
  }
  return deleted;
}
