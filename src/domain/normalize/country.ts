import { foldListValue, listValues } from '../catalog/index.js';

/** Looser key than the catalog's fold: accents, dots, commas, apostrophes, brackets, `&`/`and`, `st`/`saint`. */
function looseKey(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[.,'’()]/g, ' ')
    .replace(/[\s_-]+/g, ' ')
    .trim()
    .replace(/^the /, '')
    .replace(/^st /, 'saint ');
}

let looseIndex: Map<string, string> | undefined;
function looseMap(): Map<string, string> {
  if (!looseIndex) {
    looseIndex = new Map();
    for (const v of listValues('country')) {
      for (const form of [v.slug, v.label, ...(v.aliases ?? [])]) looseIndex.set(looseKey(form), v.slug);
    }
  }
  return looseIndex;
}

/** ISO-2 slug of a country code (alpha-2 or alpha-3), English name or alias; undefined when unknown. */
export function normalizeCountry(input: string): string | undefined {
  if (input.length > 200) return undefined;
  return foldListValue('country', input) ?? looseMap().get(looseKey(input));
}
