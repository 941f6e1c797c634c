import type { IncomingMessage } from 'node:http';

/**
 * A request's body, read up to `maxBytes`: rejects with `tooLarge()` as soon as more have come, leaving the request
 * paused with the rest unread (the caller decides: drain it, or close the connection after its answer). Read with the
 * stream's events, without an async iterator and a promise per chunk. A client gone before its body ended rejects
 * with ERR_STREAM_PREMATURE_CLOSE.
 */
export function readLimited(req: IncomingMessage, maxBytes: number, tooLarge: () => Error): Promise<Buffer> {
  // Read to its end already (nothing here does that, but it would never emit 'end' again): an empty body.
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (e?: Error): void => {
      req.off('data', onData).off('end', onEnd).off('error', done).off('close', onClose);
      if (e) reject(e);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        done(tooLarge());
      } else chunks.push(chunk);
    };
    const onEnd = (): void => done();
    const onClose = (): void => {
      if (!req.complete) done(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    req.on('data', onData).on('end', onEnd).on('error', done).on('close', onClose);
  });
}
