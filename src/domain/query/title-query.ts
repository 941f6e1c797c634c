import type { FilterKeyDef } from '../catalog/index.js';
import { invalidValue, malformed, rejected, tooManyValues } from './filter-errors.js';
import { DEFAULT_LIST_MAX } from './limits.js';
import { hasEdgeWildcard, item, quote, unique } from './shape.js';

const SUBSTRING_HINT =
  'title_query matches whole words; for a substring use where {"field": "title", "op": "contains", "value": "…"}.';

/**
 * The phrases of `title_query` (a string or an array of strings; an array matches any phrase),
 * trimmed with inner whitespace collapsed. Blank → 400; a leading or trailing wildcard → 422.
 */
export function parsePhrases(def: FilterKeyDef, raw: unknown, field: string): string[] {
  if (typeof raw === 'string') return [phrase(raw, field)];
  if (!Array.isArray(raw)) {
    throw invalidValue(
      field,
      'a string or an array of strings',
      raw,
      `Send "${def.key}": "sales manager" or a list of phrases.`,
    );
  }
  const max = def.maxValues ?? DEFAULT_LIST_MAX;
  if (raw.length > max) throw tooManyValues(field, raw.length, max);
  return unique(
    raw.map((v: unknown, i) => {
      const at = item(field, i);
      if (typeof v !== 'string') throw invalidValue(at, 'a string', v, `Every phrase of ${def.key} is a string.`);
      return phrase(v, at);
    }),
  );
}

function phrase(raw: string, field: string): string {
  const p = raw.trim().replace(/\s+/g, ' ');
  if (p === '')
    throw malformed(field, `${field} is blank.`, 'Send a phrase such as "account executive", or remove the key.');
  const edge = hasEdgeWildcard(p);
  if (edge.leading || edge.trailing) {
    throw rejected(
      field,
      `${quote(raw)} has a ${edge.leading ? 'leading' : 'trailing'} wildcard, which title_query does not take.`,
      SUBSTRING_HINT,
    );
  }
  return p;
}
