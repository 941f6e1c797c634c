import { wordTokens } from '../../../domain/text/words.js';

/**
 * Whole-word phrase matching on a column without a words companion: the phrase's letter/digit tokens as
 * consecutive whole words with any non-alphanumeric run between them, case-insensitively. The regular
 * expression is built only from those tokens (letters and digits), so client text cannot inject syntax.
 */
export function phrasePattern(phrase: string): string | undefined {
  const tokens = wordTokens(phrase);
  if (tokens.length === 0) return undefined;
  return `(^|[^\\pL\\pN])${tokens.join('[^\\pL\\pN]+')}([^\\pL\\pN]|$)`;
}
