import { BREAK } from './tokens.js';

// "Assistant to the CEO" is an assistant: words after "to" name whom they serve, not their role.
const SERVES_BEFORE_TO = new Set([
  'assistant',
  'secretary',
  'staff',
  'advisor',
  'adviser',
  'aide',
  'pa',
  'deputy',
  'reporting',
  'report',
  'reports',
  'consultant',
  'counsel',
  'liaison',
  'attache',
]);
// "Attorney at Law" and "Member at Large" are whole titles, not employers.
const KEEP_AFTER_AT = new Set(['law', 'large']);

/**
 * Drops the words that do not describe the holder's own role: the served person after
 * "<assistant> to", and the employer after "at" / "@". Both run to the next break.
 */
export function maskTitleTokens(tokens: readonly string[]): readonly string[] {
  let out: string[] | null = null;
  let skipping = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (skipping) {
      if (token !== BREAK) continue;
      skipping = false;
    } else if (
      (token === 'to' && i > 0 && SERVES_BEFORE_TO.has(tokens[i - 1]!)) ||
      (token === 'at' && i > 0 && !KEEP_AFTER_AT.has(tokens[i + 1] ?? ''))
    ) {
      out ??= tokens.slice(0, i);
      skipping = true;
      continue;
    }
    out?.push(token);
  }
  return out ?? tokens;
}
