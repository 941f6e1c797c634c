import { SUPPRESSION_TYPES, type Suppression } from '../../src/domain/suppression.js';
import type { ReleaseSource, ReleaseWriter, SuppressedPeople } from '../../src/engine/release-writer.js';
import { isParquet, parquetAsJsonLines } from './readers/parquet.js';
import type { RejectLog } from './rejects.js';
import type { LoadReport, ProgressFn } from './types.js';

/** Steps a full load (index.ts) and a delta load (delta.ts) share, so both stage rows the same way. */

/** Dumps as the read passes take them: a Parquet dump through its JSON Lines form; rejects still name the dump. */
export function dumpReader(stagingDir: string): {
  labels: Record<string, string>;
  readable: (file: string) => Promise<string>;
} {
  const labels: Record<string, string> = {};
  const readable = async (file: string): Promise<string> => {
    if (!isParquet(file)) return file;
    const lines = await parquetAsJsonLines(file, stagingDir);
    labels[lines] = file;
    return lines;
  };
  return { labels, readable };
}

/** Drops the staged people whose id appears again with a later `updated_at`, each logged as a reject. */
export async function dropDuplicatePeople(
  writer: ReleaseWriter,
  rejects: RejectLog,
  peopleFile: string,
): Promise<void> {
  const duplicates = await writer.duplicatePeople();
  for (const d of duplicates) {
    const reason = `duplicate person_id ${d.id}: line ${d.winnerLine} has the later updated_at`;
    rejects.add('people', { file: peopleFile, line: d.line, reason });
  }
  await writer.drop(
    'people',
    duplicates.map((d) => d.line),
  );
}

/** Drops the staged people a suppression list matches (none without a list); call after duplicates are dropped. */
export async function suppressPeople(
  writer: ReleaseWriter,
  suppression: Suppression | undefined,
  progress: ProgressFn,
): Promise<SuppressedPeople> {
  if (!suppression) return noneSuppressed();
  const suppressed = await writer.suppress(suppression);
  progress({ phase: 'suppressed', done: suppressed.people, total: suppressed.people });
  return suppressed;
}

/** What every load records about its release beyond what the shared steps count (skipped rows, suppressed people). */
export type SourceFacts = Omit<ReleaseSource, 'skipped' | 'suppressed'>;

/**
 * The end both loads share: drops the people the suppression list matches, builds the release and publishes it,
 * recording the load's facts with the rows skipped and the people suppressed. Answers the report's common part.
 */
export async function buildAndPublish(
  writer: ReleaseWriter,
  rejects: RejectLog,
  suppression: Suppression | undefined,
  progress: ProgressFn,
  facts: SourceFacts,
): Promise<Omit<LoadReport, 'dropped' | 'ms' | 'delta'>> {
  const suppressed = await suppressPeople(writer, suppression, progress);
  const counts = await writer.build((done, total) => progress({ phase: 'build', done, total }));
  progress({ phase: 'build', done: 3, total: 3 });
  return publishBuilt(writer, rejects, suppression ? suppressed : undefined, progress, facts, counts);
}

/**
 * Publishes a release whose rows are written (built, or patched by a delta): records the load's facts with the rows
 * skipped and the people suppressed (`suppressed` only when a list applied). Answers the report's common part.
 */
export async function publishBuilt(
  writer: ReleaseWriter,
  rejects: RejectLog,
  suppressed: SuppressedPeople | undefined,
  progress: ProgressFn,
  facts: SourceFacts,
  counts: { contacts: number; companies: number },
): Promise<Omit<LoadReport, 'dropped' | 'ms' | 'delta'>> {
  const skipped = { people: rejects.count('people'), companies: rejects.count('companies') };
  const source: ReleaseSource = { ...facts, skipped, ...(suppressed ? { suppressed } : {}) };
  await rejects.close();
  await writer.publish(source, (done, total, part) => progress({ phase: part ?? 'point store', done, total }));
  return {
    releaseId: writer.releaseId,
    contacts: counts.contacts,
    companies: counts.companies,
    skipped,
    rejects: rejects.first,
    rejectsFile: rejects.file,
    suppressed: suppressed ?? noneSuppressed(),
  };
}

const noneSuppressed = (): SuppressedPeople => ({
  people: 0,
  byType: Object.fromEntries(SUPPRESSION_TYPES.map((t) => [t, 0])) as SuppressedPeople['byType'],
});
