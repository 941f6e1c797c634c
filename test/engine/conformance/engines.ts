import { type DuckDBEngine, openDuckDBEngine } from '../../../src/engine/duckdb/duckdb-engine.js';
import type { SearchEngine } from '../../../src/engine/port.js';
import {
  dockerEngineAvailable,
  openElasticsearchOver,
  openOpenSearchOver,
  testcontainersElasticsearchUrl,
} from './cluster.js';

/**
 * The engines the conformance suite runs against, over the same release. DuckDB scans with one thread and
 * with two (a release split into 2,048-row groups is then scanned in parallel, which does not keep storage
 * order), and answers from the release's bitmap index where it can (the scan for the rest). Those three answer
 * point reads and index pages from the release's point store where its cards hold the columns; the fourth
 * never uses it (point reads from DuckDB's lookup indexes, index pages from the columns), as a release without
 * one. The search-cluster engine joins this list on OpenSearch when OPENSEARCH_URL names a node (the test run's
 * global setup starts one from tools/opensearch/ where Java and Maven are, and sets it), and on Elasticsearch when
 * ELASTICSEARCH_URL names a cluster (cluster.ts indexes the same release into it); every case runs against each.
 */
export interface EngineUnderTest {
  name: string;
  open(dataDir: string): Promise<SearchEngine>;
}

const OPENSEARCH_URL = process.env.OPENSEARCH_URL ?? '';
const ELASTICSEARCH_URL = process.env.ELASTICSEARCH_URL ?? '';
/** Without a cluster named, a Docker engine (when one answers) runs one through testcontainers' Elasticsearch module. */
const DOCKER = !ELASTICSEARCH_URL && dockerEngineAvailable();

export const ENGINES: readonly EngineUnderTest[] = [
  { name: 'duckdb scan, 1 thread', open: (dataDir) => duckdb(dataDir, 1, false) },
  { name: 'duckdb scan, 2 threads', open: (dataDir) => duckdb(dataDir, 2, false) },
  { name: 'duckdb index', open: (dataDir) => duckdb(dataDir, 2, true) },
  { name: 'duckdb index, no point store', open: (dataDir) => duckdb(dataDir, 2, true, false) },
  ...(OPENSEARCH_URL
    ? [{ name: 'opensearch', open: (dataDir: string) => openOpenSearchOver(dataDir, OPENSEARCH_URL) }]
    : []),
  // The Elasticsearch engine runs where a cluster is reachable (8.x or 9.x): ELASTICSEARCH_URL=http://host:9200.
  ...(ELASTICSEARCH_URL
    ? [{ name: 'elasticsearch', open: (dataDir: string) => openElasticsearchOver(dataDir, ELASTICSEARCH_URL) }]
    : []),
  ...(DOCKER
    ? [
        {
          name: 'elasticsearch (testcontainers)',
          open: async (dataDir: string) => openElasticsearchOver(dataDir, await testcontainersElasticsearchUrl()),
        },
      ]
    : []),
];

if (!OPENSEARCH_URL && process.env.CDS_REQUIRE_OPENSEARCH === '1')
  throw new Error(
    'engine conformance: CDS_REQUIRE_OPENSEARCH=1 but no OPENSEARCH_URL (the global setup starts a node)',
  );
if (!OPENSEARCH_URL)
  process.stderr.write(
    'engine conformance: OpenSearch SKIPPED (no OPENSEARCH_URL: the global setup starts a node where java and mvn ' +
      'are on PATH; see tools/opensearch/README.md)\n',
  );
if (!ELASTICSEARCH_URL && !DOCKER)
  process.stderr.write(
    'engine conformance: Elasticsearch SKIPPED (no cluster, no Docker engine): set ELASTICSEARCH_URL=http://host:9200, ' +
      'or run where a Docker engine answers (testcontainers starts one), to run every case against it as well\n',
  );

function duckdb(dataDir: string, threads: number, index: boolean, pointStore = true): Promise<DuckDBEngine> {
  return openDuckDBEngine({ dataDir, poolSize: 2, threads, memoryLimit: '1GB', pointReaders: 1, index, pointStore });
}
