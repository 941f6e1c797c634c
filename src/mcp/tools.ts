import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Entity } from '../domain/catalog/index.js';
import { inputJsonSchema, type JsonSchema, propertiesOf } from '../face/json-schema.js';
/** Rows per MCP call of a paged, row-returning tool (spec "Limits": search rows per MCP call). */
import { MCP_ROWS_PER_CALL } from '../operations/limits.js';
import type { Operation } from '../operations/types.js';
import { familyAFilterSchema, typeFamilyBFilters, typeValuesMember, whereDefs } from './filter-schema.js';
import { portable, toolOutputSchema } from './output-schema.js';

/** Rows a row tool returns per call: the operations' own MCP bound. */

export interface ToolEntry {
  op: Operation;
  tool: Tool;
  /** Which rows `columns` names: labels are read against this entity. */
  entity: Entity;
  /** Rows per call on spending tools that page rows (they have a `limit`); advertised in schema and description. */
  rowCap?: number;
}

/**
 * The MCP tools, generated from every operation that declares `mcp` (ARCHITECTURE rule 3): name and
 * annotations from the spec, description from the operation's own description, cost and limits, input
 * schema from the same valibot schema REST validates with.
 */
export function buildTools(operations: readonly Operation[]): ToolEntry[] {
  const entries: ToolEntry[] = [];
  const seen = new Set<string>();
  for (const op of operations) {
    if (!op.mcp) continue;
    if (seen.has(op.mcp.tool)) throw new Error(`MCP tool ${op.mcp.tool} is declared by two operations`);
    seen.add(op.mcp.tool);
    const inputSchema = inputJsonSchema(op);
    const props = propertiesOf(inputSchema);
    const entity: Entity = /compan/.test(op.path) ? 'company' : 'contact';
    const defs = typeFilters(op, entity, inputSchema);
    const entry: ToolEntry = { op, entity, tool: undefined as unknown as Tool };
    const limit = props.limit;
    if (op.spends && limit) {
      entry.rowCap = MCP_ROWS_PER_CALL;
      props.limit = capLimit(limit, MCP_ROWS_PER_CALL);
    }
    entry.tool = {
      name: op.mcp.tool,
      title: op.summary,
      description: describe(op, entry, props),
      inputSchema: portable({
        ...inputSchema,
        type: 'object',
        ...(Object.keys(defs).length ? { $defs: defs } : {}),
      }) as Tool['inputSchema'],
      outputSchema: toolOutputSchema(op, entity, 'dry_run' in props) as Tool['outputSchema'],
      annotations: { title: op.summary, ...op.mcp.annotations },
    };
    entries.push(entry);
  }
  return entries;
}

/**
 * Types the filter members from the catalog (filter-schema.ts): family A `filter` (contacts or companies, with the
 * where tree's `$defs`), family B's flat filters at the top level and in `filters`. Answers the `$defs` to add.
 */
function typeFilters(op: Operation, entity: Entity, schema: JsonSchema): Record<string, JsonSchema> {
  if (/values$/.test(op.path)) typeValuesMember(entity, op.family, propertiesOf(schema));
  if (op.family !== 'A') {
    typeFamilyBFilters(schema);
    return {};
  }
  // Family A refuses a member its operation does not name (operations/input-members.ts): the schema is closed too.
  schema.additionalProperties = false;
  const props = propertiesOf(schema);
  const filter = props.filter;
  if (!filter) return {};
  const typed = familyAFilterSchema(entity, filter.description);
  props.filter = 'default' in filter ? { ...typed, default: filter.default } : typed;
  return whereDefs(entity);
}

function capLimit(limit: JsonSchema, cap: number): JsonSchema {
  const max = typeof limit.maximum === 'number' ? Math.min(limit.maximum, cap) : cap;
  const out: JsonSchema = {
    ...limit,
    maximum: max,
    description:
      `${String(limit.description ?? 'Rows per call.')} Over MCP at most ${cap}; larger values are clamped to ` +
      `${cap}.`,
  };
  if (typeof limit.default === 'number') out.default = Math.min(limit.default, cap);
  return out;
}

/** Description = what the operation does, what it costs, and the limits an agent needs to plan calls. */
function describe(op: Operation, entry: ToolEntry, props: Record<string, JsonSchema>): string {
  const lines = [op.description, `Cost: ${op.cost}.`];
  const limits: string[] = [];
  if (entry.rowCap) {
    const paging = props.cursor
      ? ' Page with `cursor` = page.next_cursor; stop when it is null.'
      : props.offset
        ? ' Page with `offset`.'
        : '';
    limits.push(`At most ${entry.rowCap} rows per MCP call (limit is clamped to ${entry.rowCap}).${paging}`);
  }
  if (props.columns)
    limits.push(
      'Rows come back keyed by display label (e.g. "Company Domain"); `columns` takes labels or column names.',
    );
  limits.push('Rate limits are the per-key limits of REST (rate.limited).');
  lines.push(`Limits: ${limits.join(' ')}`);
  return lines.join('\n');
}
