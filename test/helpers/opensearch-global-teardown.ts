import type { OpenSearchCluster } from './opensearch-node.js';

/** jest globalTeardown: stops the node opensearch-global-setup started (if it started one). */
export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { cdsOpenSearch?: OpenSearchCluster };
  await holder.cdsOpenSearch?.stop();
  holder.cdsOpenSearch = undefined;
}
