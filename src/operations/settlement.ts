import type { ServerResponse } from 'node:http';
import type { PendingCharge } from '../domain/quota/index.js';

interface Pending {
  /** The contact credits it holds and will charge, for the answer's own quota figures. */
  charge: PendingCharge;
  delivered(): Promise<void>;
  undelivered(): Promise<void>;
}

/**
 * What an answer owes, settled once the face knows whether the answer reached the client: credits held for
 * delivered rows are charged when the response is written out, and released when the client went away first.
 * Settling twice does nothing.
 */
export class Settlement {
  private pending: Pending[] = [];

  add(p: Pending): void {
    this.pending.push(p);
  }

  /** The charges not settled yet (the answer's quota block reads the snapshot as if they were). */
  charges(): PendingCharge[] {
    return this.pending.map((p) => p.charge);
  }

  async delivered(): Promise<void> {
    await Promise.all(this.take().map((p) => p.delivered()));
  }

  async undelivered(): Promise<void> {
    await Promise.all(this.take().map((p) => p.undelivered()));
  }

  private take(): Pending[] {
    const out = this.pending;
    this.pending = [];
    return out;
  }
}

/**
 * Settles with the HTTP response: `finish` (every byte handed to the connection) charges, a `close` before it
 * (the client disconnected) releases and calls `onUndelivered`.
 */
export function settleWithResponse(res: ServerResponse, settlements: Settlement[], onUndelivered?: () => void): void {
  let done = false;
  const settle = (delivered: boolean) => {
    if (done) return;
    done = true;
    // Each pending charge settles through HoldLeases.settle, which never rejects (a failed one is retried later).
    for (const s of settlements) void (delivered ? s.delivered() : s.undelivered());
    if (!delivered) onUndelivered?.();
  };
  if (res.writableFinished) {
    settle(true);
    return;
  }
  res.once('finish', () => settle(true));
  res.once('close', () => settle(res.writableFinished));
}
