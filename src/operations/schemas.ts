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

/**
 * Hints for required members whose description alone does not say what to send. A required member without one here
 * gets its schema description as the hint.
 */
const REQUIRED_HINTS: Record<string, string> = {
  filter: 'Send "filter": {} to match every row, or filter keys to narrow it (the schema route lists them).',
};

/** The schema of the member at `path` (object entries, array items; optional and nullable wrappers looked through). */
function memberAt(schema: v.GenericSchema, path: readonly unknown[]): v.GenericSchema | undefined {
  let s: unknown = schema;
  for (const key of path) {
    while (s && typeof s === 'object' && 'wrapped' in s) s = (s as { wrapped: unknown }).wrapped;
    const node = s as { entries?: Record<string, unknown>; item?: unknown } | undefined;
    if (node?.entries && typeof key === 'string') s = node.entries[key];
    else if (node?.item && typeof key === 'number') s = node.item;
    else return undefined;
  }
  return s as v.GenericSchema | undefined;
}

/**
 * A required member left out, in the API's own words: `filter is required.` and a hint saying what to send (the
 * schema library would say `Invalid key: Expected "filter" but received undefined`).
 */
function missingMember(schema: v.GenericSchema, issue: v.BaseIssue<unknown>, path: string): AppError | undefined {
  const last = issue.path?.[issue.path.length - 1];
  if (last?.origin !== 'key' || last.type !== 'object') return undefined;
  const holder = last.input;
  if (typeof holder !== 'object' || holder === null || Object.hasOwn(holder, last.key as string)) return undefined;
  const key = String(last.key);
  const member = memberAt(schema, issue.path?.map((p) => p.key) ?? []);
  const description = member ? v.getDescription(member as Parameters<typeof v.getDescription>[0]) : undefined;
  return new AppError('request.invalid', `${path} is required.`, {
    field: path,
    hint:
      REQUIRED_HINTS[key] ??
      (description
        ? `Send "${key}": ${description}`
        : `Send "${key}"; GET /openapi.json (or the MCP tool's input schema) lists the members of each request.`),
  });
}

/**
 * Validates operation input; any issue answers 400 request.invalid naming the dotted field (a required member left
 * out says so, with a hint).
 */
export function parseInput<S extends v.GenericSchema>(schema: S, raw: unknown): v.InferOutput<S> {
  const r = v.safeParse(schema, raw, { abortPipeEarly: true });
  if (r.success) return r.output;
  const issue = r.issues[0]!;
  const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
  const missing = missingMember(schema, issue, path);
  if (missing) throw missing;
  const unknownKey = issue.type === 'strict_object' || issue.type === 'never';
  throw new AppError('request.invalid', `${path ? `${path}: ` : ''}${unknownKey ? 'unknown field' : issue.message}.`, {
    ...(path ? { field: path } : {}),
    hint: issue.expected ? `Expected ${issue.expected}.` : 'Check the request against GET /openapi.json.',
  });
}
