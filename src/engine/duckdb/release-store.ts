import { closeSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomToken } from '../../domain/ids.js';
import { indexFile } from './bitmap-index/format.js';
import { pointStoreBaseFile, pointStoreFile } from './point-store/schema.js';

/**
 * Where releases live: `<dataDir>/releases/<releaseId>.duckdb` with its point store
 * (`<releaseId>.points.sqlite`, point-store/schema.ts) and bitmap index (`<releaseId>.index`, bitmap-index/), plus the `CURRENT` pointer naming the one
 * that serves. The pointer is replaced atomically (write tmp, fsync, rename), so a reader sees the old or
 * the new release and never a half-written pointer.
 */

/** The JSON body of `releases/CURRENT`. */
export interface CurrentPointer {
  id: string;
  /** File name inside the releases folder (relative, so a data dir can be moved). */
  file: string;
  createdAt: string;
  contacts: number;
  companies: number;
  source: Record<string, unknown>;
}

/** Release files kept on disk; older ones are deleted after a publish (an open file survives on Linux). */
export const KEEP_RELEASES = 3;

const RELEASE_ID = /^r\d{8}T\d{6}-[0-9A-Za-z]{4}$/;

export function releasesDir(dataDir: string): string {
  return join(dataDir, 'releases');
}

export function currentPath(dataDir: string): string {
  return join(releasesDir(dataDir), 'CURRENT');
}

export function releaseFile(dataDir: string, id: string): string {
  return join(releasesDir(dataDir), `${id}.duckdb`);
}

export function rejectsFile(dataDir: string, id: string): string {
  return join(releasesDir(dataDir), `${id}.rejects.jsonl`);
}

/** `r` + UTC `YYYYMMDDTHHMMSS` + `-` + 4 random chars: ids sort by creation time. */
export function newReleaseId(now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `r${stamp}-${randomToken(4)}`;
}

/**
 * A new id that sorts after every release already in `dataDir`: two loads within one second (tests, a
 * quick re-load) would otherwise share a stamp and order by their random suffix.
 */
export async function nextReleaseId(dataDir: string, now: Date = new Date()): Promise<string> {
  const newest = (await listReleases(dataDir)).pop();
  let t = Math.floor(now.getTime() / 1000) * 1000;
  if (newest) {
    const m = /^r(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})-/.exec(newest)!;
    const last = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
    if (t <= last) t = last + 1000;
  }
  return newReleaseId(new Date(t));
}

export function isReleaseId(s: string): boolean {
  return RELEASE_ID.test(s);
}

/** The pointer, or null when no release was ever published. A corrupt pointer throws (the caller reports it). */
export async function readCurrent(dataDir: string): Promise<CurrentPointer | null> {
  let text: string;
  try {
    text = await readFile(currentPath(dataDir), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  return parsePointer(text);
}

/** Synchronous read for start-up decisions (is there any release?); null when missing or unreadable. */
export function currentRelease(dataDir: string): CurrentPointer | null {
  try {
    return parsePointer(readFileSync(currentPath(dataDir), 'utf8'));
  } catch {
    return null;
  }
}

function parsePointer(text: string): CurrentPointer {
  const p = JSON.parse(text) as Partial<CurrentPointer>;
  if (typeof p.id !== 'string' || typeof p.file !== 'string')
    throw new Error(`releases/CURRENT is malformed: ${text.slice(0, 200)}`);
  return {
    id: p.id,
    file: p.file,
    createdAt: String(p.createdAt ?? ''),
    contacts: Number(p.contacts ?? 0),
    companies: Number(p.companies ?? 0),
    source: (p.source as Record<string, unknown>) ?? {},
  };
}

/** Absolute path of the release file a pointer names. */
export function pointerFile(dataDir: string, p: CurrentPointer): string {
  return join(releasesDir(dataDir), p.file);
}

/** Writes `path` durably and atomically: tmp file, fsync, rename over, fsync the folder. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${randomToken(6)}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  await rename(tmp, path);
  fsyncDir(join(path, '..'));
}

function fsyncDir(dir: string): void {
  // A rename is durable only once its folder entry is flushed; some filesystems refuse, which is harmless.
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* not supported here */
  }
}

