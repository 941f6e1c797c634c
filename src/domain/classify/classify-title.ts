import { matchFunction } from './function-rules.js';
import { maskTitleTokens } from './masks.js';
import { pickFunction } from './pick-function.js';
import { decideSeniority } from './seniority.js';
import { matchSeniority } from './seniority-rules.js';
import { tokenizeTitle } from './tokens.js';
import type { TitleClass } from './types.js';

/** Loaders see the same few hundred thousand titles again and again across millions of rows. */
export const DEFAULT_TITLE_CACHE_SIZE = 200_000;

const UNKNOWN: TitleClass = Object.freeze({ seniority: 'unknown', function: 'other', founder: false });

/** Seniority, job function and founder flag of one title, from the rule tables alone (no cache). */
export function classifyTitleUncached(title: string): TitleClass {
  const tokens = maskTitleTokens(tokenizeTitle(title));
  if (tokens.length === 0) return UNKNOWN;
  const fn = pickFunction(matchFunction(tokens));
  const { seniority, founder } = decideSeniority(matchSeniority(tokens), fn !== 'other');
  return Object.freeze({ seniority, function: fn, founder });
}

export interface TitleClassifier {
  classify(title: string | null | undefined): TitleClass;
  /** Titles currently remembered. */
  size(): number;
}

/** A classifier that remembers up to `maxEntries` titles (case-insensitive), dropping the oldest first. */
export function createTitleClassifier(maxEntries = DEFAULT_TITLE_CACHE_SIZE): TitleClassifier {
  const cache = new Map<string, TitleClass>();
  return {
    classify(title) {
      if (typeof title !== 'string') return UNKNOWN;
      const key = title.trim().toLowerCase();
      if (key === '') return UNKNOWN;
      const known = cache.get(key);
      if (known) return known;
      const result = classifyTitleUncached(key);
      if (maxEntries > 0) {
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(key, result);
      }
      return result;
    },
    size: () => cache.size,
  };
}

const shared = createTitleClassifier();

/** Seniority, job function and founder flag of a contact's title; results are frozen and shared. */
export function classifyTitle(title: string | null | undefined): TitleClass {
  return shared.classify(title);
}
