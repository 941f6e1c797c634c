import type { Config } from '../config.js';
import type { Clock } from '../domain/clock.js';
import type { SearchEngine } from '../engine/port.js';
import { HttpNetworkSource } from './http/http-provider.js';
import type { NetworkSource } from './port.js';
import { SimulatedNetwork } from './simulated/simulated-network.js';

/** What a NetworkSource is built from: the services' configuration, clock and engine. */
export interface SourceDeps {
  config: Config;
  clock: Clock;
  engine: SearchEngine;
}

const sources = new WeakMap<object, NetworkSource>();

/**
 * The NetworkSource chosen by configuration, one per services object: the HTTP provider when
 * CDS_SIGNALS_PROVIDER_URL is set, else the simulated network.
 */
export function networkSourceFor(deps: SourceDeps): NetworkSource {
  let source = sources.get(deps);
  if (!source) {
    const c = deps.config;
    source = c.signalsProviderUrl
      ? new HttpNetworkSource({ url: c.signalsProviderUrl, token: c.signalsProviderToken, timeoutMs: c.signalsProviderTimeoutMs, retries: c.signalsProviderRetries, backoffMs: c.signalsProviderBackoffMs })
      : new SimulatedNetwork({ host: c.networkHost, clock: deps.clock, engine: deps.engine, delayMs: c.signalsDelayMs, budgetMs: c.searchBudgetMs });
    sources.set(deps, source);
  }
  return source;
}
