import { stat } from 'node:fs/promises';
import { companyRow, type CompanyRow, type EmployerRef } from './company-row.js';
import { PersonDedupe } from './dedupe.js';
import { personRow } from './person-row.js';
import { readDump } from './readers/index.js';
import type { RejectLog } from './rejects.js';
import { COMPANY_FIELDS, PERSON_FIELDS } from './source-fields.js';
import type { ProgressFn } from './types.js';
import { validateCompany, validatePerson } from './validate.js';
import type { ReleaseWriter } from './writer.js';

/** The two read passes: companies first (employers must be known before people are denormalized), then people. */

interface Common {
  writer: ReleaseWriter;
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
  for (const [id, r] of rows) {
    employers.set(id, r.employer);
    const due = c.writer.companies.add(r.row);
    if (due) await due;
  }
  await c.writer.companies.finish();
  return { employers, unknownIndustries };
}

export interface PeopleRead {
  /** Staging sequence numbers of rows that lost to a later duplicate. */
  dropped: number[];
}

export async function readPeople(
  file: string,
  c: Common & { asOf: Date; companies: ReadonlyMap<string, EmployerRef> },
): Promise<PeopleRead> {
  const total = (await stat(file)).size;
  const sink = { bytes: 0 };
  const dedupe = new PersonDedupe();
  const ctx = { companies: c.companies, networkHost: c.networkHost, asOf: c.asOf };
  let seq = 0;
  for await (const batch of readDump(file, PERSON_FIELDS, sink)) {
    for (const raw of batch) {
      if ('error' in raw) {
        c.rejects.add('people', { file, line: raw.line, reason: raw.error });
        continue;
      }
      const checked = validatePerson(raw.record);
      if (!checked.ok) {
        c.rejects.add('people', { file, line: raw.line, reason: checked.reason });
        continue;
      }
      const p = checked.value;
      let row;
      try {
        row = personRow(p, ctx);
      } catch (e) {
        c.rejects.add('people', { file, line: raw.line, reason: reason(e) });
        continue;
      }
      const loser = dedupe.offer(p.person_id, p.updated_at, seq, raw.line);
      if (loser) {
        c.rejects.add('people', {
          file,
          line: loser.line,
          reason: `duplicate person_id ${p.person_id}: line ${loser.winnerLine} has the later updated_at`,
        });
        if (loser.line === raw.line) continue;
      }
      row.seq = seq++;
      const due = c.writer.people.add(row);
      if (due) await due;
    }
    c.progress({ phase: 'people', done: Math.min(sink.bytes, total), total });
  }
  await c.writer.people.finish();
  return { dropped: dedupe.dropped };
}
