import type { Context } from 'koa';
import { AppError } from '../../domain/errors/index.js';
import { readLimited } from '../read-limited.js';

/** The raw request body, stopping as soon as it passes `maxBytes` (then `tooLarge()` is thrown). */
export async function readRawBody(ctx: Context, maxBytes: number, tooLarge: () => AppError): Promise<Buffer> {
  // Past the limit the rest is drained, not read into memory: a browser still sending its file then reads the answer.
  const length = Number(ctx.get('Content-Length') || '0');
  if (length > maxBytes) {
    ctx.req.resume();
    throw tooLarge();
  }
  try {
    return await readLimited(ctx.req, maxBytes, tooLarge);
  } catch (e) {
    ctx.req.resume();
    throw e;
  }
}

/** A small JSON object body of the page's form calls. */
export async function readJsonObject(ctx: Context): Promise<Record<string, unknown>> {
  const raw = await readRawBody(ctx, 64 * 1024, () => new AppError('request.invalid', 'The body is too large.'));
  let parsed: unknown;
  try {
    parsed = raw.length ? JSON.parse(raw.toString('utf8')) : {};
  } catch {
    throw new AppError('request.invalid', 'The body is not valid JSON.', { hint: 'Send one JSON object.' });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new AppError('request.invalid', 'The body must be a JSON object.');
  return parsed as Record<string, unknown>;
}
