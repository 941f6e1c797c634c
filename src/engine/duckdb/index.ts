export { DuckDBEngine, openDuckDBEngine, type DuckDBEngineOptions } from './duckdb-engine.js';
export type { ReleaseSession, RunOptions } from './open-release.js';
export { createTableSql, duckdbType, ident, releaseDdl, TABLE, META_TABLE } from './schema.js';
export {
  KEEP_RELEASES,
  currentPath,
  currentRelease,
  listReleases,
  newReleaseId,
  nextReleaseId,
  publishCurrent,
  pruneReleases,
  readCurrent,
  rejectsFile,
  releaseFile,
  releasesDir,
  type CurrentPointer,
} from './release-store.js';
