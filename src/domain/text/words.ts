import { lowerText } from './lower.js';

/**
 * Whole-word text matching, shared by the loader and the engines. A text's words are its runs of letters
 * and digits, lowercased (lowerText: code point by code point, as the engines lowercase); its words key is
 * those words joined by single spaces with a space at each end.
 * A phrase matches a text as whole words exactly when the text's key contains the phrase's key — a plain
 * substring test, so engines need no regular expression (and client text never becomes one).
 */
const TOKEN = /[\p{L}\p{N}]+/gu;

export function wordTokens(text: string): string[] {
  return lowerText(text).match(TOKEN) ?? [];
}

/** ' head of growth ' for "Head of Growth, EMEA" → ' head of growth emea '; null for no words. */
export function wordsKey(text: string | null | undefined): string | null {
  if (!text) return null;
  const tokens = wordTokens(text);
  return tokens.length ? ` ${tokens.join(' ')} ` : null;
}
