import { parseSignalTarget } from '../../src/network-signals/target.js';
import type { TestApp } from './test-app.js';

/**
 * A network profile the app's simulated network sizes between 1 and 500 engagements (`route-<name>-<i>`, the first
 * that fits). The network sizes a profile from the serving release's id, which differs on every run, and about one
 * profile in fifty would hold more than the pro plan's 10,000 premium credits (twice its engagements): a test that
 * spends or quotes a collect on a fixed profile would fail on those runs.
 */
export async function modestProfile(app: TestApp, name: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const url = `https://www.network.com/in/route-${name}-${i}`;
    const n = await app.services.networkSource.estimate(
      parseSignalTarget('network_profile', url, app.config.networkHost),
    );
    if (n >= 1 && n <= 500) return url;
  }
  throw new Error(`no profile named route-${name}-… is sized between 1 and 500`);
}
