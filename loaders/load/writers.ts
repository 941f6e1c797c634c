import type { Config } from '../../src/config.js';
import { currentRelease } from '../../src/engine/duckdb/release-store.js';
import { openDuckDBReleaseWriter } from '../../src/engine/duckdb/release-writer/writer.js';
import type { OpenReleaseWriter } from '../../src/engine/release-writer.js';
import { readServing } from '../../src/engine/search-cluster/releases.js';
import { clusterClient } from '../../src/services.js';
import { clusterReleaseWriter } from './cluster-writer.js';

/**
 * The one place the loader learns which engine it writes for: the embedded engine's DuckDB release, or the
 * indices of the search cluster of CDS_ENGINE=opensearch or elasticsearch. The load pipeline (index.ts) only knows the ReleaseWriter port.
 */
export const defaultReleaseWriter: OpenReleaseWriter = openDuckDBReleaseWriter;

export interface EngineWriter {
  openWriter: OpenReleaseWriter;
  /** The release the engine serves now, or null (`cds seed --if-empty`). */
  serving(): Promise<string | null>;
  close(): Promise<void>;
}

/** The writer of an engine, and what to close once the load is over. */
export function releaseWriterFor(config: Config): EngineWriter {
  if (config.engine === 'duckdb')
    return {
      openWriter: openDuckDBReleaseWriter,
      serving: async () => currentRelease(config.dataDir)?.id ?? null,
      close: async () => undefined,
    };
  const client = clusterClient(config, 120_000);
  return {
    openWriter: clusterReleaseWriter({
      client,
      prefix: config.esPrefix,
      shards: config.esShards,
      replicas: config.esReplicas,
    }),
    serving: async () => (await readServing(client, config.esPrefix))?.info.id ?? null,
    close: () => client.close(),
  };
}
