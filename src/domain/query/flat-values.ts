import type { Entity, FilterKeyDef } from '../catalog/index.js';
import { normalizeCompanyName, normalizeDomain } from '../normalize/index.js';
import { lowerText } from '../text/lower.js';
import { invalidValue, malformed, tooManyValues } from './filter-errors.js';
import { DEFAULT_LIST_MAX } from './limits.js';
import { filterNumber } from './number-range.js';
import { isYearMonth, item, quote, unique } from './shape.js';
import { foldOrThrow } from './values.js';

type Normalize = NonNullable<FilterKeyDef['normalize']>;
type Normalizer = (raw: string, field: string, def: FilterKeyDef, entity: Entity) => string;

/** One normalizer per catalog `normalize` tag: the value the engine stores for `raw`, or an error. */
const NORMALIZERS: Readonly<Record<Normalize, Normalizer>> = {
  country: (raw, field, _def, entity) => foldOrThrow('country', raw, field, entity),
  industry: (raw, field, _def, entity) => foldOrThrow('industry', raw, field, entity),
  lowercase: (raw) => lowerText(raw.trim()),
  domain: (raw, field) => {
    const domain = normalizeDomain(raw);
    if (domain === undefined)
      throw malformed(field, `${quote(raw)} is not a domain.`, 'Send a bare domain such as acme.com or a website URL.');
    return domain;
  },
  company_name: (raw, field) => {
    const name = normalizeCompanyName(raw);
    if (name === '') {
      throw malformed(
        field,
        `${quote(raw)} is empty after company-name normalization.`,
        'Send the company name itself, not only a legal suffix such as "Inc".',
      );
    }
    return name;
  },
  company_id: (raw, field) => idWithPrefix(raw, 'com_', field),
  none: (raw, field, def, entity) => (def.list !== undefined ? foldOrThrow(def.list, raw, field, entity) : raw.trim()),
};

/** A prefixed id (`com_…`, `per_…`); ids are opaque otherwise, so an unknown one simply matches nothing. */
export function idWithPrefix(raw: string, prefix: string, field: string): string {
  const id = raw.trim();
  if (!id.startsWith(prefix) || id.length === prefix.length) {
    throw malformed(
      field,
      `${quote(raw)} is not an id starting with ${prefix}.`,
      `Send ids as returned by the API, such as ${prefix}… .`,
    );
  }
  return id;
}

/**
 * The normalized, de-duplicated values of a list key. The size limit is checked on the raw list,
 * before any per-value work, so an oversized list costs nothing.
 */
export function parseValueList(def: FilterKeyDef, raw: unknown, field: string, entity: Entity): string[] {
  if (!Array.isArray(raw)) {
    throw invalidValue(field, 'an array of strings', raw, `Send a list, for example "${def.key}": ["…"].`);
  }
  const max = def.maxValues ?? DEFAULT_LIST_MAX;
  if (raw.length > max) throw tooManyValues(field, raw.length, max);
  const normalize = NORMALIZERS[def.normalize ?? 'none'];
  return unique(
    raw.map((v: unknown, i) => {
      const at = item(field, i);
      if (typeof v !== 'string') throw invalidValue(at, 'a string', v, `Every value of ${def.key} is a string.`);
      if (v.trim() === '') throw malformed(at, `${at} is blank.`, `Remove the empty value from ${def.key}.`);
      return normalize(v, at, def, entity);
    }),
  );
}

/** An integer bound (`employee_count_min`, ...). */
export function parseInteger(raw: unknown, field: string): number {
  if (typeof raw !== 'number' || !Number.isSafeInteger(raw)) {
    throw invalidValue(field, 'an integer', raw, 'Send a whole number without quotes, for example 50.');
  }
  return filterNumber(raw);
}

/** A `YYYY-MM` month bound (`last_round_after`, ...). */
export function parseMonth(raw: unknown, field: string): string {
  const hint = 'Send a month such as "2024-06".';
  if (typeof raw !== 'string') throw invalidValue(field, 'a month in YYYY-MM format', raw, hint);
  if (!isYearMonth(raw.trim()))
    throw malformed(field, `${field} must be a month in YYYY-MM format; got ${quote(raw)}.`, hint);
  return raw.trim();
}

export function parseBoolean(raw: unknown, field: string): boolean {
  if (typeof raw !== 'boolean') throw invalidValue(field, 'true or false', raw, 'Send a JSON boolean without quotes.');
  return raw;
}
