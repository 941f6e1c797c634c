import type { Context, Middleware } from 'koa';
import type { Services } from '../../operations/types.js';
import { onAnswer } from './on-answer.js';

/**
 * The route of a request as logged: the REST route's template (`/v1/exports/:id`), the link routes with their ids
 * and tokens left out, and otherwise the path (never the query string, where signed links carry their signature),
 * with anything shaped like an API key masked.
 */
export function loggedRoute(ctx: Pick<Context, 'path'> & { _matchedRoute?: unknown }): string {
  if (typeof ctx._matchedRoute === 'string') return ctx._matchedRoute;
  const path = ctx.path
    .replace(/^\/upload\/[^/]+/, '/upload/:upload_id')
    .replace(/^\/files\/(exports|enrichments)\/[^/]+$/, '/files/$1/:file')
    .replace(/cds_[0-9A-Za-z_-]+/g, 'cds_…');
  return path.length > 200 ? `${path.slice(0, 200)}…` : path;
}

/**
 * One log line per answered request, at info: method, route, status, ms and request id. Never the API key, the
 * query string or a body.
 */
export function requestLog(services: Pick<Services, 'logger'>): Middleware {
  return onAnswer((ctx, status, ms) =>
    services.logger.info(
      {
        method: ctx.method,
        route: loggedRoute(ctx as Context & { _matchedRoute?: unknown }),
        status,
        ms: Math.round(ms * 10) / 10,
        request_id: ctx.state.requestId,
      },
      'request',
    ),
  );
}
