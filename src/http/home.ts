import type { Middleware } from 'koa';
import { MCP_PATH } from '../mcp/endpoint.js';
import type { Services } from '../operations/types.js';

/**
 * GET / (and HEAD): a browser (its Accept names text/html before JSON) is sent on to the console with a 302; an API
 * client gets a small JSON index of where things are. No key is needed and nothing about an account is shown.
 */
export function homeRoute(services: Services): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/' || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('Vary', 'Accept');
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.redirect('/app');
      return;
    }
    const base = services.config.publicUrl;
    ctx.body = {
      ok: true,
      name: 'Contact Data Service',
      version: services.build.version,
      links: {
        docs: `${base}/docs`,
        openapi: `${base}/openapi.json`,
        health: `${base}/v1/health`,
        app: `${base}/app`,
        mcp: `${base}${MCP_PATH}`,
      },
      hint: 'API calls take your API key (Authorization: Bearer <API_KEY>); /docs describes every route.',
    };
  };
}
