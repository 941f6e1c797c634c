import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { type Config, ConfigError, ensureSecret } from './config.js';
import { type Clock, systemClock } from './domain/clock.js';
import { openDuckDBEngine } from './engine/duckdb/duckdb-engine.js';
import { sweepKilledLoads } from './engine/duckdb/release-store.js';
import { DuckDBWhereSqlParser } from './engine/duckdb/where-sql/parser.js';
import { elasticsearchClient } from './engine/elasticsearch/client.js';
import { opensearchClient } from './engine/opensearch/client.js';
import type { ReleaseSwitch, SearchEngine } from './engine/port.js';
import type { ClusterConnection } from './engine/search-cluster/connection.js';
import { openClusterEngine } from './engine/search-cluster/engine.js';
import type { ClusterClient } from './engine/search-cluster/transport.js';
import { timedEngine } from './engine/timed.js';
import { BullJobQueue } from './jobs/bullmq/bullmq-queue.js';
import { exportJobKind } from './jobs/export/worker.js';
import { JobRunner } from './jobs/runner.js';
import { webhookPass, webhookSender } from './jobs/webhooks/deliver.js';
import { WebhookWakeups } from './jobs/webhooks/wakeups.js';
import { makeLogger } from './log.js';
import { observeJobEnds } from './metrics/job-ends.js';
import { Metrics } from './metrics/metrics.js';
import { openNetworkSource } from './network-signals/source.js';
import { enrichmentRunJobKind } from './operations/enrichment-upload/run-job.js';
import { HoldLeases } from './operations/hold-leases.js';
import { alertScheduler, collectJobKinds } from './operations/network-signals/index.js';
import type { Services } from './operations/types.js';
import { MemoryRateLimiter } from './state/memory/rate-limiter.js';
import type { StateStore } from './state/port.js';
import { closeRedis, connectRedis, type RedisClient, whenReady } from './state/redis/client.js';
import { openRedisStore } from './state/redis/index.js';
import { RedisRateLimiter } from './state/redis/rate-limiter.js';
import { openSqliteStore } from './state/sqlite/index.js';
import { unavailableStateStore } from './state/unavailable-store.js';
import { syncSuppression } from './suppression-sync.js';
import { BUILD_VERSION } from './version.js';

export function stateFile(dataDir: string): string {
  return join(dataDir, 'state.sqlite');
}

export { makeLogger } from './log.js';

/**
 * Opens the state store chosen by configuration (CDS_STATE): the SQLite file of the data dir, or the deployment's
 * Redis (REDIS_URL). A command waits for Redis; a server (`wait: false`) starts while Redis is down and answers 503
 * until the connection comes up.
 */
export async function openState(
  config: Config,
  secret: string,
  opts: { wait?: boolean; client?: RedisClient; logger?: Logger } = {},
): Promise<StateStore> {
  if (config.state === 'redis') {
    const client = opts.client ?? (await redisClientFor(config, opts));
    return openRedisStore({
      client,
      // A command's own connection closes with the store; a server's shared one closes in closeServices.
      ownsClient: opts.client === undefined,
      keyPepper: secret,
      dataDir: config.dataDir,
      prefix: config.redisPrefix,
    });
  }
  mkdirSync(config.dataDir, { recursive: true });
  return openSqliteStore({ file: stateFile(config.dataDir), keyPepper: secret, dataDir: config.dataDir });
}

/** The process's one Redis connection (state, rate windows), from REDIS_URL and REDIS_TLS. */
export async function redisClientFor(
  config: Config,
  opts: { wait?: boolean; logger?: Logger; commandTimeoutMs?: number } = {},
): Promise<RedisClient> {
  if (!config.redisUrl) throw new ConfigError('CDS_STATE=redis needs REDIS_URL (redis://host:6379 or rediss://…)');
  let lastLogged = 0;
  return connectRedis({
    url: config.redisUrl,
    tls: config.redisTls,
    wait: opts.wait ?? true,
    ...(opts.commandTimeoutMs !== undefined ? { commandTimeoutMs: opts.commandTimeoutMs } : {}),
    onError: (err) => {
      // The client reconnects by itself; say so at most every 10 s rather than on every retry.
      if (Date.now() - lastLogged < 10_000) return;
      lastLogged = Date.now();
      opts.logger?.error({ err }, 'Redis unreachable; retrying');
    },
  });
}

