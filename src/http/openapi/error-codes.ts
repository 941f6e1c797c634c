import { ERROR_CATALOG, type ErrorCode } from '../../domain/errors/index.js';
import type { Operation } from '../../operations/types.js';
import { inputJsonSchema, propertiesOf } from './input-schema.js';

const ALL_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

/**
 * The error codes a route can answer, read from the operation itself so the docs cannot drift: codes its
 * description or cost names, plus those implied by its auth, its spending, and its input members
 * (`filter`, `cursor`). Every route can answer request.invalid (malformed request or Service-Version).
 */
export function errorCodesOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['request.invalid', 'internal.error']);
  const props = propertiesOf(inputJsonSchema(op));
  if (op.auth === 'key' || op.auth === 'optional') codes.add('auth.invalid_key').add('rate.limited');
  if (op.auth === 'operator') codes.add('auth.invalid_key').add('auth.oauth_required');
  if (op.spends) codes.add('account.suspended');
  if (op.spends && /contact credit/i.test(op.cost)) codes.add('contact_credits.exhausted');
  if (op.spends && /premium credit/i.test(op.cost)) codes.add('premium_credits.exhausted');
  if (props.filter) codes.add('filter.unknown_key').add('filter.unknown_value').add('filter.rejected').add('data.unavailable').add('query.timeout');
  if (props.cursor) codes.add('cursor.expired');
  const text = `${op.description} ${op.cost}`;
  for (const code of ALL_CODES) if (text.includes(code)) codes.add(code);
  return [...codes].sort((a, b) => ERROR_CATALOG[a].status - ERROR_CATALOG[b].status || a.localeCompare(b));
}
