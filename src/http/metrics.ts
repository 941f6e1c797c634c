import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context, Middleware } from 'koa';
import { AppError } from '../domain/errors/index.js';
import { authenticateOperator } from '../face/auth.js';
import { MCP_PATH } from '../mcp/index.js';
import type { Metrics } from '../metrics/metrics.js';
import type { Services } from '../operations/types.js';
import { onAnswer } from './middleware/on-answer.js';

export const METRICS_PATH = '/metrics';

/**
 * The route label of a request: the operation's name (set by the REST router), a fixed name for the routes outside
 * the operation table, and `unmatched` for everything else, so that no client-chosen path (ids, probes) ever
 * becomes a label value.
 */
function routeOf(ctx: Context): string {
  if (typeof ctx.state.operation === 'string') return ctx.state.operation;
  if (ctx.path === MCP_PATH) return 'mcp';
  if (ctx.path === '/openapi.json') return 'openapi';
  if (ctx.path === '/docs') return 'docs';
  if (ctx.path === METRICS_PATH) return 'metrics';
  if (ctx.path.startsWith('/files/exports/')) return 'files.export';
  if (ctx.path === '/app' || ctx.path.startsWith('/app/')) return 'console';
  return 'unmatched';
}

/**
 * Counts every answer of the main port by route and status, times it, and counts 429s by reason (the rate limiter
 * notes `rate` or `concurrency` in `ctx.state.rateLimited`, the error handler `sign_in` for the sign-in throttle's
 * and `other` for any other bound's, e.g. the upload pages' read slots). Runs
 * outside the error handler, so it sees the status the client gets.
 */
export function requestMetrics(metrics: Metrics): Middleware {
  return onAnswer((ctx, status, ms) => {
    metrics.request(routeOf(ctx), status, ms / 1000);
    if (status === 429) metrics.rateLimited(ctx.state.rateLimited ?? 'other');
  });
}

/**
 * GET /metrics on the main port: the operator token only (like /v1/admin: 401 auth.invalid_key without it, 403
 * auth.oauth_required for an API key, failures counted against the sign-in bound). With no operator token set
 * it answers 404 route.not_found, whose hint says how to turn metrics on.
 */
export function metricsRoute(services: Services): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== METRICS_PATH || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    if (!services.config.adminToken) {
      const port = services.config.metricsPort;
      throw new AppError('route.not_found', `No route ${ctx.method} ${METRICS_PATH} on this port.`, {
        hint:
          port === null
            ? 'Set CDS_ADMIN_TOKEN to scrape /metrics here with the operator token, or CDS_METRICS_PORT to serve it on a separate port.'
            : `Metrics are served on the metrics port (CDS_METRICS_PORT=${port}); set CDS_ADMIN_TOKEN to scrape them here too.`,
      });
    }
    await authenticateOperator(services, ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Type', services.metrics.contentType);
    ctx.body = await services.metrics.render();
  };
}

export interface RunningMetricsServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * The metrics port (CDS_METRICS_PORT): a plain HTTP server answering only GET /metrics, without authentication;
 * it is meant for a private network (the scraper's), never for the public one. Anything else answers 404.
 */
export async function startMetricsServer(metrics: Metrics, host: string, port: number): Promise<RunningMetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n');
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Metrics are unavailable.\n'),
    );
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: addr.port,
    url: `http://${shownHost}:${addr.port}${METRICS_PATH}`,
    close() {
      // A scraper keeps its connection alive between scrapes: close it rather than wait for it.
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
