import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { publishCurrent, readCurrent, releaseFile, releasesDir } from '../../src/engine/duckdb/release-store.js';
import { openDuckDBReleaseWriter } from '../../src/engine/duckdb/release-writer/writer.js';
import type { ReleaseInfo } from '../../src/engine/port.js';
import {
  type DeltaBase,
  DeltaRefused,
  type OpenReleaseWriter,
  type ReleaseSource,
  type ReleaseWriter,
  type StepFn,
} from '../../src/engine/release-writer.js';
import { pruneReleaseIndices, ReleaseIndexer } from '../../src/engine/search-cluster/release-writer/indexer.js';
import { listReleaseIds, readServing } from '../../src/engine/search-cluster/releases.js';
import type { ClusterClient } from '../../src/engine/search-cluster/transport.js';
import { releaseRows, tableRows } from './release-rows.js';

export interface ClusterWriterOptions {
  client: ClusterClient;
  prefix: string;
  shards: number;
  replicas: number;
  /** Releases kept on the cluster (the serving one included). */
  keep?: number;
}

/** Where the search-cluster loader builds a release before indexing it, under the data dir. */
export const buildDir = (dataDir: string) => join(dataDir, 'cluster-build');

/**
 * The search-cluster ReleaseWriter (OpenSearch or Elasticsearch, by its client's transport). Staging, duplicates,
 * suppression and the build (employer join, sort keys, contact counts) are the embedded writer's, in a build folder of the data dir, so both engines hold the same rows; `publish`
 * then bulk-indexes the built rows into new versioned indices (ReleaseIndexer: refresh off, no replicas while
 * loading, settings restored after), swaps the `contacts` / `companies` aliases in one `_aliases` call, and removes
 * the build files (the rejects file stays). Any failure deletes the new indices: the aliases stay where they were.
 */
export function clusterReleaseWriter(o: ClusterWriterOptions): OpenReleaseWriter {
  return async (dataDir, opts) => {
    await mkdir(buildDir(dataDir), { recursive: true });
    const duck = await openDuckDBReleaseWriter(buildDir(dataDir), opts);
    return new ClusterReleaseWriter(duck, new ReleaseIndexer(o, duck.releaseId), o, buildDir(dataDir));
  };
}

class ClusterReleaseWriter implements ReleaseWriter {
  constructor(
    private readonly duck: ReleaseWriter,
    private readonly indexer: ReleaseIndexer,
    private readonly o: ClusterWriterOptions,
    private readonly dir: string,
  ) {}

  get releaseId() {
    return this.duck.releaseId;
  }
  get stagingDir() {
    return this.duck.stagingDir;
  }
  get rejectsFile() {
    return this.duck.rejectsFile;
  }
  get companies() {
    return this.duck.companies;
  }
  get people() {
    return this.duck.people;
  }
  duplicatePeople() {
    return this.duck.duplicatePeople();
  }
  drop(kind: 'people' | 'companies', lines: readonly number[]) {
    return this.duck.drop(kind, lines);
  }
  suppress(list: Parameters<ReleaseWriter['suppress']>[0]) {
    return this.duck.suppress(list);
  }
  build(onStep?: StepFn) {
    return this.duck.build(onStep);
  }

  /**
   * A delta on a search cluster: its base is the release the build folder kept from the last load, which must be the
   * one the aliases name (otherwise the delta would drop what the cluster serves: refused, run a full load). The embedded
   * writer patches that release (DeltaBase.patch) and publish indexes the result into new versioned indices, as a full
   * load does.
   */
  async deltaBase(): Promise<DeltaBase | null> {
    if (!this.duck.deltaBase) return null;
    const serving = await readServing(this.o.client, this.o.prefix);
    if (!serving) return null;
    const built = await readCurrent(this.dir);
    if (built?.id !== serving.info.id)
      throw new DeltaRefused(
        `the cluster serves release ${serving.info.id} but the build folder holds ${built?.id ?? 'none'} (a delta ` +
          'builds on the release the last load on this data dir built); run a full load',
      );
    return this.duck.deltaBase();
  }

