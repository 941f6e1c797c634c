import { companyRow, type EmployerRef } from './company-row.js';
import { JsonlFiles } from './jsonl-files.js';
import { type PersonContext, personRow } from './person-row.js';
import { type LineChunk, parseRow, splitLines, type UnparsedRow } from './readers/index.js';
import { unresolvedCompanyIds } from './role-refs.js';
import { type Checked, validateCompany, validatePerson } from './validate.js';

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
  /** A delta's first look at its people (companyIds()): the company ids their roles name. */
  companyIds?: string[];
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
  setEmployers(employers: ReadonlyMap<string, EmployerRef>): void {
    this.ctx = { ...this.ctx, companies: employers };
  }

  companies(input: BatchInput): BatchResult {
    return this.each(input, validateCompany, (value, line, out) => {
      const result = companyRow(value, this.init.networkHost);
      // The line is unique within the file: it is the staging sequence number, so a duplicate id can be dropped later.
      result.row.seq = line;
      out.unknownIndustries += result.unknownIndustries;
      out.employers.push({ line, employer: result.employer });
      return this.companiesOut.add(JSON.stringify(result.row));
    });
  }

  people(input: BatchInput): BatchResult {
    return this.each(input, validatePerson, (value, line) => {
      const row = personRow(value, this.ctx);
      // updated_at stays for the duplicate-id check in SQL.
      row.seq = line;
      row.updated_at = value.updated_at;
      row.unresolved_company_ids = unresolvedCompanyIds(value, this.ctx.companies);
      return this.peopleOut.add(JSON.stringify(row));
    });
  }

  /**
   * The company ids the valid people of a batch name in their roles, each once: a delta asks the serving release for
   * those employers only. Nothing is staged or rejected (the people pass does both).
   */
  companyIds(input: BatchInput): BatchResult {
    const ids = new Set<string>();
    for (const unparsed of rowsOf(input)) {
      const raw = parseRow(unparsed);
      if (!raw || 'error' in raw) continue;
      const checked = validatePerson(raw.record);
      if (checked.ok) for (const r of checked.value.roles ?? []) if (r.company_id) ids.add(r.company_id);
    }
    return { rejects: [], files: [], employers: [], unknownIndustries: 0, companyIds: [...ids] };
  }

  /**
   * Parse, validate and stage every row of a batch: a row that fails any step is rejected with its line
   * and reason; `stage` returns a staging file when its buffer filled one.
   */
  private each<T>(
    input: BatchInput,
    validate: (record: Record<string, unknown>) => Checked<T>,
    stage: (value: T, line: number, out: BatchResult) => string | null | undefined,
  ): BatchResult {
    const out: BatchResult = { rejects: [], files: [], employers: [], unknownIndustries: 0 };
    for (const unparsed of rowsOf(input)) {
      const raw = parseRow(unparsed);
      if (!raw) continue;
      if ('error' in raw) {
        out.rejects.push({ line: raw.line, reason: raw.error });
        continue;
      }
      const checked = validate(raw.record);
      if (!checked.ok) {
        out.rejects.push({ line: raw.line, reason: checked.reason });
        continue;
      }
      let file: string | null | undefined;
      try {
        file = stage(checked.value, raw.line, out);
      } catch (e) {
        out.rejects.push({ line: raw.line, reason: failed(e) });
        continue;
      }
      if (file) out.files.push(file);
    }
    return out;
  }

  /** Writes the rows still buffered of one kind. */
  end(kind: 'companies' | 'people'): BatchResult {
    const file = (kind === 'people' ? this.peopleOut : this.companiesOut).close();
    return { rejects: [], files: file ? [file] : [], employers: [], unknownIndustries: 0 };
  }
}
