import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from './errors/index.js';

/**
 * Stateless cursors (ARCHITECTURE rule 6): base64url(JSON payload) + "." + base64url(HMAC-SHA256).
 * The payload pins the query (a hash of the canonical filter, columns and paging options), the order, the
 * release (build + data) and the sort key of the last row delivered.
 */
export interface CursorPayload {
  /** Release name (build + data release) that minted the cursor. */
  r: string;
  /** Hash of the canonical query the cursor belongs to. */
  q: string;
  /** Sort key of the last row delivered. */
  k: number;
}

const ORDER = 'sort_key_asc';

export function queryHash(query: unknown): string {
  return createHash('sha256')
    .update(`${ORDER}:${canonicalJson(query)}`)
    .digest('base64url')
    .slice(0, 22);
}

/** JSON with object keys sorted, so equal queries hash equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    // A list of plain values (a filter's 1,000 domains) is its JSON as it is: only objects have keys to sort.
    if (value.every((v) => v === null || typeof v !== 'object')) return JSON.stringify(value);
    return `[${value.map(canonicalJson).join(',')}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function sign(secret: string, body: string): Buffer {
  return createHmac('sha256', secret).update(`cursor.v1.${body}`).digest();
}

export function encodeCursor(secret: string, payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(secret, body).toString('base64url')}`;
}

const invalid = () =>
  new AppError('request.invalid', 'The cursor is not valid.', {
    field: 'cursor',
    hint: 'Pass page.next_cursor back unchanged, or start again with cursor null.',
  });

/** Verifies the signature in constant time, then the release and the query. */
export function decodeCursor(
  secret: string,
  token: string,
  expect: { buildLabel: string; queryHash: string },
): CursorPayload {
  const dot = token.indexOf('.');
  if (dot <= 0 || token.length > 2000) throw invalid();
  const body = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const want = sign(secret, body);
  if (given.length !== want.length || !timingSafeEqual(given, want)) throw invalid();
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorPayload;
  } catch {
    throw invalid();
  }
  if (typeof payload.r !== 'string' || typeof payload.q !== 'string' || !Number.isSafeInteger(payload.k))
    throw invalid();
  if (payload.r !== expect.buildLabel) {
    throw new AppError('cursor.expired', 'The cursor was minted by an earlier release; restart the search.', {
      field: 'cursor',
      hint: 'Send the same request with cursor null.',
    });
  }
  if (payload.q !== expect.queryHash) {
    throw new AppError('request.invalid', 'The cursor belongs to another query.', {
      field: 'cursor',
      hint: 'A cursor pins the filter, columns and paging options; send them unchanged or start with cursor null.',
    });
  }
  return payload;
}
