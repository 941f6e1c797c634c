import * as v from 'valibot';
import { AppError } from '../domain/errors/index.js';
import { intParam } from './schemas.js';
import type { Page } from './types.js';

/**
 * Cursor paging over a short list kept whole in the state store (saved audiences, enrichment runs, the request log),
 * newest first: the cursor names the last item shown by its sort key (time, id), so items added meanwhile do not
 * shift the next page. The cursor is opaque text (base64url JSON); a malformed one answers 400 request.invalid.
 */
export const listCursorMember = v.optional(
  v.nullable(
    v.pipe(
      v.string('must be a string'),
      v.maxLength(500, 'must be at most 500 characters'),
      v.description('page.next_cursor of the previous page, unchanged; null or absent for the first page.'),
    ),
  ),
);

export const listLimitMember = (max: number, byDefault: number) =>
  v.optional(intParam(1, max, `Items per page (default ${byDefault}, at most ${max}).`), byDefault);

type Key = [string, string];

const encode = (k: Key): string => Buffer.from(JSON.stringify(k)).toString('base64url');

function decode(cursor: string): Key {
  try {
    const k = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(k) && k.length === 2 && typeof k[0] === 'string' && typeof k[1] === 'string') return [k[0], k[1]];
  } catch {}
  throw new AppError('request.invalid', 'cursor is not a cursor this list handed out.', {
    field: 'cursor',
    hint: 'Send page.next_cursor of the previous page unchanged, or leave cursor out for the first page.',
  });
}

const before = (a: Key, b: Key): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

/** Items (already newest first by `keyOf`, descending) after the cursor, at most `limit`, with the page block. */
export function pageOf<T>(
  items: readonly T[],
  keyOf: (item: T) => Key,
  cursor: string | null | undefined,
  limit: number,
  total: number | null = null,
): { items: T[]; page: Page } {
  const after = cursor ? decode(cursor) : undefined;
  const rest = after ? items.filter((i) => before(keyOf(i), after)) : [...items];
  const shown = rest.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    items: shown,
    page: {
      returned: shown.length,
      limit,
      total,
      next_cursor: rest.length > limit && last !== undefined ? encode(keyOf(last)) : null,
    },
  };
}
