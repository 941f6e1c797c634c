import { rm, stat } from 'node:fs/promises';
import { DeltaRefused, type ReleaseWriter } from '../../src/engine/release-writer.js';
import { readDeletes } from './deletes-file.js';
import { packEmployers } from './employers-message.js';
import { LoadWorkers } from './load-workers.js';
import { readCompanies, readCompanyIds, readPeople } from './read-dumps.js';
import { RejectLog } from './rejects.js';
import { buildAndPublish, dropDuplicatePeople, dumpReader, publishBuilt } from './stage-steps.js';
import type { DeltaOptions, LoadReport } from './types.js';
import { defaultReleaseWriter } from './writers.js';

/**
 * A delta load: a new release from the serving one plus changed people and companies (upserts by their source ids)
 * and deleted people. The delta's rows are read, validated and normalized as in a full load (with the base release's
 * reference time and network host, and its employers merged with the delta's companies); then the writer stages
 * every base row the delta does not replace or delete (DeltaBase.stageRest) and runs the same build and publish as
 * a full load, so employer columns, contact counts, sort keys, signals, the point store and the index come out as a
 * full load of the merged dumps gives them. The suppression list applies to every row. Any failure before `publish`
 * returns leaves the serving release serving.
 */
export async function loadDelta(opts: DeltaOptions): Promise<LoadReport> {
  const started = Date.now();
  const progress = opts.onProgress ?? (() => undefined);
  for (const f of [opts.peopleFile, opts.companiesFile, opts.deletesFile]) {
    if (f === undefined) continue;
    const s = await stat(f).catch(() => null);
    if (!s?.isFile()) throw new Error(`${f}: no such dump file`);
  }
  const deletes = opts.deletesFile ? await readDeletes(opts.deletesFile) : [];

  const writer: ReleaseWriter = await (opts.openWriter ?? defaultReleaseWriter)(opts.dataDir, {
    fullCards: opts.fullCards === true,
    rebuild: opts.rebuild === true,
  });
  const rejects = new RejectLog(writer.rejectsFile, opts.strict === true);
  let workers: LoadWorkers | null = null;
  try {
    if (!writer.deltaBase)
      throw new DeltaRefused('this engine builds full releases only; run cds load without --delta');
    const base = await writer.deltaBase();
    if (!base) throw new DeltaRefused(`no release serves in ${opts.dataDir}: a delta needs one; run a full load first`);
    const asOf = new Date(base.asOf);
    if (Number.isNaN(asOf.getTime())) throw new DeltaRefused(`release ${base.id} records no reference time (asOf)`);
    const networkHost = base.networkHost;
    workers = new LoadWorkers({
      networkHost,
      asOf: asOf.getTime(),
      stagingDir: writer.stagingDir,
      rowsPerFile: 25_000,
    });
    const { labels, readable } = dumpReader(writer.stagingDir);
    const pass = { workers, rejects, progress, labels };
    const changed = opts.companiesFile
      ? await readCompanies(await readable(opts.companiesFile), writer.companies, pass)
      : { employers: new Map(), replaced: [], unknownIndustries: 0 };
    // People resolve their roles against every company of the new release: the base's, replaced by the delta's. Of the
    // base's, only those the delta's people name are read (a first pass over the people finds them).
    const people = await readable(opts.peopleFile);
    const named = await readCompanyIds(people, workers);
    const employers = packEmployers(changed.employers.values());
    await workers.all({ op: 'employers', base: await base.employers(named), employers });
    await readPeople(people, writer.people, pass);
    await workers.close();
    workers = null;
    await writer.companies.finish();
    await writer.people.finish();
    await writer.drop('companies', changed.replaced);
    await dropDuplicatePeople(writer, rejects, opts.peopleFile);
    // "base": the serving release's rows, patched in a copy of its file or staged again to be built with the delta's.
    progress({ phase: 'base', done: 0, total: 1 });
    const patched = base.patch
      ? await base.patch(deletes, opts.suppression, (done, total) => progress({ phase: 'base', done, total }))
      : null;
    const deleted = patched ? patched.delta : await base.stageRest(deletes);
    progress({ phase: 'base', done: 1, total: 1 });
    const facts = {
      kind: 'delta' as const,
      parent: base.id,
      peopleFile: opts.peopleFile,
      companiesFile: opts.companiesFile ?? null,
      deletesFile: opts.deletesFile ?? null,
      deleted: { people: deleted.deleted, notFound: deleted.notFound },
      asOf: base.asOf,
      networkHost,
      patched: patched !== null,
    };
    const built = patched
      ? await publishBuilt(writer, rejects, opts.suppression ? patched.suppressed : undefined, progress, facts, patched)
      : await buildAndPublish(writer, rejects, opts.suppression, progress, facts);
    return {
      ...built,
      dropped: { industries: changed.unknownIndustries },
      delta: { parent: base.id, patched: patched !== null, ...deleted },
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
