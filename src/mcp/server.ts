import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { getPrompt, listPrompts } from './prompts.js';
import type { ResourceEntry } from './resources.js';
import type { ToolEntry } from './tools.js';

export const MCP_INSTRUCTIONS =
  'Business contacts and companies. Count first (count_matches, count_companies: free), then fetch rows ' +
  '(find_contacts, find_companies: one contact credit per row, at most 100 rows per call). Every result carries the ' +
  'quota left. Rows are keyed by display label. Errors come back as tool results with code, message and hint. Each ' +
  "tool's input schema lists every filter key and value list; resources hold the contact and company schemas and " +
  'your credits; prompts walk through building and exporting an audience and enriching a CSV.';

/**
 * A fresh low-level MCP server for one HTTP request (ARCHITECTURE rule 10). The low-level Server is used
 * because the tools carry JSON Schemas generated from the operation table, not zod shapes.
 */
export function createMcpServer(
  info: { name: string; version: string },
  tools: readonly ToolEntry[],
  call: (entry: ToolEntry, args: Record<string, unknown>) => Promise<CallToolResult>,
  resources?: { entries: readonly ResourceEntry[]; read: (uri: string) => Promise<ReadResourceResult> },
): Server {
  const byName = new Map(tools.map((t) => [t.tool.name, t]));
  const server = new Server(info, {
    capabilities: { tools: {}, prompts: {}, ...(resources ? { resources: {} } : {}) },
    instructions: MCP_INSTRUCTIONS,
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: listPrompts() }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => getPrompt(req.params.name, req.params.arguments));
  if (resources) {
    server.setRequestHandler(ListResourcesRequestSchema, async () => ({
      resources: resources.entries.map((e) => e.resource),
    }));
    server.setRequestHandler(ReadResourceRequestSchema, async (req) => resources.read(req.params.uri));
  }
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools.map((t) => t.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const entry = byName.get(req.params.name);
    // An unknown tool is a protocol fault (MCP spec: -32602), not a tool failure.
    if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    return call(entry, req.params.arguments ?? {});
  });
  return server;
}
