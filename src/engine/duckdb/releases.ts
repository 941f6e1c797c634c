import { rename, rm, stat } from 'node:fs/promises';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildBitmapIndex } from './bitmap-index/build.js';
import { indexFile } from './bitmap-index/format.js';
import { pointStoreReadable } from './point-store/point-store.js';
import { pointStoreBaseFile, pointStoreFile } from './point-store/schema.js';
import { type CurrentPointer, listReleases, publishCurrent, readCurrent, releaseFile } from './release-store.js';
import { loadSettings, setBuildMemoryLimit } from './release-writer/writer.js';
import { META_TABLE, TABLE } from './schema.js';

/** One release on disk, as `cds releases list` prints it. */
export interface ReleaseListing {
  id: string;
  created_at: string | null;
  contacts: number | null;
  companies: number | null;
  /** `delta`: built by `cds load --delta` from its parent release (releases of earlier versions are full). */
  kind: 'full' | 'delta';
  parent: string | null;
  source: Record<string, unknown> | null;
  /**
   * Release file, its WAL, its point store and its index, in bytes: what pruning it frees. A full load's point store,
   * which deltas read as their base through hard links, counts here only while no other release links it, and in
   * `shared_bytes` while one does.
   */
  bytes: number;
  shared_bytes: number;
  /** Whether the release has a readable point store (a delta's overlay with its base). */
  point_store: boolean;
  /** Whether the release has its bitmap index (bitmap-index/). */
  index: boolean;
  serving: boolean;
}

const sizeOf = (file: string): Promise<number> =>
  stat(file).then(
    (s) => s.size,
    () => 0,
  );

/** A file's size split into what only this name holds and what other hard links share. */
const linkedSize = (file: string): Promise<{ own: number; shared: number }> =>
  stat(file).then(
    (s) => (s.nlink > 1 ? { own: 0, shared: s.size } : { own: s.size, shared: 0 }),
    () => ({ own: 0, shared: 0 }),
  );

/** The meta table of a release file, read through its own READ_ONLY instance. */
async function readMeta(file: string): Promise<Record<string, string>> {
  const instance = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY', threads: '1' });
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll(`SELECT key, value FROM ${META_TABLE}`);
    return Object.fromEntries(reader.getRowObjects().map((r) => [String(r.key), String(r.value)]));
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Every release on disk, oldest first, with what it holds and which one serves. */
export async function describeReleases(dataDir: string): Promise<ReleaseListing[]> {
  const current = await readCurrent(dataDir).catch(() => null);
  const out: ReleaseListing[] = [];
  for (const id of await listReleases(dataDir)) {
    const file = releaseFile(dataDir, id);
    const meta = await readMeta(file).catch(() => ({}) as Record<string, string>);
    const num = (k: string) => (meta[k] === undefined ? null : Number(meta[k]));
    const points = pointStoreFile(file);
    const [store, base] = await Promise.all([linkedSize(points), linkedSize(pointStoreBaseFile(points))]);
    const index = indexFile(file);
    const source = meta.source ? (JSON.parse(meta.source) as Record<string, unknown>) : null;
    out.push({
      id,
      created_at: meta.created_at ?? null,
      contacts: num('contacts'),
      companies: num('companies'),
      kind: source?.kind === 'delta' ? 'delta' : 'full',
      parent: typeof source?.parent === 'string' ? source.parent : null,
      source,
      bytes: (await sizeOf(file)) + (await sizeOf(`${file}.wal`)) + store.own + base.own + (await sizeOf(index)),
      shared_bytes: store.shared + base.shared,
      point_store: pointStoreReadable(points),
      index: (await sizeOf(index)) > 0,
      serving: current?.id === id,
    });
  }
  return out;
}

/** A release action that cannot be done: unknown id, nothing older, no serving release, or one without its meta. */
export class ReleaseRefused extends Error {}

/**
 * Makes `id` (default: the newest release older than the serving one) the serving release: the CURRENT pointer
 * is rewritten atomically, and running servers switch to it within their next check (under a second).
 */
export async function rollbackRelease(dataDir: string, id?: string): Promise<CurrentPointer> {
  const releases = await describeReleases(dataDir);
  const serving = releases.findIndex((r) => r.serving);
  const target = id === undefined ? releases[serving - 1] : releases.find((r) => r.id === id);
  if (!target) {
    throw new ReleaseRefused(
      id === undefined
        ? 'no release older than the serving one is on disk'
        : `no release ${id} on disk (cds releases list shows them)`,
    );
  }
  if (target.contacts === null || target.companies === null || target.created_at === null) {
    throw new ReleaseRefused(`release ${target.id} has no readable meta table`);
  }
  const pointer: CurrentPointer = {
    id: target.id,
    file: `${target.id}.duckdb`,
    createdAt: target.created_at,
    contacts: target.contacts,
    companies: target.companies,
    source: target.source ?? {},
  };
  await publishCurrent(dataDir, pointer);
  return pointer;
}

/**
 * Builds (or rebuilds) the bitmap index of a release on disk (default: the serving one), for releases loaded before
 * the index existed or whose index was lost. Written beside the release as `.tmp` and renamed into place; running
 * servers serving that release start using it within their next check.
 */
export async function indexRelease(
  dataDir: string,
  id?: string,
  onStep?: (done: number, total: number) => void,
): Promise<{ release: string; bytes: number; ms: number }> {
  const releaseId = id ?? (await readCurrent(dataDir))?.id;
  const file = releaseId ? releaseFile(dataDir, releaseId) : null;
  if (!releaseId || !file || (await sizeOf(file)) === 0) {
    throw new ReleaseRefused(
      releaseId ? `no release ${releaseId} on disk (cds releases list shows them)` : 'no release is serving',
    );
  }
  const started = Date.now();
  const { threads, memoryLimit } = loadSettings();
  const instance = await DuckDBInstance.create(file, {
    access_mode: 'READ_ONLY',
    threads: String(threads),
    memory_limit: memoryLimit,
  });
  const conn = await instance.connect();
  const target = indexFile(file);
  try {
    // As in a load, past 10 M contacts DuckDB's limit grows with the release.
    await setBuildMemoryLimit(conn, TABLE.contact);
    await buildBitmapIndex(conn, `${target}.tmp`, releaseId, onStep);
    await rename(`${target}.tmp`, target);
  } catch (e) {
    await rm(`${target}.tmp`, { force: true });
    throw e;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return { release: releaseId, bytes: await sizeOf(target), ms: Date.now() - started };
}
