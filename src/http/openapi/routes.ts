import type { Middleware } from 'koa';
import type { Operation, Services } from '../../operations/types.js';
import { docsKeyScript } from './docs-key.js';
import { renderDocsPage } from './docs-page.js';
import { buildOpenApi, type OpenApiDocument } from './document.js';

/**
 * GET /openapi.json and GET /docs (with its one script, /docs/key.js): no key; built once from the operation table
 * and cached.
 */
export function openApiRoutes(services: Services, operations: readonly Operation[]): Middleware {
  let cached: { url: string; doc: OpenApiDocument; html: string } | undefined;
  const script = docsKeyScript();
  const current = () => {
    // The public URL may be set after start (tests, `--public-url`); rebuild when it changes.
    const url = services.config.publicUrl;
    if (cached?.url !== url) {
      const doc = buildOpenApi(operations, { version: services.build.version, serverUrl: url });
      cached = { url, doc, html: renderDocsPage(doc) };
    }
    return cached;
  };
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/openapi.json') {
      ctx.body = current().doc;
      return;
    }
    if (ctx.path === '/docs') {
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; script-src 'self'");
      // The key a console link passes stays in the fragment; no referrer carries the page's address elsewhere.
      ctx.set('Referrer-Policy', 'no-referrer');
      ctx.body = current().html;
      return;
    }
    if (ctx.path === '/docs/key.js') {
      ctx.type = 'text/javascript';
      ctx.set('Content-Security-Policy', "default-src 'none'");
      ctx.body = script;
      return;
    }
    return next();
  };
}
