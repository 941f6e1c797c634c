import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';

/**
 * Independent checks of the MCP tools' JSON Schemas: ajv in strict mode under both drafts an MCP client may use
 * (draft-07, the SDK client's default, and 2020-12, the MCP spec's), compiled once per schema.
 */
// inlineRefs off: the where tree's depth-unrolled $defs would otherwise be inlined level into level (slow to compile).
// Strict, except that `type` may list several types (output schemas write nullable columns as ["string", "null"]).
export const ajv07 = new Ajv({ strict: true, allowUnionTypes: true, allErrors: true, inlineRefs: false });
export const ajv2020 = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, inlineRefs: false });

const cache = new WeakMap<object, ValidateFunction>();

/** A validator of `schema` (draft-07 ajv; the test suite compiles every schema under 2020-12 as well). */
export function validatorOf(schema: object): ValidateFunction {
  let v = cache.get(schema);
  if (!v) {
    v = ajv07.compile(schema);
    cache.set(schema, v);
  }
  return v;
}

/** Problems of `value` against `schema`, as short strings (empty when it validates). */
export function problems(schema: object, value: unknown): string[] {
  const v = validatorOf(schema);
  if (v(value)) return [];
  return (v.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** Checks a tool result's structuredContent against the tool's outputSchema; answers the problems. */
export function outputProblems(tool: Tool, result: { structuredContent?: unknown; isError?: boolean }): string[] {
  if (!tool.outputSchema) return [`${tool.name} declares no outputSchema`];
  if (result.structuredContent === undefined) return [`${tool.name} returned no structuredContent`];
  return problems(tool.outputSchema, result.structuredContent).map(
    (p) => `${tool.name}${result.isError ? ' (error)' : ''}: ${p}`,
  );
}

/**
 * Compiles every tool's validators up front, then lets the event loop run. The app under test serves from the test's
 * own process, so a long compile between two calls would hold its timers: idle keep-alive sockets would close just as
 * the client reuses one (ECONNRESET). Compiling first and yielding keeps the calls apart from the compiles.
 */
export async function precompile(tools: readonly Tool[]): Promise<void> {
  for (const t of tools) {
    validatorOf(t.inputSchema);
    if (t.outputSchema) validatorOf(t.outputSchema);
  }
  await new Promise((r) => setTimeout(r, 300));
}
