// Input members an operation refuses before its schema reads the input: reserved names and, in family A,
// unknown ones.
import { AppError } from '../domain/errors/index.js';
import { errorCodesOf, inputMembers } from './error-codes.js';
import type { Operation } from './types.js';

/**
 * Member names the schema library skips when it copies an object (a guard against prototype pollution). Sent by
 * a client they would vanish silently, so a filter meant to narrow would match everything; they are refused.
 */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** Path of the first reserved member name in the raw input (objects and arrays walked; depth is bounded by the body). */
function firstReserved(value: unknown, path: string[] = []): string[] | undefined {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstReserved(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of Object.keys(value)) {
    if (RESERVED.has(key)) return [...path, key];
    const found = firstReserved((value as Record<string, unknown>)[key], [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Refuses an input holding a reserved member name: 400 `filter.unknown_key` where a filter key stands (in
 * `filter`, or family B's top level and `filters`), 400 `request.invalid` elsewhere.
 */
export function refuseReservedKeys(op: Operation, raw: object): void {
  const path = firstReserved(raw);
  if (!path) return;
  const name = path[path.length - 1]!;
  const field = path.join('.');
  const filterPlace =
    errorCodesOf(op).includes('filter.unknown_key') &&
    (path[0] === 'filter' || (op.family === 'B' && (path.length === 1 || path[0] === 'filters')));
  if (filterPlace) {
    throw new AppError('filter.unknown_key', `"${name}" is not a filter key.`, {
      field,
      hint: 'Remove it; the schema route lists the filter keys.',
    });
  }
  throw new AppError('request.invalid', `"${name}" is not an accepted member name.`, {
    field,
    hint: 'Remove it from the body.',
  });
}

/**
 * Family A bodies (and query strings) take only the members their operation names: a misspelt `limt` or a
 * `dry_run` the route does not take would otherwise be dropped silently and the call run as if it were absent.
 * 400 `request.invalid` names the member and the accepted ones. Family B keeps its own rule (unknown names
 * reach the filter parser, which answers filter.unknown_key).
 */
export function refuseUnknownMembers(op: Operation, raw: object): void {
  if (op.family !== 'A') return;
  const accepted = inputMembers(op);
  if (accepted.size === 0 && !(op.input as { entries?: unknown }).entries) return;
  const unknown = Object.keys(raw).find((k) => !accepted.has(k));
  if (unknown === undefined) return;
  throw new AppError('request.invalid', `"${unknown}" is not a member of this request.`, {
    field: unknown,
    hint: accepted.size ? `Accepted: ${[...accepted].join(', ')}.` : 'This request takes no members.',
  });
}
