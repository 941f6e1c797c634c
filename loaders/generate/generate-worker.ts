import { parentPort, workerData } from 'node:worker_threads';
import { generateDumps } from './generate-dumps.js';

/** What seed.ts sends the generating thread: generateDumps' options without its callbacks (asOf as epoch ms). */
export interface GenerateWorkerData {
  contacts: number;
  companies: number;
  seed: number;
  outDir: string;
  asOf?: number;
  networkHost?: string;
}

/** What the generating thread posts: progress, the companies file complete, the end (or why it failed). */
export type GenerateWorkerMessage =
  | { type: 'progress'; done: number; total: number }
  | { type: 'companies' }
  | { type: 'done'; ms: number }
  | { type: 'failed'; message: string };

/**
 * Worker thread entry: generates the dumps (generate-dumps.ts) on its own core, so a seed's load reads the companies
 * and the people already written while the rest of the people are generated.
 */
const data = workerData as GenerateWorkerData;
const post = (m: GenerateWorkerMessage): void => parentPort!.postMessage(m);
try {
  const result = await generateDumps({
    contacts: data.contacts,
    companies: data.companies,
    seed: data.seed,
    outDir: data.outDir,
    ...(data.asOf !== undefined ? { asOf: new Date(data.asOf) } : {}),
    ...(data.networkHost ? { networkHost: data.networkHost } : {}),
    onProgress: (done, total) => post({ type: 'progress', done, total }),
    onCompaniesWritten: () => post({ type: 'companies' }),
  });
  post({ type: 'done', ms: result.ms });
} catch (e) {
  post({ type: 'failed', message: (e as Error).message });
}
