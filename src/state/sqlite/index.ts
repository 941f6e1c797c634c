export { DEFAULT_UPGRADE_URL, openSqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
