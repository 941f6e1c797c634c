import type { Entity } from '../../domain/catalog/index.js';

/**
 * Search-cluster index names. A release is two concrete indices, `<prefix>contacts-<release>` and
 * `<prefix>companies-<release>`; the aliases `<prefix>contacts` and `<prefix>companies` name the serving release and
 * are swapped together in one `_aliases` call. Queries name the concrete indices of the release they pinned, never
 * the aliases, so a count and its page (or every slice of an export) read one release.
 */
export const INDEX_BASE: Readonly<Record<Entity, string>> = { contact: 'contacts', company: 'companies' };

/** The alias of an entity (the serving release). */
export function aliasName(prefix: string, entity: Entity): string {
  return `${prefix}${INDEX_BASE[entity]}`;
}

/** The concrete index of an entity in one release. */
export function releaseIndex(prefix: string, entity: Entity, releaseId: string): string {
  return `${prefix}${INDEX_BASE[entity]}-${releaseId.toLowerCase()}`;
}

/** The release id of a concrete contacts index, or null for another name. */
export function releaseOfIndex(prefix: string, entity: Entity, index: string): string | null {
  const head = `${prefix}${INDEX_BASE[entity]}-`;
  return index.startsWith(head) ? index.slice(head.length) : null;
}

/**
 * Engine-only contact field beyond the catalog: the SHA-256 (hex) of each email and phone value, written at load, so
 * a suppression list's `sha256` entries are matched by a term query (domain/suppression.ts).
 */
export const SHA256_FIELD = 'suppression_sha256';

/** Sub-fields every text and list column carries (mappings.ts). */
export const LOWER = 'lower';
export const WORDS = 'words';
/** Sub-field of a date column typed `date` (ranges read it). */
export const DATE = 'date';

/** Longest text (characters) a keyword field indexes; longer values stay in _source only (docs/search-cluster.md). */
export const IGNORE_ABOVE = 8191;
