import opensearchGlobalTeardown from './opensearch-global-teardown.js';
import { removeSeedCache } from './seed-cache.js';

/** jest globalTeardown: stops the run's OpenSearch node and removes its cache of seeded releases. */
export default async function globalTeardown(): Promise<void> {
  try {
    await opensearchGlobalTeardown();
  } finally {
    removeSeedCache();
  }
}
