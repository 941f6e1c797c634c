import { createServer } from 'node:net';
import { type Config, ConfigError, loadConfig } from '../../config.js';
import { type RunningServer, startServer } from '../../http/server.js';
import { makeLogger, stderrSink } from '../../log.js';
import type { Services } from '../../operations/types.js';
import { closeServices, openServices } from '../../services.js';
import { type CommandSpec, parse } from '../args.js';

export const serveSpec: CommandSpec = {
  name: 'serve',
  usage: 'cds serve [--data DIR] [--port P] [--host H] [--public-url URL]',
  summary:
    'Serves REST (/v1, /api/v1, /health) from the data dir. Prints "listening on http://H:P" when ready; stops ' +
    'cleanly on SIGTERM or SIGINT.',
  options: {
    data: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    'public-url': { type: 'string' },
  },
  help:
    'Options:\n  --data DIR        data directory (CDS_DATA_DIR, default ./data)\n  --port P          port (PORT, ' +
    'default 8080; 0 = any free port)\n  --host H          interface (HOST, default 127.0.0.1)\n  --public-url URL  ' +
    'base URL used in signed links (CDS_PUBLIC_URL)\n',
};

/**
 * The one line a taken port gets (exit 2): which port, and how to choose another. `which` names the setting: the
 * main port (--port / PORT) or the metrics port (CDS_METRICS_PORT).
 */
export function portTaken(host: string, port: number, which: 'main' | 'metrics', code = 'EADDRINUSE'): ConfigError {
  const what = code === 'EACCES' ? 'may not be used by this user' : 'is already in use (is another cds running?)';
  const how =
    which === 'main'
      ? 'choose another with --port N or PORT=N (0 picks any free port)'
      : 'choose another with CDS_METRICS_PORT=N (0 picks any free port)';
  return new ConfigError(`port ${port} on ${host} ${what}: ${how}`);
}

/** Fails with `portTaken` when the main port cannot be listened on now (checked before slow work such as a seed). */
export async function checkPortFree(config: Pick<Config, 'host' | 'port'>): Promise<void> {
  if (config.port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' || e.code === 'EACCES' ? portTaken(config.host, config.port, 'main', e.code) : e),
    );
    probe.listen({ port: config.port, host: config.host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

async function listen(services: Services, config: Config): Promise<RunningServer> {
  try {
    return await startServer(services, config.host, config.port);
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { port?: number };
    if (err.code !== 'EADDRINUSE' && err.code !== 'EACCES') throw e;
    const metrics = config.metricsPort !== null && err.port === config.metricsPort && err.port !== config.port;
    throw portTaken(config.host, err.port ?? config.port, metrics ? 'metrics' : 'main', err.code);
  }
}

/**
 * Serves until a signal; resolves after a clean shutdown. `onReady` lets `cds start` print its banner: log lines
 * of the start are held back until it has printed, so the banner is one block.
 */
export async function serve(
  argv: string[],
  onReady?: (url: string, services: Services) => void | Promise<void>,
): Promise<void> {
  parse(serveSpec, argv);
  const config = loadConfig(argv);
  await checkPortFree(config);
  const sink = stderrSink();
  if (onReady) sink.hold();
  let services: Services | undefined;
  let running: RunningServer;
  try {
    services = await openServices(config, { logger: makeLogger(config.logLevel, sink) });
    running = await listen(services, config);
    if (config.port === 0) services.config.publicUrl = running.url;
    const lines = [`listening on ${running.url}\n`, running.metricsUrl ? `metrics on ${running.metricsUrl}\n` : ''];
    process.stdout.write(lines.join(''));
    if (onReady) await onReady(running.url, services);
  } catch (e) {
    sink.release();
    if (services) await closeServices(services).catch(() => undefined);
    throw e;
  }
  sink.release();
  const opened = services;
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      opened.logger.info({ signal }, 'shutting down');
      void running
        .close()
        .then(() => closeServices(opened))
        .then(resolve, resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