  async publish(source: ReleaseSource, onStep: StepFn = () => undefined): Promise<{ createdAt: string }> {
    // The build folder's own release (its point store and bitmap index are not used by the cluster).
    const before = await readCurrent(this.dir);
    await this.duck.publish(source, (d, t, part) => onStep(d, t, `build ${part ?? 'point store'}`));
    const file = releaseFile(this.dir, this.releaseId);
    let info: { createdAt: string };
    try {
      info = await indexRelease(this.indexer, file, this.releaseId, source, onStep);
      await this.indexer.publish();
    } catch (e) {
      // Not serving (the alias swap is one call): its indices go, the aliases stay where they were, and the build
      // folder goes back to the release the cluster serves (the base of the next delta).
      await this.indexer.remove();
      if (before) await publishCurrent(this.dir, before);
      await removeBuiltRelease(this.dir, this.releaseId);
      throw e;
    }
    // The built release stays as the base of the next delta; the ones before it go.
    await removeOtherBuiltReleases(this.dir, this.releaseId);
    // Serving from here on: a failed prune leaves old indices behind, never removes the new ones.
    try {
      const ids = await listReleaseIds(this.o.client, this.o.prefix);
      await pruneReleaseIndices(this.o.client, this.o.prefix, ids, this.o.keep ?? 2);
    } catch (e) {
      process.stderr.write(`the release serves; pruning older indices failed: ${(e as Error).message}\n`);
    }
    return { createdAt: info.createdAt };
  }

  async abort(): Promise<void> {
    await this.duck.abort();
    await this.indexer.remove();
  }
}

/** Bulk requests a load keeps in flight. */
export const BULK_IN_FLIGHT = 2;

/**
 * Indexes a built DuckDB release file into the indexer's new indices and records the release (the conformance suite
 * indexes its seeded release with it too). Rows the cluster refuses fail the load: a release missing rows would not
 * answer as the embedded engine does.
 */
export async function indexRelease(
  indexer: ReleaseIndexer,
  file: string,
  releaseId: string,
  source: ReleaseSource | Record<string, unknown>,
  onStep: StepFn = () => undefined,
): Promise<ReleaseInfo> {
  await indexer.create();
  const totals = { companies: await tableRows(file, 'companies'), contacts: await tableRows(file, 'contacts') };
  for (const [entity, table] of [
    ['company', 'companies'],
    ['contact', 'contacts'],
  ] as const) {
    let done = 0;
    onStep(0, totals[table], `index ${table}`);
    // Up to BULK_IN_FLIGHT requests at once: the cluster indexes one batch while the next is read and encoded. On a
    // failure the others are let finish before it is thrown, so nothing writes into indices a failed load removes.
    const inFlight = new Set<Promise<void>>();
    try {
      for await (const rows of releaseRows(file, table)) {
        const sent: Promise<void> = indexer
          .bulk(entity, rows)
          .then(() => {
            done += rows.length;
            onStep(done, totals[table], `index ${table}`);
          })
          .finally(() => inFlight.delete(sent));
        sent.catch(() => undefined); // thrown by the race or the wait below
        inFlight.add(sent);
        if (inFlight.size >= BULK_IN_FLIGHT) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
    } catch (e) {
      await Promise.allSettled(inFlight);
      throw e;
    }
  }
  if (indexer.refused.length) {
    const first = indexer.refused.slice(0, 3).map((r) => `${r.entity} ${r.id}: ${r.reason}`);
    throw new Error(`${indexer.product} refused ${indexer.refused.length} rows (${first.join('; ')})`);
  }
  const stats = indexer.stats();
  const info: ReleaseInfo = {
    id: releaseId,
    createdAt: new Date().toISOString(),
    contacts: totals.contacts,
    companies: totals.companies,
    source: {
      ...source,
      cluster: { product: indexer.product, indices: indexer.indices, rowsPerSecond: stats.rowsPerSecond },
    },
  };
  await indexer.finish(info);
  return info;
}

/** Removes the build folder's releases other than `keep` (their files, rejects files kept). */
async function removeOtherBuiltReleases(dir: string, keep: string): Promise<void> {
  const ids = new Set(
    (await readdir(releasesDir(dir)).catch(() => [] as string[]))
      .map((n) => n.split('.')[0]!)
      .filter((id) => id !== keep),
  );
  for (const id of ids) if (/^r\d{8}T\d{6}-/.test(id)) await removeBuiltRelease(dir, id);
}

/** Removes a built release's files from the build folder, keeping its rejects file. */
async function removeBuiltRelease(dir: string, id: string): Promise<void> {
  const names = await readdir(releasesDir(dir)).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((n) => n.startsWith(`${id}.`) && !n.endsWith('.rejects.jsonl'))
      .map((n) => rm(join(releasesDir(dir), n), { recursive: true, force: true })),
  );
}
