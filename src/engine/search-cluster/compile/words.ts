import { wordTokens } from '../../../domain/text/words.js';

/**
 * The text of a whole-word phrase as `match_phrase` gets it: the phrase's letter/digit tokens joined by single
 * spaces, which the `cds_words` analyzer splits back into the same tokens; undefined when it has none (the leaf
 * matches nothing, as in DuckDB). Only letters, digits and spaces reach the cluster.
 */
export function phraseText(phrase: string): string | undefined {
  const tokens = wordTokens(phrase);
  return tokens.length ? tokens.join(' ') : undefined;
}

/** A `wildcard` pattern's literal text: `*`, `?` and `\` escaped, so client text is never a pattern. */
export function wildcardLiteral(text: string): string {
  return text.replace(/[\\*?]/g, (c) => `\\${c}`);
}
