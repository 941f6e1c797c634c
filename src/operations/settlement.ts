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
 * Settles with the HTTP response, called before the answer is written: `finish` (every byte handed to the
 * connection) charges; a `close` without it (the client disconnected) releases and calls `onUndelivered`. A
 * connection already closed when this is called (the client gave up while the answer was being made, e.g. while the
 * server waited on Redis) releases at once: its `close` has passed and nothing will be written. Returns `add`, for charges made after this call (MCP tool calls
 * run while the response is open): added once the response has settled, a charge is released, since the answer
 * that carried it did not reach the client (or was not part of the answer written).
 */
export function settleWithResponse(
  res: ServerResponse,
  settlements: Settlement[],
  onUndelivered?: () => void,
): (late: Settlement) => void {
  let done = false;
  let finished = false;
  const settle = (delivered: boolean) => {
    if (done) return;
    done = true;
    // Each pending charge settles through HoldLeases.settle, which never rejects (a failed one is retried later).
    for (const s of settlements) void (delivered ? s.delivered() : s.undelivered());
    if (!delivered) onUndelivered?.();
  };
  const add = (late: Settlement) => {
    if (done) void late.undelivered();
    else settlements.push(late);
  };
  // `writableFinished` alone is not delivery: `end()` on a connection the client already closed sets it, and no
  // `finish` follows. Only the `finish` event says every byte was handed over.
  if (res.destroyed) {
    settle(false);
    return add;
  }
  res.once('finish', () => {
    finished = true;
    settle(true);
  });
  res.once('close', () => settle(finished));
  return add;
}
