import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** How often one process sweeps one folder: a sweep reads every file's modification time, so never per request. */
export const SWEEP_EVERY_MS = 60_000;

const lastSweep = new Map<string, { at: number; running: boolean }>();

/**
 * Deletes the files of `dir` that `match` accepts and that were last modified more than `keepMs` before `now`, so
 * the folder stays bounded. A sweep reads every file's time, which grows with the folder (thousands of uploads made
 * each upload link take seconds when every link swept), so it runs at most once per SWEEP_EVERY_MS of `now` per
 * folder in this process, never twice at once, and callers on a request path do not wait for it. Answers the
 * sweep (the number of files deleted), or null when it is not due. A file another process deleted first is skipped.
 */
export function sweepExpired(
  dir: string,
  now: Date,
  keepMs: number,
  match: (name: string) => boolean = () => true,
): Promise<number> | null {
  const t = now.getTime();
  const last = lastSweep.get(dir);
  // A clock set back (tests, a corrected host clock) sweeps at once rather than waiting for it to catch up.
  if (last && (last.running || (t >= last.at && t - last.at < SWEEP_EVERY_MS))) return null;
  const entry = { at: t, running: true };
  lastSweep.set(dir, entry);
  return sweep(dir, t, keepMs, match).finally(() => {
    entry.running = false;
  });
}

async function sweep(dir: string, t: number, keepMs: number, match: (name: string) => boolean): Promise<number> {
  let deleted = 0;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!match(name)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && t - info.mtimeMs > keepMs) {
      await rm(path, { force: true });
      deleted++;
    }
  }
  return deleted;
}
