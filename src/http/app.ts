import Koa from 'koa';
import type { Account } from '../domain/account.js';
import { type Quota, quotaBlock } from '../domain/quota/index.js';
import { credentialOf } from '../face/auth.js';
import { mcpEndpoint } from '../mcp/index.js';
import { oauthConsoleApi } from '../oauth/connections.js';
import { oauthRoutes } from '../oauth/routes.js';
import { MCP_ONLY_OPERATIONS, OPERATIONS } from '../operations/index.js';
import type { Services } from '../operations/types.js';
import { consoleApi, consoleRoutes } from './console/index.js';
import { fileRoutes } from './files.js';
import { homeRoute } from './home.js';
import { metricsRoute, requestMetrics } from './metrics.js';
import { errorHandler } from './middleware/errors.js';
import { jsonBody } from './middleware/json-body.js';
import { requestId } from './middleware/request-id.js';
import { requestLog } from './middleware/request-log.js';
import { serviceVersion } from './middleware/service-version.js';
import { openApiRoutes } from './openapi/index.js';
import { accountRequestLog } from './request-log/middleware.js';
import { buildRestRouter } from './rest-router.js';
import { uploadPageRoutes } from './upload-page/routes.js';

/** Builds the whole HTTP app (STYLE: build in one function, listen elsewhere). */
export function buildApp(services: Services): Koa {
  const app = new Koa();
  const quotaFor = async (ctx: {
    state: Record<string, unknown>;
    get(h: string): string;
  }): Promise<Quota | undefined> => {
    // A failure before routing (a malformed body, a bad version header) still names the account when the key is valid.
    const secret = credentialOf(ctx, 'B');
    const account =
      (ctx.state.account as Account | undefined) ??
      (secret ? (await services.state.authenticate(secret, services.clock.now()))?.account : undefined);
    if (!account) return undefined;
    const now = services.clock.now();
    return quotaBlock(
      await services.state.snapshot(account.id, now),
      now,
      (ctx.state.spent as number | undefined) ?? 0,
    );
  };
  app.use(requestId());
  app.use(requestMetrics(services.metrics));
  app.use(requestLog(services));
  // Outside the error handler: the account's request log sees the status and error code the client gets.
  app.use(accountRequestLog(services));
  app.use(errorHandler(services.logger, quotaFor));
  app.use(serviceVersion());
  // The upload page reads its own bodies (a CSV file of up to 15 MB), so it comes before the JSON body reader.
  app.use(uploadPageRoutes(services));
  // OAuth for remote MCP clients: the provider and the authorization page read their own bodies, as the upload page.
  app.use(oauthRoutes(services));
  app.use(jsonBody(services.config.maxBodyBytes));
  app.use(metricsRoute(services));
  app.use(openApiRoutes(services, OPERATIONS));
  app.use(mcpEndpoint(services, [...OPERATIONS, ...MCP_ONLY_OPERATIONS]));
  app.use(fileRoutes(services));
  app.use(homeRoute(services));
  app.use(consoleRoutes(services));
  app.use(consoleApi(services).routes());
  app.use(oauthConsoleApi(services).routes());
  const router = buildRestRouter(services, OPERATIONS);
  app.use(router.routes());
  return app;
}
