/**
 * Case-insensitive text matching's lowercasing, the same in every engine: each code point on its own, by Unicode's
 * simple lowercase mapping. That is what DuckDB's `lower()` and Lucene's `lowercase` filter (Elasticsearch's
 * `cds_lowercase` normalizer and `cds_words` analyzer) do. JavaScript's `toLowerCase` differs in two places: it
 * lowercases a word-final `Σ` to `ς` (by context) and `İ` (U+0130) to `i` plus a combining dot (two code points);
 * here `Σ` is always `σ` and `İ` is `i`, as the engines read the stored text. test/engine/unicode-case.test.ts checks
 * this against DuckDB's `lower()` over every code point.
 */
const NON_ASCII = /[^\p{ASCII}]/u;

export function lowerText(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  let out = '';
  for (const ch of text) out += ch === '\u0130' ? 'i' : ch.toLowerCase();
  return out;
}
