import { stat } from 'node:fs/promises';
import { companyRow, type CompanyRow, type EmployerRef } from './company-row.js';
import type { PeopleBatchResult } from './person-batch.js';
import { PersonWorkers } from './person-workers.js';
import { readDump, readDumpUnparsed } from './readers/index.js';
import { JsonlFiles } from './staging.js';
import type { RejectLog } from './rejects.js';
import { COMPANY_FIELDS, PERSON_FIELDS } from './source-fields.js';
import type { ProgressFn } from './types.js';
import { validateCompany } from './validate.js';
import type { ReleaseWriter } from './writer.js';

/** The two read passes: companies first (employers must be known before people are denormalized), then people. */

interface Common {
  writer: ReleaseWriter;
  stagingDir: string;
  rejects: RejectLog;
  networkHost: string;
  progress: ProgressFn;
}

export interface CompaniesRead {
  employers: Map<string, EmployerRef>;
  unknownIndustries: number;
}

function reason(e: unknown): string {
  return `normalization failed: ${(e as Error).message}`;
}

/**
 * Companies are few (a tenth of the people), so they are held until the file ends: a duplicate
 * company_id then simply replaces the earlier row (the later line wins) before anything is staged.
 */
export async function readCompanies(file: string, c: Common): Promise<CompaniesRead> {
  const total = (await stat(file)).size;
  const sink = { bytes: 0 };
  const rows = new Map<string, { row: CompanyRow; employer: EmployerRef; line: number }>();
  let unknownIndustries = 0;
  for await (const batch of readDump(file, COMPANY_FIELDS, sink)) {
    for (const raw of batch) {
      if ('error' in raw) {
        c.rejects.add('companies', { file, line: raw.line, reason: raw.error });
        continue;
      }
      const checked = validateCompany(raw.record);
      if (!checked.ok) {
        c.rejects.add('companies', { file, line: raw.line, reason: checked.reason });
        continue;
      }
      let result;
      try {
        result = companyRow(checked.value, c.networkHost);
      } catch (e) {
        c.rejects.add('companies', { file, line: raw.line, reason: reason(e) });
        continue;
      }
      const prev = rows.get(checked.value.company_id);
      if (prev) {
        c.rejects.add('companies', { file, line: prev.line, reason: `duplicate company_id ${checked.value.company_id}: replaced by line ${raw.line}` });
      }
      unknownIndustries += result.unknownIndustries;
      rows.set(checked.value.company_id, { row: result.row, employer: result.employer, line: raw.line });
    }
    c.progress({ phase: 'companies', done: Math.min(sink.bytes, total), total });
  }
  const employers = new Map<string, EmployerRef>();
  const out = new JsonlFiles(c.stagingDir, 'companies', 25_000);
  for (const [id, r] of rows) {
    employers.set(id, r.employer);
    const staged = out.add(JSON.stringify(r.row));
    if (staged) await c.writer.companies.addFile(staged);
  }
  const last = out.flush();
  if (last) await c.writer.companies.addFile(last);
  await c.writer.companies.finish();
  return { employers, unknownIndustries };
}

/** Rows per worker message: large enough to amortize messaging, small enough to keep both workers busy. */
const BATCH_ROWS = 2000;

/**
 * People go through worker threads (parse, validate, normalize, write staging files); the main thread
 * reads the file, hands out batches, logs rejects in file order and queues the files for insertion.
 */
export async function readPeople(
  file: string,
  c: Common & { asOf: Date; companies: ReadonlyMap<string, EmployerRef>; stagingDir: string },
): Promise<void> {
  const total = (await stat(file)).size;
  const sink = { bytes: 0 };
  const workers = new PersonWorkers({
    employers: [...c.companies.values()],
    networkHost: c.networkHost,
    asOf: c.asOf.getTime(),
    stagingDir: c.stagingDir,
    rowsPerFile: 25_000,
  });
  const inFlight: Promise<PeopleBatchResult>[] = [];
  const maxInFlight = 4 * workers.size;

  const consume = async (result: PeopleBatchResult): Promise<void> => {
    for (const r of result.rejects) c.rejects.add('people', { file, line: r.line, reason: r.reason });
    for (const f of result.files) await c.writer.people.addFile(f);
  };

  try {
    for await (const batch of readDumpUnparsed(file, PERSON_FIELDS, sink)) {
      for (let i = 0; i < batch.length; i += BATCH_ROWS) {
        const job = workers.run(batch.slice(i, i + BATCH_ROWS));
        // Handled when consumed; this only keeps a worker failure from being an unhandled rejection meanwhile.
        job.catch(() => undefined);
        inFlight.push(job);
        // Results are consumed in submission order, so rejects follow file order.
        while (inFlight.length >= maxInFlight) await consume(await inFlight.shift()!);
      }
      c.progress({ phase: 'people', done: Math.min(sink.bytes, total), total });
    }
    while (inFlight.length) await consume(await inFlight.shift()!);
    for (const last of await workers.end()) await consume(last);
  } finally {
    // Settle what is still in flight (after a strict-mode failure) before the workers stop.
    await Promise.allSettled(inFlight);
    await workers.close();
  }
  await c.writer.people.finish();
}
