import { classifyEnrichInput } from '../normalize/index.js';

/**
 * Which column of an uploaded sheet holds what. Email, phone and profile URL are the identifiers a row is matched
 * on (the rules of POST /v1/enrichments); domain restricts a match to that employer like `company_domain`; the name
 * and company columns are recognized so the user can see them mapped, and are kept in the result as input columns.
 */
export const UPLOAD_FIELDS = [
  'email',
  'phone',
  'profile_url',
  'first_name',
  'last_name',
  'full_name',
  'company_name',
  'domain',
] as const;
export type UploadField = (typeof UPLOAD_FIELDS)[number];
export const IDENTIFIER_FIELDS: readonly UploadField[] = ['email', 'profile_url', 'phone'];

/** Field -> the header it reads (exact header text), or null when unmapped. */
export type ColumnMapping = Record<UploadField, string | null>;

/** A mapping checked against a sheet's headers, with the column index of each mapped field. */
export type CheckedMapping = { indexes: Partial<Record<keyof ColumnMapping, number>>; mapping: ColumnMapping };

export const FIELD_LABELS: Readonly<Record<UploadField, string>> = {
  email: 'Email',
  phone: 'Phone',
  profile_url: 'Profile URL',
  first_name: 'First name',
  last_name: 'Last name',
  full_name: 'Full name',
  company_name: 'Company name',
  domain: 'Company domain',
};

/** Header patterns, tried in this order over headers folded to lowercase letters and digits. */
const HEADER_RULES: ReadonlyArray<[UploadField, RegExp]> = [
  ['profile_url', /linkedin|profile|networkurl|personurl|socialurl/],
  ['email', /e?mail|courriel/],
  ['phone', /phone|mobile|tel|cell|gsm/],
  ['first_name', /^first|firstname|givenname|forename|prenom/],
  ['last_name', /^last|lastname|surname|familyname/],
  ['domain', /domain|website|web$|homepage|companyurl|site/],
  ['company_name', /company|organi[sz]ation|employer|account|business|firm/],
  ['full_name', /^(full)?name$|^nom$|fullname|contactname|personname|^contact$|^person$/],
];

const fold = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Guesses from the headers first; an identifier still unmapped then takes the first free column whose sample
 * values mostly (at least half of the non-empty ones) read as that kind of identifier.
 */
export function guessMapping(headers: readonly string[], sample: readonly string[][], host: string): ColumnMapping {
  const mapping = Object.fromEntries(UPLOAD_FIELDS.map((f) => [f, null])) as ColumnMapping;
  const used = new Set<number>();
  for (const [field, rule] of HEADER_RULES) {
    const i = headers.findIndex((h, idx) => !used.has(idx) && rule.test(fold(h)));
    if (i >= 0 && mapping[field] === null) {
      mapping[field] = headers[i]!;
      used.add(i);
    }
  }
  const kindOf = { email: 'email', profile_url: 'network', phone: 'phone' } as const;
  for (const field of IDENTIFIER_FIELDS) {
    if (mapping[field] !== null) continue;
    const kind = kindOf[field as keyof typeof kindOf];
    const i = headers.findIndex((_, idx) => {
      if (used.has(idx)) return false;
      const cells = sample.map((r) => r[idx] ?? '').filter((c) => c.trim() !== '');
      const hits = cells.filter((c) => classifyEnrichInput(c, host).kind === kind).length;
      return cells.length > 0 && hits * 2 >= cells.length;
    });
    if (i >= 0) {
      mapping[field] = headers[i]!;
      used.add(i);
    }
  }
  return mapping;
}

/** Header text -> column index, for the mapped fields (an unknown header is reported to the caller). */
export function mappingIndexes(
  headers: readonly string[],
  mapping: Partial<Record<string, unknown>>,
):
  | { ok: true; indexes: Partial<Record<UploadField, number>>; mapping: ColumnMapping }
  | { ok: false; message: string } {
  const indexes: Partial<Record<UploadField, number>> = {};
  const clean = Object.fromEntries(UPLOAD_FIELDS.map((f) => [f, null])) as ColumnMapping;
  for (const [key, value] of Object.entries(mapping)) {
    if (!(UPLOAD_FIELDS as readonly string[]).includes(key))
      return { ok: false, message: `Unknown mapping field "${key}"; fields are ${UPLOAD_FIELDS.join(', ')}.` };
    if (value === null || value === undefined || value === '') continue;
    if (typeof value !== 'string') return { ok: false, message: `The mapping of ${key} must be a column header.` };
    const i = headers.indexOf(value);
    if (i < 0)
      return { ok: false, message: `The mapping of ${key} names "${value}", which is not a column of the file.` };
    indexes[key as UploadField] = i;
    clean[key as UploadField] = value;
  }
  return { ok: true, indexes, mapping: clean };
}

/** Whether a mapping names at least one identifier column (email, phone or profile URL). */
export function hasIdentifier(mapping: ColumnMapping): boolean {
  return IDENTIFIER_FIELDS.some((f) => mapping[f] !== null);
}
