export { DuckDBEngine, type DuckDBEngineOptions, openDuckDBEngine } from './duckdb-engine.js';
export type { ReleaseSession, RunOptions } from './open-release.js';
export {
  type CurrentPointer,
  currentPath,
  currentRelease,
  KEEP_RELEASES,
  listReleases,
  newReleaseId,
  nextReleaseId,
  pruneReleases,
  publishCurrent,
  readCurrent,
  rejectsFile,
  releaseFile,
  releasesDir,
} from './release-store.js';
export { createTableSql, duckdbType, ident, META_TABLE, releaseDdl, TABLE } from './schema.js';
