import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';

/**
 * A TCP proxy in front of a Redis, for tests of a Redis that stops answering without closing anything (a network
 * partition, a host gone without a reset): `stall()` makes every connection open now swallow what either side sends,
 * while the sockets stay open. Connections opened after it forward again, as a replaced host would answer. The Redis
 * behind it is never touched.
 */
export interface StallProxy {
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** Connections still open. */
  readonly open: number;
  /** Stalls every connection open now; later ones forward. */
  stall(): void;
  close(): Promise<void>;
}

export async function startStallProxy(target: string): Promise<StallProxy> {
  const { hostname, port } = new URL(target);
  const pairs = new Set<{ client: Socket; upstream: Socket; stalled: boolean }>();
  let accepted = 0;
  const server: Server = createServer((client) => {
    accepted++;
    const upstream = tcpConnect(Number(port || 6379), hostname);
    const pair = { client, upstream, stalled: false };
    pairs.add(pair);
    client.on('data', (d) => {
      if (!pair.stalled) upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (!pair.stalled) client.write(d);
    });
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const listening = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `redis://127.0.0.1:${listening}`,
    get accepted() {
      return accepted;
    },
    get open() {
      return pairs.size;
    },
    stall() {
      for (const p of pairs) p.stalled = true;
    },
    close: async () => {
      for (const p of pairs) {
        p.client.destroy();
        p.upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
