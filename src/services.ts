import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { ensureSecret, type Config } from './config.js';
import { systemClock, type Clock } from './domain/clock.js';
import { openDuckDBEngine } from './engine/duckdb/duckdb-engine.js';
import type { SearchEngine } from './engine/port.js';
import type { Services } from './operations/types.js';
import { openSqliteStore } from './state/sqlite/index.js';
import type { StateStore } from './state/port.js';
import { MemoryRateLimiter } from './state/memory/rate-limiter.js';
import { SqlParser } from './engine/duckdb/sql-parser.js';
import { BUILD_VERSION } from './version.js';

export function stateFile(dataDir: string): string {
  return join(dataDir, 'state.sqlite');
}

export function makeLogger(level: string): Logger {
  return pino({ level, base: { service: 'cds' } }, pino.destination(2));
}

/** Opens the state store chosen by configuration (CDS_STATE). */
export function openState(config: Config, secret: string): StateStore {
  if (config.state !== 'sqlite') throw new Error(`CDS_STATE=${config.state} is not available in this build; use sqlite.`);
  mkdirSync(config.dataDir, { recursive: true });
  return openSqliteStore({ file: stateFile(config.dataDir), keyPepper: secret, dataDir: config.dataDir });
}

/** Opens the search engine chosen by configuration (CDS_ENGINE). */
export async function openEngine(config: Config): Promise<SearchEngine> {
  if (config.engine !== 'duckdb') throw new Error(`CDS_ENGINE=${config.engine} is not available in this build; use duckdb.`);
  return openDuckDBEngine({ dataDir: config.dataDir, poolSize: config.duckdbPool, threads: config.duckdbThreads, memoryLimit: config.duckdbMemory });
}

/** The composition root: every adapter is chosen here once and handed to the app as one Services object. */
export async function openServices(config: Config, opts: { clock?: Clock; logger?: Logger } = {}): Promise<Services> {
  const secret = ensureSecret(config);
  const state = openState(config, secret);
  const engine = await openEngine(config);
  return {
    config,
    engine,
    state,
    rateLimiter: new MemoryRateLimiter(config.ratePerMinute, config.rateConcurrent),
    sqlParser: new SqlParser(),
    clock: opts.clock ?? systemClock,
    logger: opts.logger ?? makeLogger(config.logLevel),
    secret,
    build: { version: BUILD_VERSION },
  };
}

export async function closeServices(services: Services): Promise<void> {
  await services.engine.close();
  await services.sqlParser.close();
  services.state.close();
}
