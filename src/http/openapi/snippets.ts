/** The placeholder of the caller's API key in the /docs commands; the page's script puts the key in its place. */
export const KEY_PLACEHOLDER = '$CDS_API_KEY';
/** The placeholder of the operator token (never filled in). */
export const OPERATOR_PLACEHOLDER = '$CDS_ADMIN_TOKEN';

export type SnippetAuth = 'none' | 'bearer' | 'x-api-key' | 'operator';

export interface SnippetRequest {
  method: string;
  /** The server URL, without a trailing slash. */
  server: string;
  /** The path with its parameters and query string filled in. */
  path: string;
  auth: SnippetAuth;
  body?: unknown;
}

/** A string as one single-quoted shell word. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function authHeader(auth: SnippetAuth): string | null {
  switch (auth) {
    case 'bearer':
      return `"Authorization: Bearer ${KEY_PLACEHOLDER}"`;
    case 'x-api-key':
      return `"X-API-Key: ${KEY_PLACEHOLDER}"`;
    case 'operator':
      return `"Authorization: Bearer ${OPERATOR_PLACEHOLDER}"`;
    default:
      return null;
  }
}

/** The curl command of one REST request (the key read from the shell's CDS_API_KEY unless the page fills it in). */
export function curlCommand(req: SnippetRequest): string {
  const lines = [`curl -sS -X ${req.method.toUpperCase()} ${shellQuote(`${req.server}${req.path}`)}`];
  const auth = authHeader(req.auth);
  if (auth) lines.push(`  -H ${auth}`);
  if (req.body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  -d ${shellQuote(JSON.stringify(req.body))}`);
  }
  return lines.join(' \\\n');
}

/** The JSON-RPC message of an MCP tool call. */
export function mcpToolCall(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  return { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } };
}

/** The MCP tool call sent with curl to the stateless MCP endpoint (/mcp: no session, JSON answers). */
export function mcpCurlCommand(server: string, tool: string, args: Record<string, unknown>): string {
  return [
    `curl -sS -X POST ${shellQuote(`${server}/mcp`)}`,
    `  -H ${authHeader('x-api-key')}`,
    `  -H 'Content-Type: application/json'`,
    `  -H 'Accept: application/json, text/event-stream'`,
    `  -d ${shellQuote(JSON.stringify(mcpToolCall(tool, args)))}`,
  ].join(' \\\n');
}
