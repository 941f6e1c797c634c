import { openDuckDBReleaseWriter } from '../../src/engine/duckdb/release-writer/writer.js';
import type { OpenReleaseWriter } from '../../src/engine/release-writer.js';

/**
 * The one place the loader learns which engine it writes for: the embedded engine's DuckDB release. The
 * Elasticsearch loader adds its writer here; the load pipeline (index.ts) only knows the ReleaseWriter port.
 */
export const defaultReleaseWriter: OpenReleaseWriter = openDuckDBReleaseWriter;
