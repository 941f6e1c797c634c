import { type DuckDBEngine, openDuckDBEngine } from '../../../src/engine/duckdb/duckdb-engine.js';
import type { SearchEngine } from '../../../src/engine/port.js';

/**
 * The engines the conformance suite runs against, over the same release. DuckDB runs with one thread and
 * with two (a release split into 2,048-row groups is then scanned in parallel, which does not keep storage
 * order). The index and Elasticsearch engines join this list; every case runs against each.
 */
export interface EngineUnderTest {
  name: string;
  open(dataDir: string): Promise<SearchEngine>;
}

export const ENGINES: readonly EngineUnderTest[] = [
  { name: 'duckdb, 1 thread', open: (dataDir) => duckdb(dataDir, 1) },
  { name: 'duckdb, 2 threads', open: (dataDir) => duckdb(dataDir, 2) },
];

function duckdb(dataDir: string, threads: number): Promise<DuckDBEngine> {
  return openDuckDBEngine({ dataDir, poolSize: 2, threads, memoryLimit: '1GB', pointReaders: 1 });
}
