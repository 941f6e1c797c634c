import type { estypes } from '@elastic/elasticsearch';
import { Client, errors } from '@opensearch-project/opensearch';
import { type ClusterConnection, caOf, nodesOf } from '../search-cluster/connection.js';
import { type ClusterClient, ClusterError, clusterError } from '../search-cluster/transport.js';

/**
 * The OpenSearch transport of the search-cluster family (OpenSearch 2.19 and 3.x): `@opensearch-project/opensearch`,
 * whose calls take the request body as `body` and answer `{ body, statusCode }`; point in time as
 * `POST /<index>/_search/point_in_time` (`pit_id`) and `DELETE /_search/point_in_time`. OpenSearch has no API keys of
 * Elasticsearch's kind: a secured cluster takes a user and password in OPENSEARCH_URL. Every failure is thrown as a
 * ClusterError.
 */
export function opensearchClient(c: ClusterConnection, requestTimeout = 30_000): ClusterClient {
  if (c.apiKey)
    throw new Error('OpenSearch takes no API key (CDS_ES_API_KEY): put a user and password in OPENSEARCH_URL');
  const ca = caOf(c);
  return opensearchTransport(new Client({ nodes: nodesOf(c), requestTimeout, ...(ca ? { ssl: { ca } } : {}) }));
}

/** The transport over a client already made. */
export function opensearchTransport(client: Client): ClusterClient {
  const call = async <T>(fn: () => Promise<{ body: T }>): Promise<T> => {
    try {
      return (await fn()).body;
    } catch (e) {
      throw clusterError(e, errors);
    }
  };
  const done = () => undefined;
  return {
    product: 'OpenSearch',
    search: <T>(req: estypes.SearchRequest, opts?: { requestTimeout?: number; maxRetries?: number }) => {
      const { index, ...body } = req;
      return call(() =>
        client.search(
          {
            ...(index !== undefined ? { index: index as string } : {}),
            body: body as never,
            allow_partial_search_results: false,
          },
          opts,
        ),
      ) as unknown as Promise<estypes.SearchResponse<T>>;
    },
    openPointInTime: (index, keepAlive) =>
      call(() => client.createPit({ index: [index], keep_alive: keepAlive, allow_partial_pit_creation: false })).then(
        (b) => b.pit_id,
      ),
    closePointInTime: (id) => call(() => client.deletePit({ body: { pit_id: [id] } })).then(done),
    bulk: (operations) =>
      call(() => client.bulk({ body: operations as never, refresh: 'false' })).then((r) => ({
        errors: r.errors,
        items: r.items.map((item) => {
          const op = Object.values(item)[0]!;
          return {
            status: op.status,
            ...(op.error ? { error: { type: String(op.error.type), reason: op.error.reason ?? null } } : {}),
          };
        }),
      })),
    ping: (opts) => call(() => client.ping({}, opts)).then(done),
    createIndex: (index, settings, mappings) =>
      call(() => client.indices.create({ index, body: { settings, mappings } as never })).then(done),
    deleteIndices: (indices) =>
      call(() => client.indices.delete({ index: [...indices], ignore_unavailable: true })).then(done),
    putSettings: (index, settings) =>
      call(() => client.indices.putSettings({ index, body: settings as never })).then(done),
    refresh: (index) => call(() => client.indices.refresh({ index })).then(done),
    getMeta: (index) =>
      call(() => client.indices.getMapping({ index })).then(
        (b) => (b as Record<string, { mappings?: { _meta?: Record<string, unknown> } }>)[index]?.mappings?._meta,
      ),
    putMeta: (index, meta) => call(() => client.indices.putMapping({ index, body: { _meta: meta } })).then(done),
    aliasIndices: (alias) =>
      call(() => client.indices.getAlias({ name: alias })).then(Object.keys, (e: unknown) => {
        if (e instanceof ClusterError && e.status === 404) return [];
        throw e;
      }),
    updateAliases: (actions) => call(() => client.indices.updateAliases({ body: { actions } })).then(done),
    indexNames: (pattern) =>
      call(() => client.cat.indices({ index: pattern, format: 'json', h: ['index'] })).then((rows) =>
        (rows as unknown as { index: string }[]).map((r) => String(r.index)),
      ),
    close: () => client.close(),
  };
}
