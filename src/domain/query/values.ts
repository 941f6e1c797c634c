import { type Entity, findList, foldListValue, publicColumns, valuesRoute } from '../catalog/index.js';
import type { AppError } from '../errors/index.js';
import { industrySlug, normalizeCountry } from '../normalize/index.js';
import { lowerText } from '../text/lower.js';
import { unknownValue } from './filter-errors.js';
import { HINT_MAX_SLUGS } from './limits.js';
import { quote } from './shape.js';

/**
 * Closed-list folding shared by flat keys and `where` leaves: a label or alias becomes its slug,
 * exactly as the loader stored it. Lists too large or open for the catalog (countries, industries)
 * use the normalize module; data-derived lists accept any value (an unknown one just matches nothing).
 */
const LIST_FOLDERS: Readonly<Record<string, (raw: string) => string | undefined>> = {
  country: normalizeCountry,
  industry: industrySlug,
  // Skills are stored lowercase (spec "Filter object"), lowercased as every text match is (lowerText).
  skills: (raw) => lowerText(raw.trim()),
};

/** The stored form of `raw` in list `listName`, or undefined when a closed list does not hold it. */
export function foldValue(listName: string, raw: string): string | undefined {
  const folder = LIST_FOLDERS[listName];
  if (folder) return folder(raw) || undefined;
  const list = findList(listName);
  if (!list || list.fromData) return raw.trim();
  return foldListValue(listName, raw);
}

/** Like foldValue, but an unknown value is a 400 `filter.unknown_value` naming the allowed values. */
export function foldOrThrow(listName: string, raw: string, field: string, entity: Entity): string {
  const slug = foldValue(listName, raw);
  if (slug !== undefined) return slug;
  throw unknownListValue(listName, raw, field, entity);
}

/** The values route of the entity's first public column holding the list (the country column for countries). */
export function listRoute(entity: Entity, listName: string): string | null {
  const col = publicColumns(entity).find((c) => c.list === listName);
  return col ? valuesRoute(col) : null;
}

function unknownListValue(listName: string, raw: string, field: string, entity: Entity): AppError {
  const slugs = (findList(listName)?.values ?? []).map((v) => v.slug);
  const route = listRoute(entity, listName);
  const message = `${quote(raw)} is not a known ${listName} value.`;
  // The spec asks the hint to print every allowed slug; a list of ~250 countries goes to its route instead.
  if (slugs.length > 0 && slugs.length <= HINT_MAX_SLUGS) {
    const more = route ? ` Labels and aliases are folded too; GET ${route} lists them.` : '';
    return unknownValue(field, message, `Use one of: ${slugs.join(', ')}.${more}`, slugs);
  }
  return unknownValue(
    field,
    message,
    `List the allowed values with GET ${route ?? `/v1/${entity === 'contact' ? 'contacts' : 'companies'}/schema`}.`,
  );
}
