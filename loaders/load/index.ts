import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  nextReleaseId,
  publishCurrent,
  pruneReleases,
  rejectsFile as rejectsPath,
  releaseFile,
  releasesDir,
} from '../../src/engine/duckdb/release-store.js';
import { pointStoreFile } from '../../src/engine/duckdb/point-store/schema.js';
import { readPeople, readCompanies } from './read-dumps.js';
import { RejectLog } from './rejects.js';
import { DEFAULT_NETWORK_HOST, type LoadOptions, type LoadReport } from './types.js';
import { LoadWorkers } from './load-workers.js';
import { ReleaseWriter } from './writer.js';

export type { LoadOptions, LoadReport, ProgressEvent, ProgressFn, Reject } from './types.js';

/**
 * Loads a people dump and a companies dump as a new release: read, validate, normalize, classify,
 * compute signals, stage in bulk, join the employer onto each contact, write the point store, then
 * publish atomically. The database is written as `<id>.duckdb.tmp` and its point store as
 * `<id>.points.sqlite.tmp`; both are renamed into place and only then named by CURRENT; any failure
 * before that leaves the previous release serving (and a crash between the renames leaves files that
 * pruning removes with their release).
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

  await mkdir(releasesDir(opts.dataDir), { recursive: true });
  const releaseId = await nextReleaseId(opts.dataDir);
  const finalFile = releaseFile(opts.dataDir, releaseId);
  const tmpFile = `${finalFile}.tmp`;
  const finalPoints = pointStoreFile(finalFile);
  const tmpPoints = `${finalPoints}.tmp`;
  const stagingDir = join(releasesDir(opts.dataDir), `${releaseId}.staging`);
  await mkdir(stagingDir, { recursive: true });
  const rejects = new RejectLog(rejectsPath(opts.dataDir, releaseId), opts.strict === true);
  let writer: ReleaseWriter | null = null;
  let workers: LoadWorkers | null = null;
  try {
    writer = await ReleaseWriter.create(tmpFile, stagingDir);
    workers = new LoadWorkers({ networkHost, asOf: asOf.getTime(), stagingDir, rowsPerFile: 25_000 });
    const pass = { workers, rejects, progress };
    const companies = await readCompanies(opts.companiesFile, writer.companies, pass);
    await readPeople(opts.peopleFile, writer.people, pass);
    await workers.close();
    workers = null;
    await writer.companies.finish();
    await writer.people.finish();
    await writer.drop('companies', companies.replaced);
    const duplicates = await writer.duplicatePeople();
    for (const d of duplicates) {
      rejects.add('people', { file: opts.peopleFile, line: d.line, reason: `duplicate person_id ${d.id}: line ${d.winnerLine} has the later updated_at` });
    }
    await writer.drop('people', duplicates.map((d) => d.line));
    const counts = await writer.build((done, total) => progress({ phase: 'build', done, total }));
    const createdAt = new Date().toISOString();
    const source = {
      peopleFile: opts.peopleFile,
      companiesFile: opts.companiesFile,
      skipped: { people: rejects.count('people'), companies: rejects.count('companies') },
      asOf: asOf.toISOString(),
      networkHost,
    };
    await writer.writeMeta({
      release_id: releaseId,
      created_at: createdAt,
      as_of: source.asOf,
      network_host: networkHost,
      contacts: String(counts.contacts),
      companies: String(counts.companies),
      source: JSON.stringify(source),
    });
    progress({ phase: 'build', done: 3, total: 3 });
    const points = await writer.writeLookups(tmpPoints, releaseId, (done, total) => progress({ phase: 'lookups', done, total }));
    if (points.cards !== counts.contacts) throw new Error(`point store holds ${points.cards} cards for ${counts.contacts} contacts`);
    await writer.finish();
    writer = null;
    await rejects.close();
    await rename(tmpFile, finalFile);
    await rename(tmpPoints, finalPoints);
    await publishCurrent(opts.dataDir, { id: releaseId, file: `${releaseId}.duckdb`, createdAt, contacts: counts.contacts, companies: counts.companies, source });
    // Published: a failed prune only leaves older files behind (the next load prunes them), so it must
    // not report this load as failed, nor let the cleanup below delete what CURRENT now names.
    await pruneReleases(opts.dataDir).catch(() => undefined);
    return {
      releaseId,
      contacts: counts.contacts,
      companies: counts.companies,
      skipped: source.skipped,
      rejects: rejects.first,
      rejectsFile: rejects.file,
      dropped: { industries: companies.unknownIndustries },
      ms: Date.now() - started,
    };
  } catch (e) {
    await workers?.close();
    try {
      writer?.close();
    } catch {
      /* already failing; the original error matters */
    }
    await rejects.close().catch(() => undefined);
    await Promise.all([tmpFile, `${tmpFile}.wal`, tmpPoints, finalPoints, rejects.file].map((f) => rm(f, { force: true })));
    throw e;
  } finally {
    await rm(stagingDir, { recursive: true, force: true });
  }
}
