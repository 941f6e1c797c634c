/**
 * `cds state export|import` (issue 42): moves an installation between the SQLite and the Redis state adapters through
 * a neutral format, JSON lines: one record per line, `{"entity": "<SQLite table>", ...its columns}` (SQLite's column
 * names and types; text JSON columns kept as text). One reader and one writer per adapter; both speak these records,
 * so every pair of adapters moves through them (SQLite -> Redis -> SQLite gives the same rows: test/e2e/state-transfer).
 * The SQLite side is generic (sqlite.ts: table by table, column by column); the Redis side (redis.ts) is one reader
 * and one writer per entity family, each in its own file beside this one (accounts, credits, audiences, optouts,
 * jobs, signals, webhooks, oauth, idempotency, sessions, request-log), using the Redis adapter's key names
 * (redis/keys.ts) and record decoders. The tables and what is not moved: tables.ts; the file: files.ts.
 *
 * Everything durable moves: accounts, keys (hashes only: the same CDS_SECRET is needed), the credit counters and
 * settled holds, the usage chart, feedback, domain lists, saved audiences with their count history, opt-outs with
 * their version and audit, jobs, alerts, signals, webhooks with their outbox and attempt log, OAuth records, and the
 * unexpired idempotency records and console sessions (with their expiry), the request log. Only SQLite's own
 * bookkeeping is in SKIPPED_TABLES; the coverage test fails when a SQLite table is in neither list.
 * Take the export with the servers stopped: it refuses a store holding a held credit hold (a request or job running).
 */
export { readRecords, writeRecords } from './files.js';
export { type StateRecord, TransferRefused } from './records.js';
export { redisHasState, redisImport, redisRecords } from './redis.js';
export { sqliteHasState, sqliteImport, sqliteRecords } from './sqlite.js';
export { EXPORTED_TABLES, SKIPPED_TABLES } from './tables.js';
