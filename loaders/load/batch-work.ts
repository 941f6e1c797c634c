import { companyRow, type EmployerRef } from './company-row.js';
import { personRow, type PersonContext } from './person-row.js';
import { parseRow, splitLines, type LineChunk, type UnparsedRow } from './readers/index.js';
import { JsonlFiles } from './staging.js';
import { validateCompany, validatePerson } from './validate.js';

/**
 * The per-row work of a load: parse, validate, normalize, serialize into staging files. A row needs no
 * other row, so this runs on worker threads; whatever needs the whole file (duplicate ids, the rejects
 * log in file order, the employers map) is done by the main thread or in SQL afterwards.
 */

export interface WorkerInit {
  networkHost: string;
  /** asOf as epoch ms. */
  asOf: number;
  stagingDir: string;
  /** Prefix of this worker's staging files (unique per worker). */
  prefix: string;
  rowsPerFile: number;
}

/** A chunk of JSON Lines (split on the worker, off the reading thread) or rows parsed from CSV. */
export type BatchInput = LineChunk | readonly UnparsedRow[];

export interface BatchResult {
  rejects: Array<{ line: number; reason: string }>;
  /** Staging files completed by this batch. */
  files: string[];
  /** Companies only: every accepted company with its line, in file order. */
  employers: Array<{ line: number; employer: EmployerRef }>;
  /** Companies only: industry labels that are not in the taxonomy (dropped from the row). */
  unknownIndustries: number;
}

function rowsOf(input: BatchInput): readonly UnparsedRow[] {
  return Array.isArray(input) ? input : splitLines(input as LineChunk);
}

function failed(e: unknown): string {
  return `normalization failed: ${(e as Error).message}`;
}

export class BatchWork {
  private readonly peopleOut: JsonlFiles;
  private readonly companiesOut: JsonlFiles;
  private ctx: PersonContext;

  constructor(private readonly init: WorkerInit) {
    this.peopleOut = new JsonlFiles(init.stagingDir, `${init.prefix}-people`, init.rowsPerFile);
    this.companiesOut = new JsonlFiles(init.stagingDir, `${init.prefix}-companies`, init.rowsPerFile);
    this.ctx = { companies: new Map(), networkHost: init.networkHost, asOf: new Date(init.asOf) };
  }

  /** The employers of the release, known once every company was read. */
  setEmployers(employers: readonly EmployerRef[]): void {
    this.ctx = { ...this.ctx, companies: new Map(employers.map((e) => [e.id, e])) };
  }

  companies(input: BatchInput): BatchResult {
    const out: BatchResult = { rejects: [], files: [], employers: [], unknownIndustries: 0 };
    for (const unparsed of rowsOf(input)) {
      const raw = parseRow(unparsed);
      if (!raw) continue;
      if ('error' in raw) {
        out.rejects.push({ line: raw.line, reason: raw.error });
        continue;
      }
      const checked = validateCompany(raw.record);
      if (!checked.ok) {
        out.rejects.push({ line: raw.line, reason: checked.reason });
        continue;
      }
      let result;
      try {
        result = companyRow(checked.value, this.init.networkHost);
      } catch (e) {
        out.rejects.push({ line: raw.line, reason: failed(e) });
        continue;
      }
      // The line is unique within the file: it is the staging sequence number, so a duplicate id can be dropped later.
      result.row.seq = raw.line;
      out.unknownIndustries += result.unknownIndustries;
      out.employers.push({ line: raw.line, employer: result.employer });
      const file = this.companiesOut.add(JSON.stringify(result.row));
      if (file) out.files.push(file);
    }
    return out;
  }

  people(input: BatchInput): BatchResult {
    const out: BatchResult = { rejects: [], files: [], employers: [], unknownIndustries: 0 };
    for (const unparsed of rowsOf(input)) {
      const raw = parseRow(unparsed);
      if (!raw) continue;
      if ('error' in raw) {
        out.rejects.push({ line: raw.line, reason: raw.error });
        continue;
      }
      const checked = validatePerson(raw.record);
      if (!checked.ok) {
        out.rejects.push({ line: raw.line, reason: checked.reason });
        continue;
      }
      let row;
      try {
        row = personRow(checked.value, this.ctx);
      } catch (e) {
        out.rejects.push({ line: raw.line, reason: failed(e) });
        continue;
      }
      // updated_at stays for the duplicate-id check in SQL.
      row.seq = raw.line;
      row.updated_at = checked.value.updated_at;
      const file = this.peopleOut.add(JSON.stringify(row));
      if (file) out.files.push(file);
    }
    return out;
  }

  /** Writes the rows still buffered of one kind. */
  end(kind: 'companies' | 'people'): BatchResult {
    const file = (kind === 'people' ? this.peopleOut : this.companiesOut).flush();
    return { rejects: [], files: file ? [file] : [], employers: [], unknownIndustries: 0 };
  }
}
