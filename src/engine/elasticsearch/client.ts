import { Client, errors } from '@elastic/elasticsearch';
import { type ClusterConnection, caOf, nodesOf } from '../search-cluster/connection.js';
import { type ClusterClient, ClusterError, clusterError } from '../search-cluster/transport.js';

/**
 * The Elasticsearch transport of the search-cluster family: `@elastic/elasticsearch` (it sends the 9.x compatibility
 * headers and checks the product header), point in time as `POST /<index>/_pit` and `DELETE /_pit`. Every failure is
 * thrown as a ClusterError.
 */
export function elasticsearchClient(c: ClusterConnection, requestTimeout = 30_000): ClusterClient {
  const ca = caOf(c);
  return elasticsearchTransport(
    new Client({
      nodes: nodesOf(c),
      requestTimeout,
      ...(c.apiKey ? { auth: { apiKey: c.apiKey } } : {}),
      ...(ca ? { tls: { ca } } : {}),
    }),
  );
}

/** The transport over a client already made (tests point one at an address of their own). */
export function elasticsearchTransport(client: Client): ClusterClient {
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      throw clusterError(e, errors);
    }
  };
  return {
    product: 'Elasticsearch',
    search: (req, opts) => call(() => client.search({ ...req, allow_partial_search_results: false }, opts)),
    openPointInTime: (index, keepAlive) =>
      call(() =>
        client.openPointInTime({ index, keep_alive: keepAlive, allow_partial_search_results: false }).then((r) => r.id),
      ),
    closePointInTime: (id) => call(() => client.closePointInTime({ id }).then(() => undefined)),
    bulk: (operations) =>
      call(async () => {
        const r = await client.bulk({ operations, refresh: false });
        return {
          errors: r.errors,
          items: r.items.map((item) => {
            const op = Object.values(item)[0]!;
            return { status: op.status, ...(op.error ? { error: op.error } : {}) };
          }),
        };
      }),
    ping: (opts) => call(() => client.ping({}, opts).then(() => undefined)),
    createIndex: (index, settings, mappings) =>
      call(() => client.indices.create({ index, settings, mappings }).then(() => undefined)),
    deleteIndices: (indices) =>
      call(() => client.indices.delete({ index: [...indices], ignore_unavailable: true }).then(() => undefined)),
    putSettings: (index, settings) => call(() => client.indices.putSettings({ index, settings }).then(() => undefined)),
    refresh: (index) => call(() => client.indices.refresh({ index }).then(() => undefined)),
    getMeta: (index) => call(async () => (await client.indices.getMapping({ index }))[index]?.mappings._meta),
    putMeta: (index, meta) => call(() => client.indices.putMapping({ index, _meta: meta }).then(() => undefined)),
    aliasIndices: (alias) =>
      call(() => client.indices.getAlias({ name: alias }).then(Object.keys)).catch((e: unknown) => {
        if (e instanceof ClusterError && e.status === 404) return [];
        throw e;
      }),
    updateAliases: (actions) => call(() => client.indices.updateAliases({ actions }).then(() => undefined)),
    indexNames: (pattern) =>
      call(async () =>
        (await client.cat.indices({ index: pattern, format: 'json', h: 'index' })).map((r) => String(r.index)),
      ),
    close: () => client.close(),
  };
}
