import { loadConfig } from '../../../src/config.js';
import { isAppError } from '../../../src/domain/errors/index.js';
import { elasticsearchClient } from '../../../src/engine/elasticsearch/client.js';
import { opensearchClient } from '../../../src/engine/opensearch/client.js';
import type { ClusterConnection } from '../../../src/engine/search-cluster/connection.js';
import { openClusterEngine } from '../../../src/engine/search-cluster/engine.js';
import { clusterCall } from '../../../src/engine/search-cluster/errors.js';
import type { ClusterClient } from '../../../src/engine/search-cluster/transport.js';
import { openEngine } from '../../../src/services.js';

/**
 * What runs without a cluster, on both transports: the engine started against an address where nothing listens
 * (port 9, discard) answers health false and every read 503 data.unavailable, without throwing at start;
 * CDS_ENGINE=opensearch or elasticsearch without its URL refuses to start (a configuration error: exit 2). The live
 * path is the conformance suite on the OpenSearch node the test run starts.
 */
const TRANSPORTS: [string, (c: ClusterConnection) => ClusterClient, string][] = [
  ['OpenSearch', (c) => opensearchClient(c, 5_000), 'opensearch'],
  ['Elasticsearch', (c) => elasticsearchClient(c, 5_000), 'elasticsearch'],
];

describe.each(TRANSPORTS)('%s engine without a reachable cluster', (product, make, engineName) => {
  it('starts, reports unhealthy, and answers 503 data.unavailable', async () => {
    const client = make({ url: 'http://127.0.0.1:9' });
    expect(client.product).toBe(product);
    const engine = await openClusterEngine({ client, ownsClient: true, pollMs: 60_000 });
    try {
      const h = await engine.health();
      expect(h.ok).toBe(false);
      expect(h.error).toMatch(new RegExp(`${product} is unreachable`));
      expect(engine.release()).toBeNull();
      const reads = [
        engine.query('contact', { and: [] }, { countBudgetMs: 1000 }),
        engine.exportCount('contact', { and: [] }, { maxPerCompany: null, budgetMs: 1000 }),
        engine.distinctValues('contact', 'country', null, 10),
        engine.populatedCounts('company'),
      ];
      for (const r of reads) {
        const e = await r.then(
          () => null,
          (x: unknown) => x,
        );
        expect(isAppError(e) ? e.code : e).toBe('data.unavailable');
      }
    } finally {
      await engine.close();
    }
  });

  it('maps a refused connection of a real client call to data.unavailable', async () => {
    const client = make({ url: 'http://127.0.0.1:9' });
    try {
      const e = await clusterCall(() => client.search({ index: 'contacts-x', size: 0 }, { maxRetries: 0 })).then(
        () => null,
        (x: unknown) => x,
      );
      expect(isAppError(e) ? e.code : e).toBe('data.unavailable');
    } finally {
      await client.close();
    }
  });

  it(`is refused without its URL`, async () => {
    const config = loadConfig([], { CDS_ENGINE: engineName, CDS_DATA: '/nonexistent' });
    await expect(openEngine(config)).rejects.toThrow(new RegExp(`needs ${engineName.toUpperCase()}_URL`));
  });
});
