import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { isAppError } from '../domain/errors/index.js';
import { newId } from '../domain/ids.js';
import { invokeOperation } from '../operations/invoke.js';
import type { Operation, Services } from '../operations/types.js';
import type { Caller } from './call-tool.js';

/**
 * MCP resources (read-only context an agent or its host can load without a tool call): the contact and company
 * schemas (columns, filter keys, notes on the filter language) and the caller's credits. Each is read through the
 * operation REST serves it with (GET /v1/contacts/schema, /v1/companies/schema, /v1/credits), for the caller's
 * account, free of charge.
 */
export interface ResourceEntry {
  resource: Resource;
  op: Operation;
}

const RESOURCES: ReadonlyArray<{ op: string; uri: string; name: string; title: string; description: string }> = [
  {
    op: 'contacts.schema',
    uri: 'cds://schema/contacts',
    name: 'contact_schema',
    title: 'Contact schema',
    description:
      'Every contact column (name, display label, type, format, closed list, values route), every filter key of ' +
      'count_matches / find_contacts / start_export, and notes on the filter language. Same as GET /v1/contacts/schema.',
  },
  {
    op: 'companies.schema',
    uri: 'cds://schema/companies',
    name: 'company_schema',
    title: 'Company schema',
    description:
      'Every company column and filter key of count_companies / find_companies. Same as GET /v1/companies/schema.',
  },
  {
    op: 'credits.get',
    uri: 'cds://account/credits',
    name: 'credits',
    title: 'Your credits',
    description:
      "The calling account's contact credits (caps, used, held, remaining per window, or the free pool), premium " +
      'credits and fair-use budgets, read now. Same as GET /v1/credits.',
  },
];

export const MIME_JSON = 'application/json';

/** The resources, each bound to its operation from the table (a resource whose operation is gone is left out). */
export function buildResources(operations: readonly Operation[]): ResourceEntry[] {
  const byName = new Map(operations.map((op) => [op.name, op]));
  return RESOURCES.flatMap((r) => {
    const op = byName.get(r.op);
    if (!op) return [];
    return [
      {
        op,
        resource: { uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: MIME_JSON },
      },
    ];
  });
}

/** Reads one resource for the caller: the operation's `data` as JSON text. */
export async function readResource(
  services: Services,
  entries: readonly ResourceEntry[],
  uri: string,
  caller: Caller,
): Promise<ReadResourceResult> {
  const entry = entries.find((e) => e.resource.uri === uri);
  // MCP: an unknown resource is -32002 (resource not found).
  if (!entry) throw new McpError(-32002, `Resource not found: ${uri}`, { uri });
  try {
    const { result } = await invokeOperation(services, entry.op, {
      requestId: newId('request'),
      account: caller.account,
      key: caller.key,
      input: {},
      face: 'mcp',
    });
    return { contents: [{ uri, mimeType: MIME_JSON, text: JSON.stringify(result.data) }] };
  } catch (err) {
    if (isAppError(err)) throw new McpError(ErrorCode.InternalError, `${err.code}: ${err.message}`, err.toBody());
    services.logger.error({ err, uri }, 'unexpected error reading an MCP resource');
    throw new McpError(ErrorCode.InternalError, 'internal.error: the resource could not be read.');
  }
}
