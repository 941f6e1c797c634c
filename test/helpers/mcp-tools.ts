import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { TestApp } from './test-app.js';

/** A tool call that answers the tool's structured content. */
export type ToolCall = (name: string, args?: Record<string, unknown>) => Promise<any>;

/** An MCP SDK client of the app with the key (added to `clients`, for the caller to close): its tool calls. */
export async function mcpTools(app: TestApp, apiKey: string, clients: Client[]): Promise<ToolCall> {
  const client = new Client({ name: 'cds-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: { 'X-API-Key': apiKey } } }),
  );
  clients.push(client);
  return async (name, args = {}) =>
    ((await client.callTool({ name, arguments: args })) as { structuredContent?: any }).structuredContent;
}
