import type { FamilyBParamDef } from '../catalog/index.js';
import { invalidValue, malformed, tooManyValues } from '../query/filter-errors.js';
import { DEFAULT_LIST_MAX } from '../query/limits.js';
import { FILTER_NUMBER_RANGE_TEXT, filterNumber, inFilterRange } from '../query/number-range.js';
import { isIsoDate, item, quote } from '../query/shape.js';

/**
 * Readers of raw JSON parameter values by the spec's JSON type; wrong types are 400 `request.invalid` naming the field.
 */

/** A `string[]` parameter: an array of strings, or one string (wrapped). Blank elements are refused. */
export function readStringList(
  def: FamilyBParamDef,
  raw: unknown,
  field: string,
): Array<{ value: string; at: string }> {
  if (typeof raw === 'string') return raw.trim() === '' ? [] : [{ value: raw, at: field }];
  if (!Array.isArray(raw))
    throw invalidValue(field, 'an array of strings', raw, `Send a list, for example "${def.name}": ["…"].`);
  const max = def.maxValues ?? DEFAULT_LIST_MAX;
  if (raw.length > max) throw tooManyValues(field, raw.length, max);
  return raw.map((v: unknown, i) => {
    const at = item(field, i);
    if (typeof v !== 'string') throw invalidValue(at, 'a string', v, `Every value of ${def.name} is a string.`);
    if (v.trim() === '') throw malformed(at, `${at} is blank.`, `Remove the empty value from ${def.name}.`);
    return { value: v, at };
  });
}

/** A `string` parameter; blank (or only whitespace) counts as not sent, like null. */
export function readString(def: FamilyBParamDef, raw: unknown, field: string): string | undefined {
  if (typeof raw !== 'string') throw invalidValue(field, 'a string', raw, `Send "${def.name}": "…".`);
  return raw.trim() === '' ? undefined : raw;
}

/** Comma-separated values of one string (keywords, email domains): trimmed, empty pieces dropped, count limited. */
export function splitCommas(def: FamilyBParamDef, text: string, field: string): string[] {
  const pieces = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const max = def.maxValues ?? DEFAULT_LIST_MAX;
  if (pieces.length > max) throw tooManyValues(field, pieces.length, max);
  return pieces;
}

export function readNumber(raw: unknown, field: string): number {
  if (typeof raw !== 'number' || !Number.isFinite(raw))
    throw invalidValue(field, 'a number', raw, 'Send a number without quotes, for example 50.');
  if (!inFilterRange(raw))
    throw invalidValue(field, `a number ${FILTER_NUMBER_RANGE_TEXT}`, raw, 'Send a number inside that range.');
  return filterNumber(raw);
}

export function readBoolean(raw: unknown, field: string): boolean {
  if (typeof raw !== 'boolean') throw invalidValue(field, 'true or false', raw, 'Send a JSON boolean without quotes.');
  return raw;
}

export function readDate(raw: unknown, field: string): string {
  const hint = 'Send a date such as "2024-06-30".';
  if (typeof raw !== 'string') throw invalidValue(field, 'a date in YYYY-MM-DD format', raw, hint);
  const s = raw.trim();
  if (!isIsoDate(s)) throw malformed(field, `${field} must be a date in YYYY-MM-DD format; got ${quote(raw)}.`, hint);
  return s;
}

/**
 * Text for a substring or keyword match. Substring already matches anywhere, so `*` and `%` at the
 * edges add nothing and are dropped; text that is only wildcards is refused.
 */
export function substringText(raw: string, field: string, name: string): string {
  const s = raw.trim().replace(/^[*%\s]+|[*%\s]+$/g, '');
  if (s === '')
    throw malformed(
      field,
      `${field} has no text besides wildcards.`,
      `Send the text to look for in ${name}; it matches anywhere.`,
    );
  return s;
}
