import { ERROR_CATALOG, type ErrorCode } from '../domain/errors/index.js';
import type { Operation } from './types.js';

/**
 * The error codes an operation can answer: those of its kind, from what it declares (auth, spending, the credits
 * it charges, a `filter` or `cursor` input), plus the codes it declares it raises itself (`errors`). OpenAPI
 * publishes this list; with CDS_CHECK_CONTRACTS=1 (the test suite) invokeOperation refuses any other code, so
 * the list cannot drift from the code.
 */
export function errorCodesOf(op: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['request.invalid', 'internal.error', ...op.errors]);
  const members = inputMembers(op);
  if (op.auth === 'key' || op.auth === 'optional') codes.add('auth.invalid_key').add('rate.limited');
  if (op.auth === 'operator') codes.add('auth.invalid_key').add('auth.oauth_required');
  if (op.spends) codes.add('account.suspended');
  if (op.spends && op.method === 'POST') codes.add('idempotency.mismatch').add('idempotency.in_progress');
  if (op.charges === 'contact') codes.add('contact_credits.exhausted');
  if (op.charges === 'premium') codes.add('premium_credits.exhausted');
  if (members.has('filter')) codes.add('filter.unknown_key').add('filter.unknown_value').add('filter.rejected');
  if (members.has('cursor')) codes.add('cursor.expired');
  return [...codes].sort((a, b) => ERROR_CATALOG[a].status - ERROR_CATALOG[b].status || a.localeCompare(b));
}

/** The top-level members of an operation's input object schema. */
export function inputMembers(op: Operation): Set<string> {
  const entries = (op.input as { entries?: Record<string, unknown> }).entries;
  return new Set(entries ? Object.keys(entries) : []);
}
