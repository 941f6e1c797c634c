import type { Middleware } from 'koa';
import type { Services } from '../../operations/types.js';
import { serveAsset } from './assets.js';
import { CONSOLE_PAGES, renderShell, renderSignIn, securityHeaders } from './pages.js';
import { resolveSession } from './session.js';

/**
 * The web console at /app (issue 19): pages for the account holder and their assets; the JSON routes are
 * consoleApi (api.ts), mounted right after this. A page without a live session redirects to /app/sign-in.
 */
export function consoleRoutes(services: Services): Middleware {
  return async (ctx, next) => {
    if (ctx.path !== '/app' && !ctx.path.startsWith('/app/')) return next();
    securityHeaders(ctx);
    // The JSON routes (api.ts) are the next middleware of the app.
    if (ctx.path.startsWith('/app/api/')) {
      ctx.set('Cache-Control', 'no-store');
      return next();
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path.startsWith('/app/assets/')) {
      if (await serveAsset(ctx, ctx.path.slice('/app/assets/'.length))) return;
      return next();
    }
    const path = ctx.path.length > 4 ? ctx.path.replace(/\/+$/, '') : ctx.path;
    const version = services.build.version;
    ctx.set('Cache-Control', 'no-store');
    if (path === '/app/sign-in') {
      if (await resolveSession(services, ctx)) return ctx.redirect('/app');
      ctx.type = 'html';
      ctx.body = renderSignIn(version);
      return;
    }
    const title = CONSOLE_PAGES[path];
    if (!title) return next();
    if (!(await resolveSession(services, ctx))) return ctx.redirect('/app/sign-in');
    ctx.type = 'html';
    ctx.body = renderShell(path, title, version);
  };
}

export { consoleApi } from './api.js';
