import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { ToolEntry } from './tools.js';

export const MCP_INSTRUCTIONS =
  'Business contacts and companies. Count first (count_matches, count_companies: free), then fetch rows ' +
  '(find_contacts, find_companies: one contact credit per row, at most 100 rows per call). Every result carries the ' +
  'quota left. Rows are keyed by display label. Errors come back as tool results with code, message and hint.';

/**
 * A fresh low-level MCP server for one HTTP request (ARCHITECTURE rule 10). The low-level Server is used
 * because the tools carry JSON Schemas generated from the operation table, not zod shapes.
 */
export function createMcpServer(
  info: { name: string; version: string },
  tools: readonly ToolEntry[],
  call: (entry: ToolEntry, args: Record<string, unknown>) => Promise<CallToolResult>,
): Server {
  const byName = new Map(tools.map((t) => [t.tool.name, t]));
  const server = new Server(info, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((t) => t.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const entry = byName.get(req.params.name);
    // An unknown tool is a protocol fault (MCP spec: -32602), not a tool failure.
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    return call(entry, req.params.arguments ?? {});
  });
  return server;
}
