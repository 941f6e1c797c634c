import { loadConfig } from '../../config.js';
import { startServer } from '../../http/server.js';
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

/** Serves until a signal; resolves after a clean shutdown. `onReady` lets `cds start` print its banner. */
export async function serve(argv: string[], onReady?: (url: string) => void | Promise<void>): Promise<void> {
  const { values } = parse(serveSpec, argv);
  const config = loadConfig(argv);
  const services = await openServices(config);
  const running = await startServer(services, config.host, config.port);
  if (config.port === 0) services.config.publicUrl = running.url;
  process.stdout.write(`listening on ${running.url}\n`);
  if (running.metricsUrl) process.stdout.write(`metrics on ${running.metricsUrl}\n`);
  void values;
  if (onReady) await onReady(running.url);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      services.logger.info({ signal }, 'shutting down');
      void running
        .close()
        .then(() => closeServices(services))
        .then(resolve, resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