export async function publishCurrent(dataDir: string, p: CurrentPointer): Promise<void> {
  await mkdir(releasesDir(dataDir), { recursive: true });
  await writeFileAtomic(currentPath(dataDir), `${JSON.stringify(p, null, 2)}\n`);
}

/** Release ids with a finished file on disk, oldest first. */
export async function listReleases(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(releasesDir(dataDir));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.duckdb'))
    .map((n) => n.slice(0, -'.duckdb'.length))
    .filter(isReleaseId)
    .sort();
}

/**
 * Deletes all but the newest `keep` release files (with their point stores and rejects files), never the one CURRENT
 * names.
 * A server still reading a deleted file keeps its open handle: Linux frees the blocks only on close.
 */
export async function pruneReleases(dataDir: string, keep = KEEP_RELEASES): Promise<string[]> {
  const current = await readCurrent(dataDir).catch(() => null);
  const ids = await listReleases(dataDir);
  const doomed = ids.slice(0, Math.max(0, ids.length - keep)).filter((id) => id !== current?.id);
  for (const id of doomed) {
    await rm(releaseFile(dataDir, id), { force: true });
    await rm(`${releaseFile(dataDir, id)}.wal`, { force: true });
    await rm(pointStoreFile(releaseFile(dataDir, id)), { force: true });
    await rm(`${pointStoreFile(releaseFile(dataDir, id))}.tmp`, { force: true });
    // An overlay's base: the blocks stay while a newer release links the same file.
    await rm(pointStoreBaseFile(pointStoreFile(releaseFile(dataDir, id))), { force: true });
    await rm(indexFile(releaseFile(dataDir, id)), { force: true });
    await rm(`${indexFile(releaseFile(dataDir, id))}.tmp`, { force: true });
    await rm(rejectsFile(dataDir, id), { force: true });
  }
  return doomed;
}

/** Identity of the pointer file: a rename creates a new inode, so (ino, mtime, size) changes on every publish. */
export async function currentStamp(dataDir: string): Promise<string | null> {
  try {
    const s = await stat(currentPath(dataDir));
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return null;
  }
}

/** Marks a load in progress: `<id>.loading` beside its temp files, holding `<host> <pid>` of the loading process. */
export function loadingMarker(dataDir: string, id: string): string {
  return join(releasesDir(dataDir), `${id}.loading`);
}

/** What a load writes beside `<id>` until it publishes. */
const LEFTOVER_SUFFIXES = new Set([
  'duckdb.tmp',
  'duckdb.tmp.wal',
  'patch.duckdb.tmp',
  'patch.duckdb.tmp.wal',
  'delta.index.tmp',
  'points.sqlite.tmp',
  'points.base.sqlite.tmp',
  'index.tmp',
  'staging',
  'loading',
]);

/** Whether the process a marker names is alive: on this host, a pid that answers signal 0. */
function markerAlive(text: string): boolean {
  const [host, pid] = text.trim().split(' ');
  if (host !== hostname()) return true; // another machine's load on a shared data dir: not ours to judge
  try {
    process.kill(Number(pid), 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what killed loads left behind (`<id>.duckdb.tmp`, its WAL, `<id>.points.sqlite.tmp`, `<id>.index.tmp`, the
 * staging folder,
 * the marker),
 * sparing a load whose process still runs. Returns the names removed. Called at each load and at server start.
 */
export async function sweepKilledLoads(dataDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(releasesDir(dataDir));
  } catch {
    return [];
  }
  const byId = new Map<string, string[]>();
  for (const n of names) {
    const dot = n.indexOf('.');
    const id = n.slice(0, dot);
    if (dot > 0 && isReleaseId(id) && LEFTOVER_SUFFIXES.has(n.slice(dot + 1)))
      byId.set(id, [...(byId.get(id) ?? []), n]);
  }
  const removed: string[] = [];
  for (const [id, files] of byId) {
    const marker = await readFile(loadingMarker(dataDir, id), 'utf8').catch(() => null);
    if (marker !== null && markerAlive(marker)) continue;
    for (const f of files) await rm(join(releasesDir(dataDir), f), { recursive: true, force: true });
    removed.push(...files);
  }
  return removed.sort();
}
