import { ERROR_CATALOG, type ErrorCode } from '../../domain/errors/index.js';
import { inputJsonSchema, type JsonSchema, outputJsonSchema, propertiesOf } from '../../face/json-schema.js';
import { errorCodesOf } from '../../operations/error-codes.js';
import type { Family, Operation } from '../../operations/types.js';
import { componentSchemas, SECURITY_SCHEMES } from './components.js';
import { openApiExamples } from './examples.js';

export type OpenApiDocument = Record<string, unknown> & { paths: Record<string, Record<string, OpenApiOperation>> };
export type OpenApiOperation = Record<string, unknown> & { operationId: string; security: Record<string, string[]>[] };

export const TAGS: Record<Family | 'operator', { name: string; description: string }> = {
  A: {
    name: 'Family A (v1)',
    description: 'Routes under /v1: success and error envelopes, Authorization: Bearer <API_KEY>, cursor paging.',
  },
  B: {
    name: 'Family B (api/v1)',
    description: 'Routes under /api and /api/v1: X-API-Key (or Bearer) authentication, flat bodies, offset paging.',
  },
  system: { name: 'System', description: 'Service routes outside the two families.' },
  operator: {
    name: 'Operator',
    description: 'Console routes signed with the operator token (CDS_ADMIN_TOKEN), not an API key.',
  },
};

export function tagOf(op: Operation): { name: string; description: string } {
  return op.auth === 'operator' ? TAGS.operator : TAGS[op.family];
}

/** `/v1/keys/:id` -> `/v1/keys/{id}` and the names of its path parameters. */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  const out = path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    params.push(name);
    return `{${name}}`;
  });
  return { path: out, params };
}

function securityOf(op: Operation): Record<string, string[]>[] {
  const key: Record<string, string[]>[] =
    op.family === 'A' ? [{ bearerAuth: [] }] : [{ apiKeyHeader: [] }, { bearerAuth: [] }];
  switch (op.auth) {
    case 'none':
      return [];
    case 'optional':
      return [{}, ...key];
    case 'operator':
      return [{ operatorToken: [] }];
    default:
      return key;
  }
}

function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_CATALOG[code].status, [...(byStatus.get(ERROR_CATALOG[code].status) ?? []), code]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\`: ${ERROR_CATALOG[c].message}`).join(' '),
      'x-error-codes': list,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  return out;
}

function operationObject(op: Operation, params: string[]): OpenApiOperation {
  const input = inputJsonSchema(op);
  const props = propertiesOf(input);
  const required = new Set((input.required as string[] | undefined) ?? []);
  const inQuery = op.method === 'GET' || op.method === 'DELETE';
  const examples = openApiExamples(op);
  const paramExamples = (name: string) => (examples.parameters[name] ? { examples: examples.parameters[name] } : {});
  const parameters: Record<string, unknown>[] = params.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: props[name] ?? { type: 'string' },
    ...paramExamples(name),
  }));
  if (inQuery) {
    for (const [name, schema] of Object.entries(props)) {
      if (!params.includes(name))
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          schema,
          ...(schema.description ? { description: schema.description } : {}),
          ...paramExamples(name),
        });
    }
  }
  parameters.push({ $ref: '#/components/parameters/ServiceVersion' });
  const body: JsonSchema = {
    ...input,
    properties: Object.fromEntries(Object.entries(props).filter(([k]) => !params.includes(k))),
  };
  if (Array.isArray(body.required)) body.required = (body.required as string[]).filter((k) => !params.includes(k));
  const codes = errorCodesOf(op);
  const aliases = op.aliases?.length ? `\n\nAlso served at ${op.aliases.map((a) => `\`${a}\``).join(', ')}.` : '';
  return {
    operationId: op.name,
    summary: op.summary,
    description: `${op.description}\n\nCost: ${op.cost}.${aliases}`,
    tags: [tagOf(op).name],
    security: securityOf(op),
    parameters,
    ...(!inQuery
      ? {
          requestBody: {
            required: ((body.required as string[] | undefined) ?? []).length > 0,
            content: { 'application/json': { schema: body, ...(examples.body ? { examples: examples.body } : {}) } },
          },
        }
      : {}),
    responses: {
      '2XX': {
        description: 'Success (200; 201 when a record is created; 202 when a job is started).',
        content: { 'application/json': { schema: successSchema(op), examples: examples.responses } },
      },
      ...errorResponses(codes),
    },
    'x-cost': op.cost,
    'x-error-codes': codes,
    ...(op.mcp ? { 'x-mcp-tool': op.mcp.tool } : {}),
  };
}

/** The success body: the family's envelope with the operation's declared output (`data`, or family B members). */
function successSchema(op: Operation): JsonSchema {
  const output = openObjects(outputJsonSchema(op)) as JsonSchema;
  if (op.family === 'B') return { allOf: [{ $ref: '#/components/schemas/FamilyBBody' }, output] };
  return {
    allOf: [{ $ref: '#/components/schemas/SuccessEnvelope' }, { type: 'object', properties: { data: output } }],
  };
}

/**
 * Answers are loose objects (operations/outputs.ts: a member added later does not break a client, rows carry the
 * columns asked for): said outright, so that validators reading an unsaid `additionalProperties` as closed (Redocly's
 * example check) agree with the published examples.
 */
function openObjects(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openObjects);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, val]) => [k, openObjects(val)])) as JsonSchema;
  if (out.type === 'object' && out.additionalProperties === undefined) out.additionalProperties = true;
  return out;
}

/** The OpenAPI 3.1 document, generated from the operation table and the valibot input schemas. */
export function buildOpenApi(
  operations: readonly Operation[],
  opts: { version: string; serverUrl: string },
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Map<string, { name: string; description: string }>();
  for (const op of operations) {
    const { path, params } = openApiPath(op.path);
    paths[path] ??= {};
    paths[path][op.method.toLowerCase()] = operationObject(op, params);
    tags.set(tagOf(op).name, tagOf(op));
  }
  // Only schemes some route uses (a scheme nobody uses is a lint warning); X-API-Key arrives with family B keyed
  // routes.
  const used = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item).flatMap((o) => o.security.flatMap((s) => Object.keys(s))),
    ),
  );
  const securitySchemes = Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => used.has(name)));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Contact Data Service',
      version: opts.version,
      description:
        'Count, search, enrich and export business contacts and companies. Generated from the operation table that ' +
        'serves the routes. The MCP server (streamable HTTP) sits at /mcp on the same port and takes the same API ' +
        'key.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: opts.serverUrl }],
    tags: [...tags.values()],
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes,
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          description: 'Contract date YYYY-MM-DD; omitted = the latest contract this build serves.',
          schema: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
        },
      },
    },
  };
}
