/**
 * Whole-word phrase matching (`words` leaves): the phrase is split into letter/digit tokens and matched as
 * consecutive whole words with any non-alphanumeric run between them, case-insensitively. The regular
 * expression is built only from those tokens (letters and digits), so client text cannot inject syntax.
 */
const TOKEN = /[\p{L}\p{N}]+/gu;

export function phraseTokens(phrase: string): string[] {
  return phrase.toLowerCase().match(TOKEN) ?? [];
}

export function phrasePattern(phrase: string): string | undefined {
  const tokens = phraseTokens(phrase);
  if (tokens.length === 0) return undefined;
  return `(^|[^\\pL\\pN])${tokens.join('[^\\pL\\pN]+')}([^\\pL\\pN]|$)`;
}