/**
 * For the server: a state file that cannot be opened degrades the service (503, health false) instead of crashing it.
 */
async function openStateForServer(
  config: Config,
  secret: string,
  logger: Logger,
  client: RedisClient | undefined,
): Promise<StateStore> {
  try {
    return await openState(config, secret, { wait: false, logger, ...(client ? { client } : {}) });
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    logger.error({ err: e }, 'state store unavailable');
    return unavailableStateStore((e as Error).message);
  }
}

/**
 * How this deployment reaches its search cluster: OPENSEARCH_URL (CDS_ENGINE=opensearch) or ELASTICSEARCH_URL
 * (CDS_ENGINE=elasticsearch), with CDS_ES_API_KEY and CDS_ES_CA_FILE.
 */
export function clusterConnection(config: Config): ClusterConnection {
  const [url, name] =
    config.engine === 'opensearch'
      ? [config.opensearchUrl, 'OPENSEARCH_URL']
      : [config.elasticsearchUrl, 'ELASTICSEARCH_URL'];
  if (!url) throw new ConfigError(`CDS_ENGINE=${config.engine} needs ${name} (http://host:9200 or https://…)`);
  if (config.engine === 'opensearch' && config.esApiKey)
    throw new ConfigError('OpenSearch takes no API key (CDS_ES_API_KEY): put a user and password in OPENSEARCH_URL');
  return {
    url,
    ...(config.esApiKey ? { apiKey: config.esApiKey } : {}),
    ...(config.esCaFile ? { caFile: config.esCaFile } : {}),
  };
}

/** A client of the configured search cluster, through its product's transport; the caller closes it. */
export function clusterClient(config: Config, requestTimeout?: number): ClusterClient {
  const c = clusterConnection(config);
  return config.engine === 'opensearch' ? opensearchClient(c, requestTimeout) : elasticsearchClient(c, requestTimeout);
}

/**
 * Opens the search engine chosen by configuration (CDS_ENGINE). `onReleaseSwitch` hears of the first release it
 * serves and of every switch after (the engine logs nothing itself).
 */
export async function openEngine(
  config: Config,
  hooks: { onReleaseSwitch?: (change: ReleaseSwitch) => void } = {},
): Promise<SearchEngine> {
  if (config.engine !== 'duckdb')
    return openClusterEngine({ client: clusterClient(config), ownsClient: true, prefix: config.esPrefix, ...hooks });
  return openDuckDBEngine({
    ...hooks,
    dataDir: config.dataDir,
    poolSize: config.duckdbPool,
    threads: config.duckdbThreads,
    memoryLimit: config.duckdbMemory,
    pointReaders: config.pointReaders,
    index: config.index,
    indexCacheMb: config.indexCacheMb,
    resultCacheMb: config.queryCacheMb,
  });
}

/** One line per serving release: the first one of the process, then each switch. */
function logReleaseSwitch(logger: Logger, { from, to }: ReleaseSwitch): void {
  const counts = { contacts: to.contacts, companies: to.companies };
  if (from) logger.info({ release: to.id, previous: from.id, ...counts }, 'data release switched');
  else logger.info({ release: to.id, ...counts }, 'data release serving');
}

/**
 * Files the service writes (exports, the state file, the secret, job scratch) are the owner's alone: the process
 * creates files 0600 and folders 0700 (umask 077), and a state file or files folder made by an earlier version is
 * narrowed to those modes at start.
 */
