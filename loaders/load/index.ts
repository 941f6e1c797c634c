import { rm, stat } from 'node:fs/promises';
import type { ReleaseWriter } from '../../src/engine/release-writer.js';
import { LoadWorkers } from './load-workers.js';
import { readCompanies, readPeople } from './read-dumps.js';
import { RejectLog } from './rejects.js';
import { buildAndPublish, dropDuplicatePeople, dumpReader } from './stage-steps.js';
import { DEFAULT_NETWORK_HOST, type LoadOptions, type LoadReport } from './types.js';
import { defaultReleaseWriter } from './writers.js';

export { loadDelta } from './delta.js';
export type { DeltaOptions, LoadOptions, LoadReport, ProgressEvent, ProgressFn, Reject } from './types.js';

/**
 * Loads a people dump and a companies dump as a new release: read, validate, normalize, classify, compute
 * signals and stage in bulk (worker threads), drop duplicates, then hand over to the engine's ReleaseWriter,
 * which builds the release and publishes it atomically. Any failure before `publish` returns leaves the
 * previous release serving.
 */
export async function loadRelease(opts: LoadOptions): Promise<LoadReport> {
  const started = Date.now();
  const asOf = opts.asOf ?? new Date();
  const networkHost = opts.networkHost ?? DEFAULT_NETWORK_HOST;
  const progress = opts.onProgress ?? (() => undefined);
  for (const f of [opts.peopleFile, opts.companiesFile]) {
    const s = await stat(f).catch(() => null);
    if (!s?.isFile()) throw new Error(`${f}: no such dump file`);
  }

  const writer: ReleaseWriter = await (opts.openWriter ?? defaultReleaseWriter)(opts.dataDir, {
    fullCards: opts.fullCards === true,
  });
  const rejects = new RejectLog(writer.rejectsFile, opts.strict === true);
  let workers: LoadWorkers | null = null;
  try {
    workers = new LoadWorkers({
      networkHost,
      asOf: asOf.getTime(),
      stagingDir: writer.stagingDir,
      rowsPerFile: 25_000,
    });
    // Parquet dumps are read through their JSON Lines form (readers/parquet.ts); rejects still name the dump.
    const { labels, readable } = dumpReader(writer.stagingDir);
    const companiesFile = await readable(opts.companiesFile);
    const peopleFile = await readable(opts.peopleFile);
    const writing = opts.peopleWriting ? { [peopleFile]: opts.peopleWriting } : undefined;
    const pass = { workers, rejects, progress, labels, ...(writing ? { writing } : {}) };
    const companies = await readCompanies(companiesFile, writer.companies, pass);
    await readPeople(peopleFile, writer.people, pass);
    await workers.close();
    workers = null;
    await writer.companies.finish();
    await writer.people.finish();
    await writer.drop('companies', companies.replaced);
    await dropDuplicatePeople(writer, rejects, opts.peopleFile);
    // After duplicates: the row that would be published is the one judged.
    const built = await buildAndPublish(writer, rejects, opts.suppression, progress, {
      kind: 'full',
      peopleFile: opts.peopleFile,
      companiesFile: opts.companiesFile,
      asOf: asOf.toISOString(),
      networkHost,
    });
    return {
      ...built,
      dropped: { industries: companies.unknownIndustries },
      ms: Date.now() - started,
    };
  } catch (e) {
    await workers?.close();
    await rejects.close().catch(() => undefined);
    await writer.abort();
    await rm(rejects.file, { force: true });
    throw e;
  }
}
