import type { Middleware } from 'koa';
import { AppError } from '../../domain/errors/index.js';
import { readLimited } from '../read-limited.js';

/**
 * Reads a JSON body with a size limit into ctx.state.body. A body that is not JSON and oversize bodies
 * answer 400 request.invalid, never a 500. Reading stops as soon as the limit is passed.
 */
export function jsonBody(maxBytes: number): Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'DELETE' || ctx.method === 'OPTIONS') {
      ctx.state.body = undefined;
      return next();
    }
    const length = Number(ctx.get('Content-Length') || '0');
    if (length > maxBytes) throw tooLarge(maxBytes);
    let text: string;
    try {
      text = (await readLimited(ctx.req, maxBytes, () => tooLarge(maxBytes))).toString('utf8');
    } catch (e) {
      // The rest of the body is never read: the connection closes after the answer rather than wait for it.
      ctx.set('Connection', 'close');
      throw e;
    }
    if (text.trim() === '') {
      ctx.state.body = undefined;
      return next();
    }
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
      throw new AppError('request.invalid', `The body is nested deeper than ${MAX_JSON_DEPTH} levels.`, {
        hint: 'Send a flatter JSON object; no request needs that depth.',
      });
    }
    // Any content type is read as JSON: `curl -d '{…}'` sends its form type by default, and the body decides.
    try {
      ctx.state.body = JSON.parse(text);
    } catch (e) {
      const type = ctx.get('Content-Type');
      const hint =
        type && !/json/i.test(type) ? 'Send a JSON body with Content-Type: application/json.' : 'Send one JSON object.';
      throw new AppError('request.invalid', `The body is not valid JSON: ${(e as Error).message}`, { hint });
    }
    await next();
  };
}

/** Deepest JSON nesting a body may have; the deepest request (a family A where tree) needs about ten. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text opens more than `max` arrays or objects inside each other, counted outside strings in one
 * pass before parsing, so no recursive step (parsing, hashing for idempotency, validation) meets a deep body.
 */
export function nestedDeeperThan(text: string, max: number): boolean {
  // Nothing can be deeper than the number of brackets that open: most bodies open a few, counted natively, and only
  // a body with more than `max` of them is walked character by character.
  if (opensAtMost(text, '{', max) + opensAtMost(text, '[', max) <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/** How many times `bracket` occurs in `text`, counted up to `max + 1`. */
function opensAtMost(text: string, bracket: string, max: number): number {
  let n = 0;
  for (let i = text.indexOf(bracket); i >= 0 && n <= max; i = text.indexOf(bracket, i + 1)) n++;
  return n;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('request.invalid', `The body is larger than ${maxBytes} bytes.`, {
    hint: 'Send a smaller body, or split the work into several calls.',
  });
}
