import { type ColumnDef, type Entity, publicColumns } from '../domain/catalog/index.js';
import { WARNING_CODES } from '../domain/errors/index.js';
import { type JsonSchema, outputJsonSchema } from '../face/json-schema.js';
import { quoteOutput } from '../operations/dry-run.js';
import * as out from '../operations/outputs.js';
import type { Operation } from '../operations/types.js';

/**
 * The `outputSchema` of an MCP tool (MCP 2025-06-18): what `structuredContent` really holds, generated from the
 * operation's declared `output` (the schema the test suite checks every answer against) and the envelope callTool
 * builds. It is one of:
 * - the answer: family A `{data, page?, warnings, quota?}`, family B the body members; rows keyed by display label
 *   (labels.ts), described column by column from the catalog;
 * - on `dry_run: true` (spending tools), the quote in place of the answer (family A inside `data`);
 * - on a tool error (`isError: true`), the error body `{code, message, hint?, field?, details?}`.
 */

/** `$defs` names of the row schemas (operations/outputs.ts `row` and `contactRow`). */
const ROW = 'row';
const CONTACT_ROW = 'contact_row';

/**
 * A column's value as JSON Schema, by its catalog type. Types only: the label's column name, description and format
 * are in get_available_columns and the schema resources (repeating them here would add about 4 KB to every row tool).
 */
function columnSchema(col: ColumnDef): JsonSchema {
  if (col.name === 'id') return { type: 'string', pattern: col.entity === 'contact' ? '^per_' : '^com_' };
  // Record parts (experience, education, locations, ...): structured JSON, a list of entries or one object.
  if (col.type === 'object') return { type: ['array', 'object', 'null'] };
  const type = ['integer', 'number', 'boolean', 'array'].includes(col.type) ? col.type : 'string';
  return { type: col.nullable ? [type, 'null'] : type };
}

/** A row as an MCP answer shows it: keyed by display label, each column typed; columns not asked for are absent. */
export function labeledRowSchema(entity: Entity, alsoRequired: readonly string[] = []): JsonSchema {
  const cols = publicColumns(entity);
  const properties: Record<string, JsonSchema> = {};
  for (const col of cols) properties[col.label] = columnSchema(col);
  const label = (name: string) => cols.find((c) => c.name === name)?.label ?? name;
  return {
    type: 'object',
    description:
      `A ${entity} row keyed by display label (the columns asked for; ${label('id')} always). ` +
      'get_available_columns and the schema resources map labels to column names and describe each column.',
    properties,
    required: [label('id'), ...alsoRequired.map(label)],
    additionalProperties: true,
  };
}

const warningSchema: JsonSchema = {
  type: 'object',
  properties: {
    code: { type: 'string', enum: [...WARNING_CODES] },
    message: { type: 'string' },
    hint: { type: 'string' },
    keys_applied: { type: 'array', items: { type: 'string' } },
    resets_at: { type: 'string' },
  },
  required: ['code', 'message'],
  additionalProperties: true,
};

const pageSchema: JsonSchema = {
  type: 'object',
  description: 'Paging: pass next_cursor back as `cursor` for the next page; null on the last page.',
  properties: {
    returned: { type: 'integer' },
    limit: { type: 'integer' },
    total: { type: ['integer', 'null'] },
    next_cursor: { type: ['string', 'null'] },
  },
  required: ['returned', 'limit', 'total', 'next_cursor'],
  additionalProperties: true,
};

const quotaSchema: JsonSchema = {
  type: 'object',
  description: 'Contact credits after this call.',
  properties: {
    plan: { type: 'string' },
    contact_credits_used: { type: 'integer' },
    month_remaining: { type: 'integer' },
    today_remaining: { type: 'integer' },
    binding: { type: 'string', enum: ['month', 'day'] },
    resets_at: { type: 'string' },
  },
  required: ['plan', 'contact_credits_used', 'month_remaining', 'today_remaining', 'binding', 'resets_at'],
  additionalProperties: true,
};

/** The error body of a tool result with `isError: true` (REST's `error` object). */
export const toolErrorSchema: JsonSchema = {
  type: 'object',
  description: 'A tool error (isError: true): the REST error object.',
  properties: {
    // The catalog's codes (docs/errors.md); not inlined as an enum, which would repeat about 1.5 KB in every tool.
    code: { type: 'string', pattern: '^[a-z_]+\\.[a-z_]+$' },
    message: { type: 'string' },
    hint: { type: 'string' },
    field: { type: 'string' },
    details: { type: 'object', additionalProperties: true },
  },
  required: ['code', 'message'],
  additionalProperties: false,
};

/** An operation's answer schema with its rows as `$ref`s, and those `$defs` keyed by label. */
function answerSchema(op: Operation, entity: Entity): { schema: JsonSchema; defs: Record<string, JsonSchema> } {
  const schema = outputJsonSchema(op, { [ROW]: out.row, [CONTACT_ROW]: out.contactRow });
  const used = JSON.stringify(schema);
  delete schema.$defs;
  const defs: Record<string, JsonSchema> = {};
  if (used.includes(`#/$defs/${ROW}"`)) defs[ROW] = labeledRowSchema(entity);
  if (used.includes(`#/$defs/${CONTACT_ROW}"`)) defs[CONTACT_ROW] = labeledRowSchema('contact', ['name']);
  return { schema, defs };
}

/** The quote a dry run answers (family A inside `data`, family B as the body). */
function quoteSchema(): JsonSchema {
  const s = outputJsonSchema({ output: quoteOutput });
  return { ...s, description: 'dry_run: true: what the call would cost now; nothing was held, charged or started.' };
}

/**
 * One `type` per schema: `type: ["string", "null"]` is legal JSON Schema, but clients that map tool schemas onto a
 * single-type dialect (the OpenAPI subset of some model providers) reject or drop it; it becomes `anyOf` branches.
 */
export function portable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(portable);
  if (!node || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node as JsonSchema)) out[k] = k === 'enum' || k === 'examples' ? v : portable(v);
  if (Array.isArray(out.type)) {
    const types = out.type as string[];
    delete out.type;
    const branches = types.map((type) => ({ type }));
    if (out.anyOf) out.allOf = [...((out.allOf as JsonSchema[]) ?? []), { anyOf: branches }];
    else out.anyOf = branches;
  }
  return out;
}

/** The tool's `outputSchema`: `{type: "object", anyOf: [answer, (quote), error], $defs}`. */
export function toolOutputSchema(op: Operation, entity: Entity, dryRun: boolean): JsonSchema {
  const { schema, defs } = answerSchema(op, entity);
  const variants: JsonSchema[] = [];
  if (op.family === 'B') {
    variants.push({ ...schema, description: 'The answer.' });
    if (dryRun) variants.push(quoteSchema());
  } else {
    variants.push({
      type: 'object',
      description: 'The answer: data, warnings (empty on a clean call), page on paged tools, quota.',
      properties: {
        data: dryRun ? { anyOf: [schema, quoteSchema()] } : schema,
        page: pageSchema,
        warnings: { type: 'array', items: warningSchema },
        quota: quotaSchema,
      },
      required: ['data', 'warnings'],
      additionalProperties: false,
    });
  }
  variants.push(toolErrorSchema);
  return { type: 'object', anyOf: variants, ...(Object.keys(defs).length ? { $defs: defs } : {}) };
}
