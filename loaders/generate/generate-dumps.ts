import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ChunkWriter } from './chunk-writer.js';
import { generateCompany } from './companies.js';
import { CompanyNamer } from './company-names.js';
import type { CompanyRef, GenContext } from './context.js';
import { DayFormatter, dayOf, yearOfDay } from './dates.js';
import { buildEmployers } from './employers.js';
import { generatePerson, PeopleState } from './people.js';
import { Rng } from './rng.js';
import { COMPANY_FIELDS, csvHeader, csvRow, PERSON_FIELDS } from './serialize.js';

export interface GenerateOptions {
  contacts: number;
  companies: number;
  seed: number;
  outDir: string;
  format?: 'jsonl' | 'csv';
  /** Writes `<name>.<format>.gz`, gzip-compressed (about 28 % of the disk; the loader reads it as it is). */
  gzip?: boolean;
  /** The "today" of the data; defaults to 2026-11-01T00:00:00Z so output never depends on the clock. */
  asOf?: Date;
  networkHost?: string;
  onProgress?: (done: number, total: number) => void;
  /** Called once the companies file is complete and the people file is open (a loader may start on both then). */
  onCompaniesWritten?: () => void;
}

export interface GenerateResult {
  peopleFile: string;
  companiesFile: string;
  contacts: number;
  companies: number;
  ms: number;
}

export const DEFAULT_AS_OF = new Date('2026-11-01T00:00:00Z');
export const DEFAULT_NETWORK_HOST = 'network.com';

const STREAM_COMPANIES = 1;
const STREAM_PEOPLE = 2;
const PROGRESS_EVERY = 10_000;

function checkCount(name: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
}

/**
 * Writes `companies.<ext>` then `people.<ext>` into `outDir` (`.<format>.gz` with `gzip`). Every row is drawn from a generator
 * reseeded from (seed, stream, index), so equal options give byte-identical files.
 */
export async function generateDumps(opts: GenerateOptions): Promise<GenerateResult> {
  checkCount('contacts', opts.contacts);
  checkCount('companies', opts.companies);
  if (!Number.isInteger(opts.seed)) throw new RangeError(`seed must be an integer, got ${opts.seed}`);
  const started = performance.now();
  const format = opts.format ?? 'jsonl';
  const asOfDay = dayOf(opts.asOf ?? DEFAULT_AS_OF);
  const ctx: GenContext = {
    seed: opts.seed | 0,
    asOfDay,
    asOfYear: yearOfDay(asOfDay),
    networkHost: opts.networkHost ?? DEFAULT_NETWORK_HOST,
    days: new DayFormatter(asOfDay - 20 * 366, asOfDay),
  };
  await mkdir(opts.outDir, { recursive: true });
  const ext = opts.gzip ? `${format}.gz` : format;
  const companiesFile = join(opts.outDir, `companies.${ext}`);
  const peopleFile = join(opts.outDir, `people.${ext}`);
  const total = opts.companies + opts.contacts;
  const progress = (done: number): void => {
    if (opts.onProgress && (done % PROGRESS_EVERY === 0 || done === total)) opts.onProgress(done, total);
  };
  const rng = new Rng();

  const refs: CompanyRef[] = [];
  const namer = new CompanyNamer();
  const companies = new ChunkWriter(companiesFile, undefined, opts.gzip);
  if (format === 'csv') companies.push(csvHeader(COMPANY_FIELDS));
  for (let i = 0; i < opts.companies; i++) {
    const { record, ref } = generateCompany(rng.reseed(ctx.seed, STREAM_COMPANIES, i), i, ctx, namer);
    refs.push(ref);
    // Awaiting only full chunks keeps the loop free of a promise per row.
    if (companies.push(format === 'csv' ? csvRow(record, COMPANY_FIELDS) : JSON.stringify(record)))
      await companies.flush();
    progress(i + 1);
  }
  await companies.close();

  const employers = buildEmployers(refs);
  const state = new PeopleState(opts.contacts);
  const people = new ChunkWriter(peopleFile, undefined, opts.gzip);
  await people.opened();
  opts.onCompaniesWritten?.();
  if (format === 'csv') people.push(csvHeader(PERSON_FIELDS));
  for (let i = 0; i < opts.contacts; i++) {
    const person = generatePerson(rng.reseed(ctx.seed, STREAM_PEOPLE, i), i, ctx, employers, state);
    if (people.push(format === 'csv' ? csvRow(person, PERSON_FIELDS) : JSON.stringify(person))) await people.flush();
    progress(opts.companies + i + 1);
  }
  await people.close();
  if (total === 0) opts.onProgress?.(0, 0);

  return {
    peopleFile,
    companiesFile,
    contacts: opts.contacts,
    companies: opts.companies,
    ms: Math.round(performance.now() - started),
  };
}
