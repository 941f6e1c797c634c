import opensearchGlobalSetup from './opensearch-global-setup.js';
import { openSeedCache } from './seed-cache.js';

/** jest globalSetup: the run's cache of seeded releases (seed-cache.ts), then its OpenSearch node. */
export default async function globalSetup(): Promise<void> {
  openSeedCache();
  await opensearchGlobalSetup();
}
