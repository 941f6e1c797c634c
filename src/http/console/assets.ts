import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Context } from 'koa';

/**
 * The console's front end: the plain ES modules and the stylesheet of the top-level `web/` folder, served as they are
 * (no bundler, no CDN: the console works offline). From dist/src/http/console/ the repository root is four levels up.
 */
export const WEB_DIR = fileURLToPath(new URL('../../../../web/', import.meta.url));

const TYPES: Record<string, string> = { js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8' };
/** Only plain names (a folder, a file, an extension): never a path that leaves web/. */
const NAME = /^(?:[a-z-]+\/)?[a-z-]+\.(js|css)$/;

export async function serveAsset(ctx: Context, name: string): Promise<boolean> {
  const m = NAME.exec(name);
  if (!m) return false;
  const body = await readFile(`${WEB_DIR}${name}`).catch(() => undefined);
  if (!body) return false;
  ctx.status = 200;
  ctx.set('Content-Type', TYPES[m[1]!]!);
  ctx.set('Cache-Control', 'no-cache');
  ctx.body = body;
  return true;
}
