import type { EmployerRef } from './company-row.js';
import { personRow, type PersonContext } from './person-row.js';
import { parseRow, type UnparsedRow } from './readers/index.js';
import { JsonlFiles } from './staging.js';
import type { Reject } from './types.js';
import { validatePerson } from './validate.js';

/**
 * The per-row work on people: parse, validate, normalize, serialize into staging files. It needs no
 * other row, so it runs on worker threads; duplicate ids are found afterwards in SQL, and the main
 * thread only logs rejects (in file order) and queues the staging files for insertion.
 */

export interface PeopleBatchResult {
  rejects: Array<Omit<Reject, 'file'>>;
  /** Staging files completed by this batch. */
  files: string[];
}

export interface PeopleWorkerData {
  employers: EmployerRef[];
  networkHost: string;
  /** asOf as epoch ms. */
  asOf: number;
  stagingDir: string;
  /** Prefix of this worker's staging files (unique per worker). */
  prefix: string;
  rowsPerFile: number;
}

export class PeopleBatcher {
  private readonly ctx: PersonContext;
  private readonly out: JsonlFiles;

  constructor(data: PeopleWorkerData) {
    this.ctx = { companies: new Map(data.employers.map((e) => [e.id, e])), networkHost: data.networkHost, asOf: new Date(data.asOf) };
    this.out = new JsonlFiles(data.stagingDir, data.prefix, data.rowsPerFile);
  }

  process(rows: readonly UnparsedRow[]): PeopleBatchResult {
    const rejects: PeopleBatchResult['rejects'] = [];
    const files: string[] = [];
    for (const unparsed of rows) {
      const raw = parseRow(unparsed);
      if (!raw) continue;
      if ('error' in raw) {
        rejects.push({ line: raw.line, reason: raw.error });
        continue;
      }
      const checked = validatePerson(raw.record);
      if (!checked.ok) {
        rejects.push({ line: raw.line, reason: checked.reason });
        continue;
      }
      let row;
      try {
        row = personRow(checked.value, this.ctx);
      } catch (e) {
        rejects.push({ line: raw.line, reason: `normalization failed: ${(e as Error).message}` });
        continue;
      }
      // The line number is unique within the file, so it doubles as the staging sequence number;
      // updated_at stays for the duplicate-id check.
      row.seq = raw.line;
      row.updated_at = checked.value.updated_at;
      const file = this.out.add(JSON.stringify(row));
      if (file) files.push(file);
    }
    return { rejects, files };
  }

  /** Writes the rows still buffered. */
  end(): PeopleBatchResult {
    const file = this.out.flush();
    return { rejects: [], files: file ? [file] : [] };
  }
}
