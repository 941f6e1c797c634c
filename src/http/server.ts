import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../operations/types.js';
import { buildApp } from './app.js';

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Listens on host:port (port 0 = any free port) and closes cleanly: stop accepting, drain, then close. */
export async function startServer(services: Services, host: string, port: number): Promise<RunningServer> {
  const app = buildApp(services);
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5000;
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: addr.port,
    url: `http://${shownHost}:${addr.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), 5000);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}
