import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Logger, pino } from 'pino';
import { type Config, ensureSecret } from './config.js';
import { type Clock, systemClock } from './domain/clock.js';
import { openDuckDBEngine } from './engine/duckdb/duckdb-engine.js';
import { sweepKilledLoads } from './engine/duckdb/release-store.js';
import { DuckDBWhereSqlParser } from './engine/duckdb/where-sql/parser.js';
import type { SearchEngine } from './engine/port.js';
import { OperatorSignIns } from './face/operator-sign-ins.js';
import { exportJobKind } from './jobs/export/worker.js';
import { JobRunner } from './jobs/runner.js';
import { openNetworkSource } from './network-signals/source.js';
import { HoldLeases } from './operations/hold-leases.js';
import { alertScheduler, collectJobKinds } from './operations/network-signals/index.js';
import type { Services } from './operations/types.js';
import { MemoryRateLimiter } from './state/memory/rate-limiter.js';
import type { StateStore } from './state/port.js';
import { openSqliteStore } from './state/sqlite/index.js';
import { unavailableStateStore } from './state/unavailable-store.js';
import { BUILD_VERSION } from './version.js';

export function stateFile(dataDir: string): string {
  return join(dataDir, 'state.sqlite');
}

export function makeLogger(level: string): Logger {
  return pino({ level, base: { service: 'cds' } }, pino.destination(2));
}

/** Opens the state store chosen by configuration (CDS_STATE). */
export function openState(config: Config, secret: string): StateStore {
  if (config.state !== 'sqlite')
    throw new Error(`CDS_STATE=${config.state} is not available in this build; use sqlite.`);
  mkdirSync(config.dataDir, { recursive: true });
  return openSqliteStore({ file: stateFile(config.dataDir), keyPepper: secret, dataDir: config.dataDir });
}

/**
 * For the server: a state file that cannot be opened degrades the service (503, health false) instead of crashing it.
 */
function openStateForServer(config: Config, secret: string, logger: Logger): StateStore {
  try {
    return openState(config, secret);
  } catch (e) {
    logger.error({ err: e }, 'state store unavailable');
    return unavailableStateStore((e as Error).message);
  }
}

/** Opens the search engine chosen by configuration (CDS_ENGINE). */
export async function openEngine(config: Config): Promise<SearchEngine> {
  if (config.engine !== 'duckdb')
    throw new Error(`CDS_ENGINE=${config.engine} is not available in this build; use duckdb.`);
  return openDuckDBEngine({
    dataDir: config.dataDir,
    poolSize: config.duckdbPool,
    threads: config.duckdbThreads,
    memoryLimit: config.duckdbMemory,
    pointReaders: config.pointReaders,
    index: config.index,
    indexCacheMb: config.indexCacheMb,
  });
}

/**
 * Files the service writes (exports, the state file, the secret, job scratch) are the owner's alone: the process
 * creates files 0600 and folders 0700 (umask 077), and a state file or files folder made by an earlier version is
 * narrowed to those modes at start.
 */
function restrictFileModes(config: Config): void {
  process.umask(0o077);
  mkdirSync(join(config.dataDir, 'files'), { recursive: true, mode: 0o700 });
  chmodSync(join(config.dataDir, 'files'), 0o700);
  for (const file of [stateFile(config.dataDir), join(config.dataDir, 'secret')]) {
    if (existsSync(file)) chmodSync(file, 0o600);
  }
}

/** The composition root: every adapter is chosen here once and handed to the app as one Services object. */
export async function openServices(config: Config, opts: { clock?: Clock; logger?: Logger } = {}): Promise<Services> {
  restrictFileModes(config);
  const secret = ensureSecret(config);
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? makeLogger(config.logLevel);
  const state = openStateForServer(config, secret, logger);
  // Holds of requests whose process died (their lease expired) go back to their accounts; live requests of
  // another process serving this data dir keep theirs.
  const orphans = state.releaseOrphanHolds(clock.now());
  if (orphans > 0) logger.warn({ orphans }, 'released credit holds left by a stopped process');
  const engine = await openEngine(config);
  // Temp files of loads killed earlier go (a load still running keeps its own: its marker names a live process).
  const swept = await sweepKilledLoads(config.dataDir);
  if (swept.length > 0) logger.warn({ swept }, 'removed what a killed load left behind');
  const jobs = new JobRunner({
    store: state,
    clock,
    logger,
    maxRunning: Math.max(1, config.workers),
    heartbeatMs: config.jobHeartbeatMs,
    staleMs: config.jobStaleMs,
  });
  const services: Services = {
    config,
    engine,
    state,
    jobs,
    rateLimiter: new MemoryRateLimiter(config.ratePerMinute, config.rateConcurrent),
    networkSource: openNetworkSource({ config, clock, engine }),
    whereSqlParser: new DuckDBWhereSqlParser(),
    operatorSignIns: new OperatorSignIns(),
    holdLeases: new HoldLeases(
      state,
      clock,
      (released) => logger.warn({ released }, 'released credit holds of a process that stopped'),
      (err) => logger.error({ err }, 'renewing credit hold leases failed'),
    ),
    clock,
    logger,
    secret,
    build: { version: BUILD_VERSION },
  };
  registerWorkers(services);
  services.holdLeases.start();
  // CDS_WORKERS=0: this process only queues jobs; another process on the same data dir runs them.
  if (config.workers > 0) jobs.start();
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
      dataDir: config.dataDir,
      concurrency: config.exportConcurrency,
      batchRows: config.exportBatchRows,
      batchBudgetMs: config.exportBatchBudgetMs,
      batchDelayMs: config.exportBatchDelayMs,
    }),
  );
  for (const kind of collectJobKinds(services)) jobs.register(kind);
  jobs.every(alertScheduler(services));
}

/** Stops the job runner first (running jobs reach a safe point or go back to the queue), then the adapters. */
export async function closeServices(services: Services): Promise<void> {
  services.holdLeases.stop();
  await services.jobs.stop();
  await services.engine.close();
  await services.whereSqlParser.close();
  services.state.close();
}
