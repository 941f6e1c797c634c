import { lowerText } from '../text/lower.js';

/** The spec's legal suffixes, of which normalizeCompanyName strips one at the end of a name. */
export const LEGAL_SUFFIXES: readonly string[] = [
  'inc',
  'inc.',
  'incorporated',
  'llc',
  'l.l.c.',
  'ltd',
  'ltd.',
  'limited',
  'corp',
  'corp.',
  'corporation',
  'co',
  'co.',
  'gmbh',
  'ag',
  'sa',
  's.a.',
  'bv',
  'b.v.',
  'plc',
  'pty ltd',
  'srl',
];

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Longest first so "pty ltd" wins over "ltd"; the suffix must be a whole word (start, space or comma before it).
const TRAILING_SUFFIX = new RegExp(
  `(?:^|[\\s,]+)(?:${[...LEGAL_SUFFIXES]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|')})$`,
);

/**
 * Spec "Company-name normalization": lowercase (lowerText, as every text match), trim and collapse whitespace,
 * strip one trailing legal suffix (optional comma before it), then a leading `the `. '' when nothing remains.
 * A bare "the" is kept: with no name after it, it is the name.
 */
export function normalizeCompanyName(input: string): string {
  const collapsed = lowerText(input).replace(/\s+/g, ' ').trim();
  const stripped = collapsed.replace(TRAILING_SUFFIX, '').trim();
  return stripped.replace(/^the /, '');
}
