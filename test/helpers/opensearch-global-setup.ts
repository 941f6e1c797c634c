import { type OpenSearchCluster, openSearchAvailable, startOpenSearch } from './opensearch-node.js';

/**
 * jest globalSetup: one OpenSearch node for the whole run, its URL in OPENSEARCH_URL for every worker (workers start
 * after this and inherit the environment). Nothing is started when OPENSEARCH_URL is already set (a cluster of your
 * own), when CDS_OPENSEARCH=0, or where Java or Maven is missing (a warning; the OpenSearch cases then skip, unless
 * CDS_REQUIRE_OPENSEARCH=1, as CI sets: then the run fails).
 * A node that fails to start fails the run with start.sh's error and log tail.
 */
export default async function globalSetup(): Promise<void> {
  if (process.env.OPENSEARCH_URL || process.env.CDS_OPENSEARCH === '0') return;
  if (!openSearchAvailable()) {
    if (process.env.CDS_REQUIRE_OPENSEARCH === '1')
      throw new Error('CDS_REQUIRE_OPENSEARCH=1 but java or mvn is not installed: the OpenSearch cases cannot run');
    console.warn('OpenSearch not started: java or mvn is not installed (OpenSearch cases skip)');
    return;
  }
  const t0 = Date.now();
  const cluster = await startOpenSearch({ own: true, heap: process.env.CDS_OPENSEARCH_HEAP ?? '1g' });
  process.env.OPENSEARCH_URL = cluster.url;
  (globalThis as { cdsOpenSearch?: OpenSearchCluster }).cdsOpenSearch = cluster;
  console.log(`\nOpenSearch for this run: ${cluster.url} (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
