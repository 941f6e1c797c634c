import { AppError } from '../errors/index.js';
import { describeType } from './shape.js';

/** Builders for the four codes a filter can fail with; each names the field and suggests a next step. */

/** 400: the JSON is not the shape the filter language expects (wrong type, blank value, bad format). */
export function invalidValue(field: string, expected: string, got: unknown, hint: string): AppError {
  return new AppError('request.invalid', `${field} must be ${expected}, not ${describeType(got)}.`, { field, hint });
}

/** 400 with a free message, for well-typed values that are still malformed (blank phrase, bad domain). */
export function malformed(field: string, message: string, hint: string): AppError {
  return new AppError('request.invalid', message, { field, hint });
}

/** 422: valid JSON the filter language refuses (limits, operators, wildcards, value kinds). */
export function rejected(field: string, message: string, hint: string): AppError {
  return new AppError('filter.rejected', message, { field, hint });
}

/** 400: a flat key or `where` field that does not exist. */
export function unknownKey(field: string, message: string, hint: string): AppError {
  return new AppError('filter.unknown_key', message, { field, hint });
}

/** 400: a value outside a closed list. */
export function unknownValue(field: string, message: string, hint: string, allowed?: readonly string[]): AppError {
  return new AppError('filter.unknown_value', message, {
    field,
    hint,
    ...(allowed !== undefined ? { details: { allowed: [...allowed] } } : {}),
  });
}

/** 422 for a list over its limit. */
export function tooManyValues(field: string, count: number, max: number): AppError {
  return rejected(
    field,
    `${field} holds ${count} values; at most ${max} are accepted.`,
    `Split the values over several requests of at most ${max}.`,
  );
}
