import { mkdirSync } from 'node:fs';
import { cutDelta } from '../../bench/lib/delta-files.js';
import { loadDelta } from '../../loaders/load/delta.js';
import type { LoadReport } from '../../loaders/load/types.js';

/**
 * Cuts a delta of `share` from a seeded release's dumps into `dir` (bench/lib/delta-files.ts: people retitled, deleted
 * and added, companies resized) and loads it into `dataDir` as a delta.
 */
export async function loadCutDelta(
  dataDir: string,
  dumps: { peopleFile: string; companiesFile: string },
  dir: string,
  share: number,
  opts: { fullCards?: boolean } = {},
): Promise<LoadReport> {
  mkdirSync(dir, { recursive: true });
  const d = await cutDelta({ people: dumps.peopleFile, companies: dumps.companiesFile }, dir, share);
  return loadDelta({
    dataDir,
    peopleFile: d.people,
    companiesFile: d.companies,
    deletesFile: d.deletes,
    ...(opts.fullCards ? { fullCards: true } : {}),
  });
}
