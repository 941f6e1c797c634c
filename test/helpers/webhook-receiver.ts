import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What the receiver does with the n-th request (0-based): answer a status, or never answer. */
export type Behaviour = (n: number, r: Received) => number | 'hang';

/** A real HTTP receiver on loopback recording every webhook request it gets. */
export interface Receiver {
  url: string;
  received: Received[];
  behaviour: Behaviour;
  /** Resolves once `count` requests have come (polling every 20 ms, up to `ms`). */
  waitFor(count: number, ms?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 204): Promise<Receiver> {
  const hung: ServerResponse[] = [];
  const r: Receiver = {
    url: '',
    received: [],
    behaviour,
    async waitFor(count, ms = 15_000) {
      const until = Date.now() + ms;
      while (r.received.length < count) {
        if (Date.now() > until) throw new Error(`receiver got ${r.received.length} requests, waited for ${count}`);
        await new Promise((res) => setTimeout(res, 20));
      }
      return r.received;
    },
    async close() {
      for (const res of hung) res.destroy();
      server.closeAllConnections();
      await new Promise((res) => server.close(() => res(undefined)));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const n = r.received.length;
      r.received.push(got);
      const what = r.behaviour(n, got);
      if (what === 'hang') {
        hung.push(res);
        return;
      }
      res.writeHead(what, { 'Content-Type': 'text/plain' });
      res.end(what >= 400 ? 'nope' : '');
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return r;
}

/**
 * A plain HMAC check written here, independent of the service's signer: whether one of the `v1,` signatures of the
 * request is HMAC-SHA256 of "id.timestamp.body" under the secret's decoded bytes (no timestamp window: for tests that
 * move the clock).
 */
export function signedWith(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = String(r.headers['webhook-timestamp']);
  const want = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${ts}.${r.body}`)
    .digest();
  return String(r.headers['webhook-signature'])
    .split(' ')
    .some((sig) => {
      const [v, b64] = sig.split(',');
      const got = Buffer.from(b64 ?? '', 'base64');
      return v === 'v1' && got.length === want.length && timingSafeEqual(got, want);
    });
}

export function headersOf(r: Received): Record<string, string> {
  return {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  };
}
