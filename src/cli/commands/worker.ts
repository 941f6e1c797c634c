import { ConfigError, loadConfig } from '../../config.js';
import { startMetricsServer } from '../../http/metrics.js';
import { closeServices, openServices } from '../../services.js';
import { type CommandSpec, parse } from '../args.js';

export const workerSpec: CommandSpec = {
  name: 'worker',
  usage: 'cds worker [--data DIR]   (metrics on CDS_METRICS_PORT when set)',
  summary:
    'Runs background jobs only (exports, collects, alert runs), no HTTP: the worker process of a scale-out ' +
    'deployment. Prints "worker ready" when it takes jobs; on SIGTERM or SIGINT hands running jobs back and stops.',
  options: { data: { type: 'string' } },
  help:
    'Options:\n  --data DIR   data directory (CDS_DATA_DIR, default ./data): the releases it reads; with CDS_STATE=redis\n' +
    '               jobs come from Redis (BullMQ), else from DIR/state.sqlite\nCDS_WORKERS (default 4) sets how ' +
    'many jobs run at once; API processes beside it run with CDS_WORKERS=0.\n',
};

/** Runs jobs until a signal; resolves after running jobs were handed back and the adapters closed. */
export async function worker(argv: string[]): Promise<void> {
  parse(workerSpec, argv);
  const config = loadConfig(argv);
  if (config.workers < 1) throw new ConfigError('cds worker needs CDS_WORKERS of 1 or more');
  const services = await openServices(config);
  // A worker has no API port; its metrics (job durations, failures, queue depth) are served on CDS_METRICS_PORT.
  const metrics =
    config.metricsPort === null
      ? undefined
      : await startMetricsServer(services.metrics, config.host, config.metricsPort);
  if (metrics) process.stdout.write(`metrics on ${metrics.url}\n`);
  process.stdout.write(`worker ready (${services.jobs.workerId}, ${config.state} state)\n`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      services.logger.info({ signal }, 'worker shutting down');
      void (metrics?.close() ?? Promise.resolve()).then(() => closeServices(services)).then(resolve, resolve);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
