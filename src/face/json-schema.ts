import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { Operation } from '../operations/types.js';

export type JsonSchema = Record<string, unknown>;

/**
 * The JSON Schema of an operation's input, made from the same valibot schema REST validates with; OpenAPI
 * and the MCP tools both read it. Path params are plain properties. Actions JSON Schema cannot express
 * (transforms, custom checks) are left out: the valibot schema stays the one that decides.
 */
export function inputJsonSchema(op: Operation): JsonSchema {
  const schema = toJsonSchema(op.input, { target: 'draft-2020-12', errorMode: 'ignore' }) as JsonSchema;
  delete schema.$schema;
  return tidy(schema) as JsonSchema;
}

/**
 * The JSON Schema of an operation's response (family A `data`, family B body members), for OpenAPI and the MCP tools'
 * output schemas. `definitions` names shared schemas (the row schemas): each use becomes a `$ref` into `$defs`, so
 * the MCP face can describe its rows as it shows them (keyed by label).
 */
export function outputJsonSchema(
  op: Pick<Operation, 'output'>,
  definitions?: Record<string, v.GenericSchema>,
): JsonSchema {
  const schema = toJsonSchema(op.output, {
    target: 'draft-2020-12',
    errorMode: 'ignore',
    ...(definitions ? { definitions } : {}),
  }) as JsonSchema;
  delete schema.$schema;
  return tidy(schema) as JsonSchema;
}

/** The properties of an input schema (path, query or body members). */
export function propertiesOf(schema: JsonSchema): Record<string, JsonSchema> {
  return (schema.properties ?? {}) as Record<string, JsonSchema>;
}

/**
 * Plain JSON Schema for clients. `intParam` accepts a digit string (query strings) or a number and pipes it
 * to an integer; as JSON Schema that reads `anyOf: [string, number]` next to `type: integer`: clients see
 * just the integer.
 */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) out[k] = tidy(v);
  if (out.type === 'integer' && Array.isArray(out.anyOf) && out.anyOf.every(isDigitStringOrNumber)) delete out.anyOf;
  // A record of unknown values: JSON object keys are strings anyway, and `{}` reads as "constrains nothing".
  if (isEmpty(out.additionalProperties)) out.additionalProperties = true;
  if (JSON.stringify(out.propertyNames) === '{"type":"string"}') delete out.propertyNames;
  return out;
}

function isEmpty(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

function isDigitStringOrNumber(s: unknown): boolean {
  const o = s as JsonSchema;
  return o?.type === 'number' || (o?.type === 'string' && typeof o.pattern === 'string' && o.pattern.includes('\\d'));
}
