import { IDEMPOTENCY_TTL_MS } from '../port.js';
import { ACCOUNT_TABLES } from './accounts.js';
import { AUDIENCE_TABLES } from './audiences.js';
import { CREDIT_TABLES } from './credits.js';
import { IDEMPOTENCY_TABLES } from './idempotency.js';
import { JOB_TABLES } from './jobs.js';
import { OAUTH_TABLES } from './oauth.js';
import { OPTOUT_TABLES } from './optouts.js';
import { REQUEST_LOG_TABLES } from './request-log.js';
import { SESSION_TABLES } from './sessions.js';
import { SIGNAL_TABLES } from './signals.js';
import { WEBHOOK_TABLES } from './webhooks.js';

/** The tables moved (each family's, from its file), in the order an export writes them (accounts first). */
export const EXPORTED_TABLES = [
  ...ACCOUNT_TABLES,
  ...CREDIT_TABLES,
  ...AUDIENCE_TABLES,
  ...OPTOUT_TABLES,
  ...JOB_TABLES,
  ...SIGNAL_TABLES,
  ...WEBHOOK_TABLES,
  ...OAUTH_TABLES,
  ...IDEMPOTENCY_TABLES,
  ...SESSION_TABLES,
  ...REQUEST_LOG_TABLES,
] as const;

/** The SQLite tables not moved, and why (an import leaves them empty; the export reports their row counts). */
export const SKIPPED_TABLES: Readonly<Record<string, string>> = {
  // SQLite's own bookkeeping (the importing file has its own).
  schema_version: 'the SQLite file migration version',
  sqlite_sequence: 'SQLite AUTOINCREMENT counters',
};

/**
 * The rows of these tables that have expired are not exported (no adapter answers them any more): a condition on
 * the row, `?` being the time it compares with. Fixed text, never from a file.
 */
export const UNEXPIRED: Readonly<Record<string, (now: Date) => [string, string]>> = {
  idempotency: (now) => ['created_at > ?', new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()],
  console_sessions: (now) => ['expires_at > ?', now.toISOString()],
  oauth_records: (now) => ['(expires_at IS NULL OR expires_at > ?)', now.toISOString()],
};
