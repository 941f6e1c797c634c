import type { Middleware } from 'koa';
import { newId } from '../../domain/ids.js';

/** Gives every request an id (`req_…`), echoed in the `X-Request-Id` header and in every body. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const id = newId('request');
    ctx.state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
