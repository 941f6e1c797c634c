import { examplesOf, type OperationExample } from '../../operations/examples/index.js';
import type { Operation } from '../../operations/types.js';

/** An example's name in the OpenAPI `examples` maps: its summary as a slug, unique within the operation. */
function keysOf(examples: readonly OperationExample[]): string[] {
  const seen = new Set<string>();
  return examples.map((ex, i) => {
    let key =
      ex.summary
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_|_$/g, '') || `example_${i + 1}`;
    if (seen.has(key)) key = `${key}_${i + 1}`;
    seen.add(key);
    return key;
  });
}

export interface OpenApiExamples {
  /** Per parameter (path or query), its value in each example that sets it. */
  parameters: Record<string, Record<string, { value: unknown }>>;
  /** The request bodies (POST, PATCH), when any example sends one. */
  body?: Record<string, { summary: string; value: unknown }>;
  /** The answers, with their status in the description. */
  responses: Record<string, { summary: string; description: string; value: unknown }>;
}

/**
 * The operation's examples as OpenAPI publishes them, under the same names in parameters, request body and
 * response, so that a reader (the /docs page) can put one example back together from the document.
 */
export function openApiExamples(op: Operation): OpenApiExamples {
  const examples = examplesOf(op);
  const keys = keysOf(examples);
  const out: OpenApiExamples = { parameters: {}, responses: {} };
  examples.forEach((ex, i) => {
    const key = keys[i]!;
    for (const [name, value] of Object.entries({ ...ex.request.params, ...ex.request.query })) {
      out.parameters[name] ??= {};
      out.parameters[name][key] = { value };
    }
    if (ex.request.body !== undefined) {
      out.body ??= {};
      out.body[key] = { summary: ex.summary, value: ex.request.body };
    }
    out.responses[key] = { summary: ex.summary, description: `HTTP ${ex.response.status}.`, value: ex.response.body };
  });
  return out;
}
