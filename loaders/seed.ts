import { join } from 'node:path';
import type { Suppression } from '../src/domain/suppression.js';
import type { OpenReleaseWriter } from '../src/engine/release-writer.js';
import { generateDumps } from './generate/index.js';
import { loadRelease } from './load/index.js';
import type { LoadReport, ProgressFn } from './load/types.js';

export interface SeedOptions {
  dataDir: string;
  contacts: number;
  companies: number;
  seed: number;
  /** Reference time of generated dates and computed signals (default now). */
  asOf?: Date;
  networkHost?: string;
  onProgress?: ProgressFn;
  /** People it matches are not loaded (LoadOptions.suppression). */
  suppression?: Suppression;
  /** LoadOptions.fullCards. */
  fullCards?: boolean;
  /** The engine's release writer (default the embedded one; load/writers.ts releaseWriterFor). */
  openWriter?: OpenReleaseWriter;
}

export type GenerateReport = Awaited<ReturnType<typeof generateDumps>>;

export interface SeedReport {
  generate: GenerateReport;
  load: LoadReport;
}

/**
 * Generates seeded synthetic dumps into `<dataDir>/dumps/<seed>-<contacts>` and loads them as a new
 * release, the same way an operator loads real dumps (the same seed gives the same data).
 */
export async function seedRelease(opts: SeedOptions): Promise<SeedReport> {
  const outDir = join(opts.dataDir, 'dumps', `${opts.seed}-${opts.contacts}`);
  const generate = await generateDumps({
    contacts: opts.contacts,
    companies: opts.companies,
    seed: opts.seed,
    outDir,
    ...(opts.asOf ? { asOf: opts.asOf } : {}),
    ...(opts.networkHost ? { networkHost: opts.networkHost } : {}),
    ...(opts.onProgress
      ? { onProgress: (done: number, total: number) => opts.onProgress!({ phase: 'generate', done, total }) }
      : {}),
  });
  const load = await loadRelease({
    dataDir: opts.dataDir,
    peopleFile: generate.peopleFile,
    companiesFile: generate.companiesFile,
    ...(opts.asOf ? { asOf: opts.asOf } : {}),
    ...(opts.networkHost ? { networkHost: opts.networkHost } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
    ...(opts.suppression ? { suppression: opts.suppression } : {}),
    ...(opts.fullCards ? { fullCards: true } : {}),
    ...(opts.openWriter ? { openWriter: opts.openWriter } : {}),
  });
  return { generate, load };
}
