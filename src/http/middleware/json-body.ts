import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { AppError } from '../../domain/errors/index.js';

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
      text = await readText(ctx.req, maxBytes);
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

/**
 * The request's body as UTF-8 text; rejects with request.invalid as soon as more than `maxBytes` have come (the rest
 * is not read). Read with the stream's events, without an async iterator and a promise per chunk.
 */
function readText(req: IncomingMessage, maxBytes: number): Promise<string> {
  // Read to its end already (nothing here does that, but it would never emit 'end' again): an empty body.
  if (req.readableEnded) return Promise.resolve('');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (e?: Error): void => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (e) reject(e);
      else resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, size).toString('utf8'));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        done(tooLarge(maxBytes));
      } else chunks.push(chunk);
    };
    const onEnd = (): void => done();
    // A client gone before its body ended: the request fails as the iterator's premature close did.
    const onClose = (): void => {
      if (!req.complete) done(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('request.invalid', `The body is larger than ${maxBytes} bytes.`, {
    hint: 'Send a smaller body, or split the work into several calls.',
  });
}
