import { foldListValue, listValues } from '../catalog/index.js';

/**
 * The industry slug rule: lowercase, `&` -> `and`, hyphens and slashes -> `_`, other punctuation dropped, spaces ->
 * `_`.
 */
export function slugifyLabel(label: string): string {
  return label
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[-/]/g, ' ')
    .replace(/[^a-z0-9 ]/g, '')
    .trim()
    .replace(/\s+/g, '_');
}

let slugIndex: Map<string, string> | undefined;
/** Every slug, label and alias under its slugified form, so punctuation and `&`/`and` need not match. */
function slugMap(): Map<string, string> {
  if (!slugIndex) {
    slugIndex = new Map();
    for (const v of listValues('industry')) {
      for (const form of [v.slug, v.label, ...(v.aliases ?? [])]) slugIndex.set(slugifyLabel(form), v.slug);
    }
  }
  return slugIndex;
}

/** Industry slug from a slug, label or alias (any case, `&` or `and`); undefined when unknown. */
export function industrySlug(input: string): string | undefined {
  if (input.length > 300) return undefined;
  return foldListValue('industry', input) ?? slugMap().get(slugifyLabel(input));
}
