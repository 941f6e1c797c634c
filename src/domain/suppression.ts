import { CONTACT_COLUMNS } from './catalog/index.js';
import type { OptOutEntry, OptOutType } from './optouts.js';

/**
 * A suppression list as the engines and the loader apply it: the opt-out list (domain/optouts.ts) split by
 * identifier type, every value already normalized there (exact string equality matches):
 * - `ids`: contact ids (`per_…`);
 * - `emails`: lowercased addresses, matched against every email column of a contact;
 * - `phones`: E.164, matched against every phone column;
 * - `slugs`: lowercase person profile slugs, matched against the profile slug;
 * - `sha256`: 64 lowercase hex digits, the SHA-256 of the UTF-8 bytes of a normalized email or phone
 *   (optouts.ts sha256Of), matched against the hash of every email and phone column's value.
 * A contact matching any entry is suppressed: it is left out of every read, and a load drops it.
 */
export interface Suppression {
  ids: readonly string[];
  emails: readonly string[];
  phones: readonly string[];
  slugs: readonly string[];
  sha256: readonly string[];
}

export const EMPTY_SUPPRESSION: Suppression = { ids: [], emails: [], phones: [], slugs: [], sha256: [] };

export function isEmptySuppression(s: Suppression): boolean {
  return s.ids.length + s.emails.length + s.phones.length + s.slugs.length + s.sha256.length === 0;
}

/** The list field of each opt-out type. */
export const SUPPRESSION_FIELD: Readonly<Record<OptOutType, keyof Suppression>> = {
  id: 'ids',
  email: 'emails',
  phone: 'phones',
  url: 'slugs',
  sha256: 'sha256',
};

/** The identifier types in the order a person matching several is counted under (the first that matches). */
export const SUPPRESSION_TYPES: readonly OptOutType[] = ['id', 'email', 'phone', 'url', 'sha256'];

/** The opt-out list (state store `allOptOuts`) as a suppression list. */
export function suppressionOf(entries: readonly OptOutEntry[]): Suppression {
  const out = { ids: [] as string[], emails: [] as string[], phones: [] as string[], slugs: [] as string[] };
  const sha256: string[] = [];
  for (const e of entries) {
    if (e.type === 'sha256') sha256.push(e.value);
    else out[SUPPRESSION_FIELD[e.type] as keyof typeof out].push(e.value);
  }
  return { ...out, sha256 };
}

export function suppressionSize(s: Suppression): number {
  return s.ids.length + s.emails.length + s.phones.length + s.slugs.length + s.sha256.length;
}

const contactPoints = CONTACT_COLUMNS.filter((c) => c.contactPoint === true && c.storage === 'VARCHAR');
const EMAIL_COLUMNS = contactPoints.filter((c) => c.name.includes('email')).map((c) => c.name);
const PHONE_COLUMNS = contactPoints.filter((c) => c.name.includes('phone')).map((c) => c.name);
const unclassified = contactPoints.filter((c) => !EMAIL_COLUMNS.includes(c.name) && !PHONE_COLUMNS.includes(c.name));
if (unclassified.length > 0)
  throw new Error(`catalog: contact point ${unclassified[0]!.name} is neither an email nor a phone column`);

/**
 * The contact columns each identifier type is matched against, read from the catalog: the id, every contact-point
 * email column (work_email), every contact-point phone column (mobile_phone, direct_phone), the profile slug, and
 * for `sha256` the hash of every email and phone column's value. A new email or phone column of the catalog is
 * matched without touching the engine or the loader.
 */
export const SUPPRESSION_COLUMNS: Readonly<Record<OptOutType, readonly string[]>> = {
  id: ['id'],
  email: EMAIL_COLUMNS,
  phone: PHONE_COLUMNS,
  url: ['network_slug'],
  sha256: [...EMAIL_COLUMNS, ...PHONE_COLUMNS],
};