function restrictFileModes(config: Config): void {
  process.umask(0o077);
  mkdirSync(config.filesDir, { recursive: true, mode: 0o700 });
  chmodSync(config.filesDir, 0o700);
  for (const file of [stateFile(config.dataDir), join(config.dataDir, 'secret')]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

/** How long a server's start waits for its Redis connection before its orphan-hold sweep (then the lease sweep does it). */
const STARTUP_REDIS_WAIT_MS = 5000;

/** The composition root: every adapter is chosen here once and handed to the app as one Services object. */
export async function openServices(config: Config, opts: { clock?: Clock; logger?: Logger } = {}): Promise<Services> {
  restrictFileModes(config);
  const secret = ensureSecret(config);
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? makeLogger(config.logLevel);
  // Redis mode: one connection for the state store and the rate windows of this process.
  const redis = config.state === 'redis' ? await redisClientFor(config, { wait: false, logger }) : undefined;
  const state = await openStateForServer(config, secret, logger, redis);
  // Holds of requests whose process died (their lease expired) go back to their accounts; live requests of
  // another process serving this data dir keep theirs.
  // The Redis connection opens in the background and refuses commands until it is up: wait for it (bounded), or a
  // start racing its own connect (two processes starting at once) warns while Redis is reachable.
  if (redis) await whenReady(redis, STARTUP_REDIS_WAIT_MS);
  const orphans = await state.releaseOrphanHolds(clock.now()).catch((err: unknown) => {
    logger.warn({ err }, 'could not look for orphan credit holds now; the lease sweep will');
    return 0;
  });
  if (orphans > 0) logger.warn({ orphans }, 'released credit holds left by a stopped process');
  const metrics = new Metrics();
  const engine = timedEngine(
    await openEngine(config, { onReleaseSwitch: (change) => logReleaseSwitch(logger, change) }),
    (entity, kind, s) => metrics.engineCall(entity, kind, s),
  );
  // Opt-outs: the state store's list is applied to every read of the engine within a second of a change. A server
  // waits (up to 10 s) for the first application, so it never answers with an opted-out person at start.
  const suppression = syncSuppression({
    state,
    engine,
    everyMs: 250,
    onError: (() => {
      // While the store is down this fails every poll: say so once every 10 s, not twice a second.
      let last = 0;
      return (err: unknown) => {
        if (Date.now() - last < 10_000) return;
        last = Date.now();
        logger.warn({ err }, 'could not apply the opt-out list; retrying');
      };
    })(),
    // The empty list of a deployment that never had an opt-out is no news at start.
    onApplied: (a) =>
      (a.version === 0 && a.contacts === 0 ? logger.debug : logger.info).call(logger, a, 'opt-out list applied'),
  });
  await Promise.race([suppression.ready, new Promise((r) => setTimeout(r, 10_000).unref())]);
  // Temp files of loads killed earlier go (a load still running keeps its own: its marker names a live process).
  const swept = await sweepKilledLoads(config.dataDir);
  if (swept.length > 0) logger.warn({ swept }, 'removed what a killed load left behind');
  // Redis mode: job wake-ups travel on BullMQ (its own connection: a worker's blocking reads must not hold up the
  // state store's commands), so any worker process of the deployment takes a job an API process queued.
  const queue = redis
    ? new BullJobQueue({
        // No command bound: BullMQ waits on blocking reads by design.
        client: await redisClientFor(config, { wait: false, logger, commandTimeoutMs: 0 }),
        lockMs: config.jobStaleMs,
        prefix: `${config.redisPrefix}bull`,
        logger,
      })
    : undefined;
  // Redis mode: webhook deliveries are woken through BullMQ too (jobs/webhooks/wakeups.ts), on a connection of their own.
  const webhookWakeups = redis
    ? new WebhookWakeups(
        await redisClientFor(config, { wait: false, logger, commandTimeoutMs: 0 }),
        `${config.redisPrefix}bull`,
        logger,
      )
    : undefined;
  const observeEnds = observeJobEnds(metrics, state, (err) =>
    logger.warn({ err }, 'could not read a job hold for metrics'),
  );
  const jobs = new JobRunner({
    store: state,
    clock,
    logger,
    maxRunning: Math.max(1, config.workers),
    heartbeatMs: config.jobHeartbeatMs,
    staleMs: config.jobStaleMs,
    ...(queue ? { queue } : {}),
    onJobEnd: (job, end, seconds) => {
      observeEnds(job, end, seconds);
      // The job's end wrote its event (if any) in the same step: wake a worker to send it.
      void webhookWakeups?.announce(`job-${job.id}-${job.attempts}`, clock.now(), clock.now());
    },
  });
  const services: Services = {
    config,
    engine,
    state,
    jobs,
    rateLimiter: redis
      ? new RedisRateLimiter(redis, {
          prefix: `${config.redisPrefix}rate:`,
          perMinute: config.ratePerMinute,
          concurrent: config.rateConcurrent,
        })
      : new MemoryRateLimiter(config.ratePerMinute, config.rateConcurrent),
    networkSource: openNetworkSource({ config, clock, engine }),
    whereSqlParser: new DuckDBWhereSqlParser(),
    metrics,
    holdLeases: new HoldLeases(
      state,
      clock,
      (released) => logger.warn({ released }, 'released credit holds of a process that stopped'),
      (err) => logger.error({ err }, 'renewing credit hold leases failed'),
      config.holdLeaseMs,
    ),
    clock,
    logger,
    secret,
    build: { version: BUILD_VERSION },
    suppression,
    ...(redis ? { redis } : {}),
    ...(webhookWakeups ? { webhookWakeups } : {}),
  };
  services.holdLeases.onCharged = (hold) => metrics.creditsCharged(hold);
  services.holdLeases.onLost = (hold, charge) =>
    logger.error(
      { hold: hold.id, account: hold.accountId, charge, status: hold.status },
      'a charge came after its credit hold was released by another process (this one stalled past its lease): ' +
        'those rows went unpaid',
    );
  metrics.scrapeFrom({
    engine: { adapter: config.engine, health: () => engine.health() },
    state: { adapter: config.state, ping: () => state.ping() },
    // Queued jobs of the deployment (from the store, capped at 10,000), jobs running in this process, and in Redis
    // mode the BullMQ wake-ups waiting, being handled and delayed.
    jobCounts: async () => {
      const wake = await jobs.queueCounts();
      return {
        queued: (await state.queuedJobs(10_000)).length,
        running_here: jobs.runningJobs().length,
        ...(wake ? { wakeup_waiting: wake.waiting, wakeup_active: wake.active, wakeup_delayed: wake.delayed } : {}),
      };
    },
  });
  registerWorkers(services);
  services.holdLeases.start();
  // CDS_WORKERS=0: this process only queues jobs; another process on the same data dir runs them.
  if (config.workers > 0) {
    jobs.start();
    webhookWakeups?.consume(2, () => webhookPass(services));
  }
  return services;
}

/**
 * Every kind of background work this process does, in one list: the job kinds the runner runs and the periodic
 * tasks beside them. Their teardown is the runner's: `jobs.stop()` hands running jobs back and clears the timers.
 */
function registerWorkers(services: Services): void {
  const { config, engine, jobs } = services;
  jobs.register(
    exportJobKind({
      engine,
      filesDir: config.filesDir,
      concurrency: config.exportConcurrency,
      batchRows: config.exportBatchRows,
      batchBudgetMs: config.exportBatchBudgetMs,
      batchDelayMs: config.exportBatchDelayMs,
    }),
  );
  for (const kind of collectJobKinds(services)) jobs.register(kind);
  jobs.register(enrichmentRunJobKind(services));
  jobs.every(alertScheduler(services));
  jobs.every(webhookSender(services));
}

/** Stops the job runner first (running jobs reach a safe point or go back to the queue), then the adapters. */
export async function closeServices(services: Services): Promise<void> {
  services.holdLeases.stop();
  await services.jobs.stop();
  await services.jobs.closeQueue();
  await services.webhookWakeups?.close();
  await services.suppression.stop();
  await services.engine.close();
  await services.whereSqlParser.close();
  // The Redis limiter renews its live slots' leases on a timer; the memory one has nothing to stop.
  await (services.rateLimiter as { close?: () => Promise<void> | void }).close?.();
  await services.state.close();
  if (services.redis?.isOpen) await closeRedis(services.redis);
}
