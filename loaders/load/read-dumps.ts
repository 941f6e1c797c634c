import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { StagedRows } from '../../src/engine/release-writer.js';
import type { BatchInput, BatchResult } from './batch-work.js';
import type { EmployerRef } from './company-row.js';
import { packEmployers } from './employers-message.js';
import type { LoadWorkers } from './load-workers.js';
import { type LineChunk, readDumpForWorkers, type UnparsedRow } from './readers/index.js';
import type { RejectLog } from './rejects.js';
import { COMPANY_FIELDS, type FieldKind, PERSON_FIELDS } from './source-fields.js';
import type { ProgressFn } from './types.js';

/**
 * The two read passes, companies first (employers must be known before people are denormalized), both
 * through the worker pool. The main thread reads, hands out batches, consumes results in submission
 * order (so rejects follow file order) and queues the workers' staging files for insertion.
 */

interface Pass {
  workers: LoadWorkers;
  rejects: RejectLog;
  progress: ProgressFn;
  /** The name rejects give a file read in another form (a Parquet dump read as JSON Lines). */
  labels?: Record<string, string>;
  /** Files still being written, read as they grow until their promise settles (TextChunkSink.writing). */
  writing?: Record<string, Promise<void>>;
}

/** CSV rows per worker message: large enough to amortize messaging, small enough to keep every worker busy. */
const CSV_BATCH_ROWS = 1000;

function batchesOf(input: LineChunk | UnparsedRow[]): BatchInput[] {
  if (!Array.isArray(input)) return [input];
  const out: UnparsedRow[][] = [];
  for (let i = 0; i < input.length; i += CSV_BATCH_ROWS) out.push(input.slice(i, i + CSV_BATCH_ROWS));
  return out;
}

/**
 * Sends every batch of a dump to the workers as `op`, at most four a worker in flight, and hands the results to
 * `consume` in file order; `onRead` gets the bytes read after each chunk. Whatever is in flight settles before a
 * failure is reported.
 */
async function eachBatch(
  file: string,
  fields: Readonly<Record<string, FieldKind>>,
  workers: LoadWorkers,
  op: 'companies' | 'people' | 'companyIds',
  consume: (r: BatchResult) => Promise<void> | void,
  onRead: (bytes: number) => void = () => undefined,
  writing?: Promise<void>,
): Promise<void> {
  const sink = { bytes: 0, ...(writing ? { writing } : {}) };
  const inFlight: Promise<BatchResult>[] = [];
  const maxInFlight = 4 * workers.size;
  try {
    for await (const input of readDumpForWorkers(file, fields, sink)) {
      // A JSON Lines chunk (about 1 MB of whole lines) goes as is; CSV rows go in batches.
      for (const batch of batchesOf(input)) {
        const job = workers.run({ op, input: batch });
        // Handled when consumed; this only keeps a worker failure from being an unhandled rejection meanwhile.
        job.catch(() => undefined);
        inFlight.push(job);
        while (inFlight.length >= maxInFlight) await consume(await inFlight.shift()!);
      }
      onRead(sink.bytes);
    }
    while (inFlight.length) await consume(await inFlight.shift()!);
  } finally {
    // After a failure (strict mode), let what is in flight settle before anything closes.
    await Promise.allSettled(inFlight);
  }
}

async function pass(
  file: string,
  kind: 'companies' | 'people',
  fields: Readonly<Record<string, FieldKind>>,
  staging: StagedRows,
  p: Pass,
  onResult: (r: BatchResult) => void = () => undefined,
): Promise<void> {
  // Rejects name the dump the operator gave (a Parquet dump is read through its JSON Lines form).
  const label = p.labels?.[file] ?? file;
  const writing = p.writing?.[file];
  let total = (await stat(file)).size;
  // While the file is still being written its size is not known: progress is said from its end on.
  let written = !writing;
  writing?.then(
    () => {
      total = statSync(file).size;
      written = true;
    },
    () => undefined,
  );
  if (!written) p.progress({ phase: kind, done: 0, total: 1 });
  const consume = async (r: BatchResult): Promise<void> => {
    for (const x of r.rejects) p.rejects.add(kind, { file: label, line: x.line, reason: x.reason });
    onResult(r);
    for (const f of r.files) await staging.addFile(f);
  };
  await eachBatch(
    file,
    fields,
    p.workers,
    kind,
    consume,
    (bytes) => {
      if (!written) return;
      p.progress({ phase: kind, done: Math.min(bytes, total), total });
    },
    writing,
  );
  for (const last of await p.workers.all({ op: 'end', kind })) await consume(last);
}

export interface CompaniesRead {
  employers: Map<string, EmployerRef>;
  /** Lines of companies replaced by a later row with the same id (the later line wins). */
  replaced: number[];
  unknownIndustries: number;
}

export async function readCompanies(file: string, staging: StagedRows, p: Pass): Promise<CompaniesRead> {
  const employers = new Map<string, { employer: EmployerRef; line: number }>();
  const replaced: number[] = [];
  let unknownIndustries = 0;
  await pass(file, 'companies', COMPANY_FIELDS, staging, p, (r) => {
    unknownIndustries += r.unknownIndustries;
    for (const { line, employer } of r.employers) {
      const prev = employers.get(employer.id);
      if (prev) {
        p.rejects.add('companies', {
          file,
          line: prev.line,
          reason: `duplicate company_id ${employer.id}: replaced by line ${line}`,
        });
        replaced.push(prev.line);
      }
      employers.set(employer.id, { employer, line });
    }
  });
  const byId = new Map([...employers].map(([id, e]) => [id, e.employer]));
  await p.workers.all({ op: 'employers', employers: packEmployers(byId.values()) });
  return { employers: byId, replaced, unknownIndustries };
}

export function readPeople(file: string, staging: StagedRows, p: Pass): Promise<void> {
  return pass(file, 'people', PERSON_FIELDS, staging, p);
}

/**
 * A delta's first look at its people, through the workers: the company ids their roles name (each once). Nothing is
 * staged or rejected; readPeople does both afterwards.
 */
export async function readCompanyIds(file: string, workers: LoadWorkers): Promise<string[]> {
  const ids = new Set<string>();
  await eachBatch(file, PERSON_FIELDS, workers, 'companyIds', (r) => {
    for (const id of r.companyIds ?? []) ids.add(id);
  });
  return [...ids];
}
