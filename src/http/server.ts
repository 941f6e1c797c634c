import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../operations/types.js';
import { buildApp } from './app.js';
import { startMetricsServer } from './metrics.js';

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /** The metrics port's GET /metrics URL when CDS_METRICS_PORT is set. */
  metricsUrl?: string;
  close(): Promise<void>;
}

/**
 * Listens on host:port (port 0 = any free port) and closes cleanly: stop accepting, drain, then close. With
 * CDS_METRICS_PORT the metrics port opens and closes with it, on the same host.
 */
export async function startServer(services: Services, host: string, port: number): Promise<RunningServer> {
  const app = buildApp(services);
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5000;
  server.requestTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const metrics =
    services.config.metricsPort === null
      ? undefined
      : await startMetricsServer(services.metrics, host, services.config.metricsPort).catch((err: unknown) => {
          server.close();
          throw err;
        });
  const addr = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    port: addr.port,
    url: `http://${shownHost}:${addr.port}`,
    ...(metrics ? { metricsUrl: metrics.url } : {}),
    close() {
      closing ??= Promise.all([
        new Promise<void>((resolve) => {
          const force = setTimeout(() => server.closeAllConnections(), 5000);
          force.unref();
          server.close(() => {
            clearTimeout(force);
            resolve();
          });
          server.closeIdleConnections();
        }),
        metrics?.close(),
      ]).then(() => undefined);
      return closing;
    },
  };
}
