import { Client } from '@elastic/elasticsearch';
import { loadConfig } from '../../../src/config.js';
import { isAppError } from '../../../src/domain/errors/index.js';
import { openElasticsearchEngine } from '../../../src/engine/elasticsearch/elasticsearch-engine.js';
import { esCall } from '../../../src/engine/elasticsearch/errors.js';
import { openEngine } from '../../../src/services.js';

/**
 * What runs here without a cluster: the engine started against an address where nothing listens (port 9, discard)
 * answers health false and every read 503 data.unavailable, without throwing at start; CDS_ENGINE=elasticsearch
 * without ELASTICSEARCH_URL refuses to start (a configuration error: exit 2). The live path is the conformance suite
 * with ELASTICSEARCH_URL set.
 */
describe('Elasticsearch engine without a reachable cluster', () => {
  it('starts, reports unhealthy, and answers 503 data.unavailable', async () => {
    const engine = await openElasticsearchEngine({ connection: { url: 'http://127.0.0.1:9' }, pollMs: 60_000 });
    try {
      const h = await engine.health();
      expect(h.ok).toBe(false);
      expect(h.error).toMatch(/unreachable/);
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
    const client = new Client({ node: 'http://127.0.0.1:9', maxRetries: 0 });
    try {
      const e = await esCall(() => client.search({ index: 'contacts-x', size: 0 })).then(
        () => null,
        (x: unknown) => x,
      );
      expect(isAppError(e) ? e.code : e).toBe('data.unavailable');
    } finally {
      await client.close();
    }
  });

  it('is refused without ELASTICSEARCH_URL', async () => {
    const config = loadConfig([], { CDS_ENGINE: 'elasticsearch', CDS_DATA: '/nonexistent' });
    await expect(openEngine(config)).rejects.toThrow(/needs ELASTICSEARCH_URL/);
  });
});
