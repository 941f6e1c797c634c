import { type DuckDBEngine, openDuckDBEngine } from '../../../src/engine/duckdb/duckdb-engine.js';
import type { SearchEngine } from '../../../src/engine/port.js';

/**
 * The engines the conformance suite runs against, over the same release. DuckDB scans with one thread and
 * with two (a release split into 2,048-row groups is then scanned in parallel, which does not keep storage
 * order), and answers from the release's bitmap index where it can (the scan for the rest). The Elasticsearch
 * engine joins this list; every case runs against each.
 */
export interface EngineUnderTest {
  name: string;
  open(dataDir: string): Promise<SearchEngine>;
}

export const ENGINES: readonly EngineUnderTest[] = [
  { name: 'duckdb scan, 1 thread', open: (dataDir) => duckdb(dataDir, 1, false) },
  { name: 'duckdb scan, 2 threads', open: (dataDir) => duckdb(dataDir, 2, false) },
  { name: 'duckdb index', open: (dataDir) => duckdb(dataDir, 2, true) },
];

function duckdb(dataDir: string, threads: number, index: boolean): Promise<DuckDBEngine> {
  return openDuckDBEngine({ dataDir, poolSize: 2, threads, memoryLimit: '1GB', pointReaders: 1, index });
}
