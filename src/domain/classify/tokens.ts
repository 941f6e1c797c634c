import { ABBREVIATIONS } from './abbreviations.js';

/** Marks a hard break between roles ("CEO, Founder", "EA / PA", "Engineer - Payments"). */
export const BREAK = '|';
/** A soft break: "Sales & Marketing" keeps both words but ranks the first one ahead. */
export const AND = 'and';

const NON_ASCII = /\P{ASCII}/u;
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const APOSTROPHES = /['\u2019`]/g;
// R&D, P&L, FP&A, L&D stay one token; "Sales&Marketing" is two words joined by "and".
const SHORT_AMPERSAND = /\b([a-z]{1,2})&([a-z]{1,2})\b/g;
// V.P., E.V.P.: single letters joined by dots are one abbreviation.
const DOTTED_LETTERS = /\b([a-z])\.(?=[a-z]\b)/g;
const HARD_BREAKS = /[,/|;:()[\]{}\u2013\u2014]|\s-+\s/g;
const AND_SIGNS = /[&+]/g;
const SPLIT = /[^a-z0-9|]+/;

/**
 * Lowercased words of a title with BREAK markers between roles and abbreviations expanded.
 * Hyphens inside words split without a break ("co-founder" -> co, founder).
 */
export function tokenizeTitle(title: string): string[] {
  let text = title.toLowerCase();
  if (NON_ASCII.test(text)) text = text.normalize('NFKD').replace(COMBINING_MARKS, '');
  text = text
    .replace(APOSTROPHES, '')
    .replace(SHORT_AMPERSAND, '$1$2')
    .replace(DOTTED_LETTERS, '$1')
    .replace(/@/g, ' at ')
    .replace(HARD_BREAKS, ` ${BREAK} `)
    .replace(AND_SIGNS, ` ${AND} `);
  const out: string[] = [];
  for (const word of text.split(SPLIT)) {
    if (word === '') continue;
    if (word.includes(BREAK)) {
      if (out.length > 0 && out[out.length - 1] !== BREAK) out.push(BREAK);
      continue;
    }
    const expanded = ABBREVIATIONS.get(word);
    if (expanded) out.push(...expanded);
    else out.push(word);
  }
  while (out[out.length - 1] === BREAK) out.pop();
  return out;
}
