import type { SourceCompany, SourcePerson } from '../dump-format.js';
import { COMPANY_FIELDS, type FieldKind, NESTED_FIELDS, PERSON_FIELDS } from './source-fields.js';
import { day } from './values.js';

/**
 * Row validation: a row is rejected (with a reason naming the field) when a required field is missing
 * or malformed, or any field has the wrong type. Optional fields may be absent or null. Format problems
 * of optional values (an odd date, an unknown country) are not rejects: normalization drops the value.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; reason: string };

const DATE = /^\d{4}-\d{2}-\d{2}/;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function kindError(v: unknown, kind: FieldKind): string | null {
  switch (kind) {
    case 'string':
      return typeof v === 'string' ? null : 'expected a string';
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? null : 'expected a number';
    case 'boolean':
      return typeof v === 'boolean' ? null : 'expected true or false';
    case 'strings':
      if (!Array.isArray(v)) return 'expected a list of strings';
      for (const x of v) if (typeof x !== 'string') return 'expected a list of strings';
      return null;
    case 'object':
      return isPlainObject(v) ? null : 'expected an object';
    case 'objects':
      if (!Array.isArray(v)) return 'expected a list of objects';
      for (const x of v) if (!isPlainObject(x)) return 'expected a list of objects';
      return null;
  }
}

interface FieldCheck {
  name: string;
  kind: FieldKind;
  nested: FieldCheck[] | null;
}

/** Field tables as arrays, once: validation runs for every row, and walking a record's keys is slower. */
function compile(fields: Readonly<Record<string, FieldKind>>): FieldCheck[] {
  return Object.entries(fields).map(([name, kind]) => {
    const nested = NESTED_FIELDS[name];
    return { name, kind, nested: nested && (kind === 'object' || kind === 'objects') ? compile(nested) : null };
  });
}

const PERSON_CHECKS = compile(PERSON_FIELDS);
const COMPANY_CHECKS = compile(COMPANY_FIELDS);

/** First type error among `checks` of `rec` (and of known nested objects), or null. */
function fieldsError(rec: Record<string, unknown>, checks: readonly FieldCheck[], path: string): string | null {
  for (const f of checks) {
    const v = rec[f.name];
    if (v === undefined || v === null) continue;
    const err = kindError(v, f.kind);
    if (err) return `${path}${f.name}: ${err}`;
    if (!f.nested) continue;
    if (f.kind === 'object') {
      const e = fieldsError(v as Record<string, unknown>, f.nested, `${path}${f.name}.`);
      if (e) return e;
    } else {
      const list = v as Record<string, unknown>[];
      for (let i = 0; i < list.length; i++) {
        const e = fieldsError(list[i]!, f.nested, `${path}${f.name}[${i}].`);
        if (e) return e;
      }
    }
  }
  return null;
}

function nonBlank(v: unknown): boolean {
  return typeof v === 'string' && v.trim() !== '';
}

export function validatePerson(rec: Record<string, unknown>): Checked<SourcePerson> {
  const id = rec.person_id;
  if (id === undefined || id === null || id === '') return { ok: false, reason: 'person_id: missing' };
  if (typeof id !== 'string' || !/^per_\S+$/.test(id))
    return { ok: false, reason: 'person_id: expected an id starting with per_' };
  if (rec.updated_at === undefined || rec.updated_at === null || rec.updated_at === '')
    return { ok: false, reason: 'updated_at: missing' };
  if (typeof rec.updated_at !== 'string' || !DATE.test(rec.updated_at) || day(rec.updated_at) === null) {
    return { ok: false, reason: 'updated_at: expected a date YYYY-MM-DD' };
  }
  const err = fieldsError(rec, PERSON_CHECKS, '');
  if (err) return { ok: false, reason: err };
  if (!nonBlank(rec.full_name) && !nonBlank(rec.first_name) && !nonBlank(rec.last_name)) {
    return { ok: false, reason: 'full_name: missing (and no first_name or last_name)' };
  }
  return { ok: true, value: rec as unknown as SourcePerson };
}

export function validateCompany(rec: Record<string, unknown>): Checked<SourceCompany> {
  const id = rec.company_id;
  if (id === undefined || id === null || id === '') return { ok: false, reason: 'company_id: missing' };
  if (typeof id !== 'string' || !/^com_\S+$/.test(id))
    return { ok: false, reason: 'company_id: expected an id starting with com_' };
  const err = fieldsError(rec, COMPANY_CHECKS, '');
  if (err) return { ok: false, reason: err };
  if (!nonBlank(rec.name)) return { ok: false, reason: 'name: missing' };
  return { ok: true, value: rec as unknown as SourceCompany };
}
