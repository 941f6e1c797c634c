import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { indexRelease } from '../../../loaders/load/cluster-writer.js';
import { currentRelease, releaseFile } from '../../../src/engine/duckdb/release-store.js';
import { elasticsearchClient } from '../../../src/engine/elasticsearch/client.js';
import { opensearchClient } from '../../../src/engine/opensearch/client.js';
import type { SearchEngine } from '../../../src/engine/port.js';
import { openClusterEngine } from '../../../src/engine/search-cluster/engine.js';
import { ReleaseIndexer } from '../../../src/engine/search-cluster/release-writer/indexer.js';
import type { ClusterClient } from '../../../src/engine/search-cluster/transport.js';

/**
 * The search-cluster engine over a conformance release: the data dir's serving release (seeded and built by the
 * embedded loader) is bulk-indexed with the cluster loader's indexer into indices of a prefix of its own, the aliases
 * are swapped to it, and the engine opens on that prefix. Closing the engine deletes the indices.
 */
export async function openClusterOver(dataDir: string, client: ClusterClient, shards = 2): Promise<SearchEngine> {
  const prefix = `cds-test-${randomBytes(4).toString('hex')}-`;
  const current = currentRelease(dataDir);
  if (!current) throw new Error(`${dataDir} serves no release`);
  const indexer = new ReleaseIndexer({ client, prefix, shards, replicas: 0 }, current.id);
  try {
    await indexRelease(indexer, releaseFile(dataDir, current.id), current.id, { conformance: true });
    await indexer.publish();
  } catch (e) {
    await indexer.remove();
    await client.close();
    throw e;
  }
  const engine = await openClusterEngine({ client, prefix, pollMs: 200 });
  const close = engine.close.bind(engine);
  engine.close = async () => {
    await close();
    await indexer.remove();
    await client.close();
  };
  return engine;
}

/** The OpenSearch engine over a conformance release, on the node at `url`. */
export const openOpenSearchOver = (dataDir: string, url: string) =>
  openClusterOver(dataDir, opensearchClient({ url }, 60_000));

/** The Elasticsearch engine over a conformance release, on the cluster at `url`. */
export const openElasticsearchOver = (dataDir: string, url: string) =>
  openClusterOver(dataDir, elasticsearchClient({ url }, 60_000));

/** True when a Docker engine answers (`docker info`); false without the client or the engine. */
export function dockerEngineAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

/** The image testcontainers runs: the server version the adapter supports (docs/deployment.md, "Scale-out with Redis"). */
const IMAGE = 'docker.elastic.co/elasticsearch/elasticsearch:9.1.0';
let started: Promise<string> | null = null;

/**
 * The URL (with its credentials) of one single-node Elasticsearch started by testcontainers' Elasticsearch module for
 * this test process; testcontainers' reaper removes the container when the process ends.
 */
export function testcontainersElasticsearchUrl(): Promise<string> {
  started ??= (async () => {
    const { ElasticsearchContainer } = await import('@testcontainers/elasticsearch');
    const es = await new ElasticsearchContainer(IMAGE).start();
    const url = new URL(es.getHttpUrl());
    url.username = es.getUsername();
    url.password = es.getPassword();
    return url.toString().replace(/\/$/, '');
  })();
  return started;
}
