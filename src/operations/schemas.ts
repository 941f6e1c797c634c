import * as v from 'valibot';
import { AppError } from '../domain/errors/index.js';

/** An integer that also arrives as a query-string digit string (REST GET) or a JSON number (MCP, POST). */
export function intParam(min: number, max: number, description: string) {
  return v.pipe(
    v.union([v.pipe(v.string(), v.regex(/^-?\d+$/, 'must be a whole number'), v.transform(Number)), v.number()]),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
    v.description(description),
  );
}

export function text(description: string, maxLength = 1000) {
  return v.pipe(
    v.string(),
    v.maxLength(maxLength, `must be at most ${maxLength} characters`),
    v.description(description),
  );
}

/** Validates operation input; any issue answers 400 request.invalid naming the dotted field. */
export function parseInput<S extends v.GenericSchema>(schema: S, raw: unknown): v.InferOutput<S> {
  const r = v.safeParse(schema, raw, { abortPipeEarly: true });
  if (r.success) return r.output;
  const issue = r.issues[0]!;
  const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
  const unknownKey = issue.type === 'strict_object' || issue.type === 'never';
  throw new AppError('request.invalid', `${path ? `${path}: ` : ''}${unknownKey ? 'unknown field' : issue.message}.`, {
    ...(path ? { field: path } : {}),
    hint: issue.expected ? `Expected ${issue.expected}.` : 'Check the request against GET /openapi.json.',
  });
}
