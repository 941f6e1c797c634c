import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Suppression } from '../src/domain/suppression.js';
import type { OpenReleaseWriter } from '../src/engine/release-writer.js';
import type { GenerateWorkerData, GenerateWorkerMessage } from './generate/generate-worker.js';
import type { GenerateResult } from './generate/index.js';
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

export type GenerateReport = GenerateResult;

export interface SeedReport {
  generate: GenerateReport;
  load: LoadReport;
}

/**
 * Generates seeded synthetic dumps into `<dataDir>/dumps/<seed>-<contacts>` and loads them as a new
 * release, the same way an operator loads real dumps (the same seed gives the same data). The dumps are generated on
 * a thread of their own and the load starts as soon as the companies are written: it reads the people file as it
 * grows (LoadOptions.peopleWriting), so generating and loading overlap on the cores instead of adding up. The files
 * and the release are the same as when one follows the other.
 */
export async function seedRelease(opts: SeedOptions): Promise<SeedReport> {
  const outDir = join(opts.dataDir, 'dumps', `${opts.seed}-${opts.contacts}`);
  const generating = generateOnThread(
    {
      contacts: opts.contacts,
      companies: opts.companies,
      seed: opts.seed,
      outDir,
      ...(opts.asOf ? { asOf: opts.asOf.getTime() } : {}),
      ...(opts.networkHost ? { networkHost: opts.networkHost } : {}),
    },
    opts.onProgress ? (done, total) => opts.onProgress!({ phase: 'generate', done, total }) : () => undefined,
  );
  // Settled below in every case; meanwhile a failure must not count as unhandled.
  generating.done.catch(() => undefined);
  try {
    await generating.companiesWritten;
    const people = generating.done.then(() => undefined);
    const load = await loadRelease({
      dataDir: opts.dataDir,
      peopleFile: generating.peopleFile,
      companiesFile: generating.companiesFile,
      peopleWriting: people,
      ...(opts.asOf ? { asOf: opts.asOf } : {}),
      ...(opts.networkHost ? { networkHost: opts.networkHost } : {}),
      ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
      ...(opts.suppression ? { suppression: opts.suppression } : {}),
      ...(opts.fullCards ? { fullCards: true } : {}),
      ...(opts.openWriter ? { openWriter: opts.openWriter } : {}),
    });
    return { generate: await generating.done, load };
  } finally {
    // A failed load leaves no generating thread behind.
    await generating.stop();
  }
}

interface Generating {
  peopleFile: string;
  companiesFile: string;
  /** Resolves once the companies file is complete (and the people file exists). */
  companiesWritten: Promise<void>;
  /** Resolves once both files are complete. */
  done: Promise<GenerateResult>;
  stop(): Promise<void>;
}

/** generateDumps (JSON Lines) on a worker thread (generate/generate-worker.ts). */
function generateOnThread(data: GenerateWorkerData, onProgress: (done: number, total: number) => void): Generating {
  const peopleFile = join(data.outDir, 'people.jsonl');
  const companiesFile = join(data.outDir, 'companies.jsonl');
  const worker = new Worker(new URL('./generate/generate-worker.js', import.meta.url), { workerData: data });
  let companiesDone: () => void = () => undefined;
  let finish: (r: GenerateResult) => void = () => undefined;
  let fail: (e: Error) => void = () => undefined;
  const companiesWritten = new Promise<void>((resolve, reject) => {
    companiesDone = resolve;
    fail = reject;
  });
  const done = new Promise<GenerateResult>((resolve, reject) => {
    finish = resolve;
    const failCompanies = fail;
    fail = (e) => {
      failCompanies(e);
      reject(e);
    };
  });
  companiesWritten.catch(() => undefined);
  let ended = false;
  worker.on('message', (m: GenerateWorkerMessage) => {
    if (m.type === 'progress') onProgress(m.done, m.total);
    else if (m.type === 'companies') companiesDone();
    else if (m.type === 'done') {
      ended = true;
      finish({ peopleFile, companiesFile, contacts: data.contacts, companies: data.companies, ms: m.ms });
    } else {
      ended = true;
      fail(new Error(`generating the dumps failed: ${m.message}`));
    }
  });
  worker.on('error', (e) => {
    ended = true;
    fail(e);
  });
  worker.on('exit', (code) => {
    if (!ended) fail(new Error(`the dumps' generating thread exited with code ${code}`));
  });
  return {
    peopleFile,
    companiesFile,
    companiesWritten,
    done,
    stop: async () => {
      await worker.terminate();
    },
  };
}
