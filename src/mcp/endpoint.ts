import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context, Middleware } from 'koa';
import { authenticateMcp } from '../face/auth.js';
import { withRateLimit } from '../face/rate-limit.js';
import { buildLabel } from '../operations/invoke.js';
import { settleWithResponse } from '../operations/settlement.js';
import type { Operation, Services } from '../operations/types.js';
import { callTool } from './call-tool.js';
import { checkOrigin } from './origin.js';
import { buildResources, readResource } from './resources.js';
import { createMcpServer } from './server.js';
import { buildTools } from './tools.js';

export const MCP_PATH = '/mcp';
/** JSON-RPC messages in one batch: bounds the work and the size of one answer (a tools/list is about 100 KB). */
export const MCP_MAX_BATCH = 10;

/**
 * The MCP server at /mcp (streamable HTTP, stateless) on the app's own port. Before the MCP layer: the
 * Origin check (403 request.origin_refused) and the API key (401 auth.invalid_key), both answered with the
 * error envelope. Then a fresh server and transport serve this one request and are closed with it.
 */
export function mcpEndpoint(services: Services, operations: readonly Operation[]): Middleware {
  const tools = buildTools(operations);
  const resources = buildResources(operations);
  const info = { name: 'contact-data-service', version: services.build.version };
  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) return next();
    ctx.state.buildLabel = buildLabel(services);
    checkOrigin(ctx, services.config.mcpAllowedOrigins);
    // An API key, or an OAuth access token acting for the account and key it was granted under.
    const caller = await authenticateMcp(services, ctx);
    ctx.state.account = caller.account;
    // The request log names the OAuth client where a key prefix would be.
    if (caller.oauthClient) ctx.state.oauthClient = caller.oauthClient;
    if (ctx.method !== 'POST')
      return jsonRpcError(ctx, 405, -32000, 'Method not allowed: this stateless MCP server takes POST only.', {
        Allow: 'POST',
      });
    if (ctx.state.body === undefined)
      return jsonRpcError(ctx, 400, -32700, 'Parse error: the body must hold a JSON-RPC message.');
    const messages = Array.isArray(ctx.state.body) ? ctx.state.body.length : 1;
    if (messages > MCP_MAX_BATCH || messages === 0) {
      return jsonRpcError(ctx, 400, -32600, `Invalid Request: a batch holds 1 to ${MCP_MAX_BATCH} messages.`);
    }

    // Tool calls charge when this response is written out; a client gone before that pays nothing (a tool call that
    // ends after the client left, or after the response, is released).
    const settlement = settleWithResponse(ctx.res, []);
    const server = createMcpServer(info, tools, (entry, args) => callTool(services, entry, args, caller, settlement), {
      entries: resources,
      read: (uri) => readResource(services, resources, uri, caller),
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.once('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // Every JSON-RPC message counts against the key's limits, and the answer carries the RateLimit headers.
    await withRateLimit(
      services.rateLimiter,
      ctx,
      caller.key.id,
      async () => {
        // The transport writes the response itself; Koa stays out of it.
        ctx.respond = false;
        await transport.handleRequest(ctx.req, ctx.res, ctx.state.body);
      },
      messages,
    );
  };
}

function jsonRpcError(
  ctx: Context,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  ctx.status = status;
  ctx.set(headers);
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}
