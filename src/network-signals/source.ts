import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { SearchEngine } from '../engine/port.js';
import { HttpNetworkSource } from './http/http-provider.js';
import type { NetworkSource } from './port.js';
import { SimulatedNetwork } from './simulated/simulated-network.js';

/** What a NetworkSource is built from: the configuration, the clock and the engine. */
export interface SourceDeps {
  config: Config;
  clock: Clock;
  engine: SearchEngine;
}

/**
 * The NetworkSource chosen by configuration (the composition root opens one per process): the HTTP provider
 * when CDS_SIGNALS_PROVIDER_URL is set, else the simulated network.
 */
export function openNetworkSource(deps: SourceDeps): NetworkSource {
  const c = deps.config;
  if (c.signalsProviderUrl) {
    return new HttpNetworkSource({
      url: c.signalsProviderUrl,
      token: c.signalsProviderToken,
      timeoutMs: c.signalsProviderTimeoutMs,
      retries: c.signalsProviderRetries,
      backoffMs: c.signalsProviderBackoffMs,
    });
  }
  return new SimulatedNetwork({
    host: c.networkHost,
    clock: deps.clock,
    engine: deps.engine,
    delayMs: c.signalsDelayMs,
    budgetMs: c.searchBudgetMs,
  });
}
