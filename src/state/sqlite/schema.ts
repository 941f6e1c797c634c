import type { Database } from 'better-sqlite3';

/**
 * Schema migrations: entry i brings the file to version i + 1. Append only; never edit a shipped entry.
 * Timestamps are RFC 3339 UTC strings with milliseconds, so text order is time order.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    plan TEXT NOT NULL,
    billing_day INTEGER CHECK (billing_day IS NULL OR billing_day BETWEEN 1 AND 28),
    status TEXT NOT NULL CHECK (status IN ('active', 'suspended')),
    created_at TEXT NOT NULL
  );

  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    prefix TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    name TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    last_used_at TEXT
  );
  -- The spec's one active key per account, enforced by the file itself as well as by createKey.
  CREATE UNIQUE INDEX api_keys_one_active ON api_keys(account_id) WHERE revoked_at IS NULL;
  CREATE INDEX api_keys_by_account ON api_keys(account_id, created_at);

  CREATE TABLE holds (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('contact', 'premium')),
    category TEXT CHECK (category IS NULL OR category IN ('search', 'export', 'enrich')),
    amount INTEGER NOT NULL CHECK (amount >= 0),
    charged INTEGER NOT NULL DEFAULT 0 CHECK (charged >= 0 AND charged <= amount),
    status TEXT NOT NULL CHECK (status IN ('held', 'committed', 'released')),
    created_at TEXT NOT NULL,
    settled_at TEXT
  );
  CREATE INDEX holds_by_account ON holds(account_id, status);

  -- The windows a hold was taken from, captured at reserve time: settling charges those windows even
  -- when the hold outlives them (an export started before midnight is charged to the day it started).
  CREATE TABLE hold_windows (
    hold_id TEXT NOT NULL REFERENCES holds(id),
    window_kind TEXT NOT NULL CHECK (window_kind IN ('pool', 'day', 'month')),
    window_start TEXT NOT NULL,
    PRIMARY KEY (hold_id, window_kind)
  ) WITHOUT ROWID;

  -- Counters per window: category '*' is plan-wide, a category name is its fair-use counter. Every hold
  -- moves both, so switching plans keeps the history meaningful. window_start is '' for the pool.
  CREATE TABLE usage (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('contact', 'premium')),
    category TEXT NOT NULL,
    window_kind TEXT NOT NULL CHECK (window_kind IN ('pool', 'day', 'month')),
    window_start TEXT NOT NULL,
    used INTEGER NOT NULL DEFAULT 0 CHECK (used >= 0),
    held INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0),
    PRIMARY KEY (account_id, kind, category, window_kind, window_start)
  ) WITHOUT ROWID;

  CREATE TABLE feedback (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX feedback_by_account ON feedback(account_id, created_at);
  `,
  `
  -- Idempotency-Key records of spending POSTs: the first answer, replayed for 24 hours.
  CREATE TABLE idempotency (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'done')),
    status INTEGER,
    body TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (account_id, key)
  ) WITHOUT ROWID;
  CREATE INDEX idempotency_by_age ON idempotency(created_at);
  `,
  `
  -- Durable jobs (exports, collects, alert runs, enrichment runs) with the credit hold they settle.
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed', 'cancelled')),
    payload TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT '{}',
    hold_id TEXT REFERENCES holds(id),
    error TEXT,
    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    worker TEXT,
    created_at TEXT NOT NULL,
    started_at TEXT,
    finished_at TEXT,
    heartbeat_at TEXT
  );
  CREATE INDEX jobs_by_account ON jobs(account_id, kind, created_at);
  -- Claims read the oldest queued job of a kind; stale checks read running ones.
  CREATE INDEX jobs_by_status ON jobs(status, kind, created_at);
  `,
  `
  -- Signal rows written by collect jobs and alert runs (source_id = the collect job or the alert; run_id =
  -- the job that wrote the row). (run_id, position) makes a batch replayed after a restart a no-op.
  CREATE TABLE signals (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    source_type TEXT NOT NULL CHECK (source_type IN ('collect', 'alert')),
    source_id TEXT NOT NULL,
    run_id TEXT NOT NULL,
    position INTEGER NOT NULL CHECK (position >= 0),
    name TEXT NOT NULL,
    headline TEXT,
    profile_url TEXT NOT NULL,
    engagement TEXT NOT NULL CHECK (engagement IN ('reaction', 'comment', 'follow')),
    post_url TEXT,
    at TEXT NOT NULL,
    lead INTEGER NOT NULL CHECK (lead IN (0, 1)),
    contact TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (run_id, position)
  );
  CREATE INDEX signals_by_source ON signals(account_id, source_id, seq);
  CREATE INDEX signals_by_account ON signals(account_id, seq);

  -- People already seen per source: the first sighting (by profile slug) is a lead of the run that saw it.
  CREATE TABLE signal_people (
    source_id TEXT NOT NULL,
    person_key TEXT NOT NULL,
    run_id TEXT NOT NULL,
    PRIMARY KEY (source_id, person_key)
  ) WITHOUT ROWID;
  CREATE INDEX signal_people_by_run ON signal_people(run_id);

  CREATE TABLE alerts (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    kind TEXT NOT NULL CHECK (kind IN ('network_profile', 'network_post', 'network_company')),
    target TEXT NOT NULL,
    interval_minutes INTEGER NOT NULL CHECK (interval_minutes >= 60),
    max_followers INTEGER,
    active INTEGER NOT NULL CHECK (active IN (0, 1)),
    next_run_at TEXT,
    last_run_id TEXT,
    last_run_at TEXT,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    deleted_at TEXT
  );
  CREATE INDEX alerts_by_account ON alerts(account_id, created_at);
  CREATE INDEX alerts_due ON alerts(next_run_at) WHERE active = 1 AND deleted_at IS NULL;
  `,
  `
  -- Saved domain lists (family B domain_list_id), owned by one account.
  CREATE TABLE domain_lists (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    name TEXT NOT NULL,
    domains TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX domain_lists_by_account ON domain_lists(account_id, created_at);
  `,
  `
  -- A request's hold carries a lease its process renews while the request lives; only a hold whose lease
  -- expired (its process died) is released by another process. Job holds have none (the job runner owns them).
  ALTER TABLE holds ADD COLUMN lease_until TEXT;
  CREATE INDEX holds_by_lease ON holds(lease_until) WHERE status = 'held';
  `,
  `
  -- Opt-outs (suppression list): normalized identifiers (domain/optouts.ts). The key's byte order (BINARY) is the
  -- listing order, the same as the Redis adapter's lexical sorted set.
  CREATE TABLE optouts (
    type TEXT NOT NULL CHECK (type IN ('id', 'email', 'phone', 'url', 'sha256')),
    value TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (type, value)
  ) WITHOUT ROWID;
  -- One row: bumped by every transaction that changed the list (servers poll it).
  CREATE TABLE optout_version (version INTEGER NOT NULL);
  INSERT INTO optout_version (version) VALUES (0);
  -- One record per (change, identifier type) with how many entries it changed; never an identifier.
  CREATE TABLE optout_audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    change_id TEXT NOT NULL,
    type TEXT NOT NULL,
    at TEXT NOT NULL,
    action TEXT NOT NULL,
    actor TEXT NOT NULL,
    count INTEGER NOT NULL CHECK (count >= 0),
    UNIQUE (change_id, type)
  );
  `,
  // The web console (issue 19): self-contained, so it can move to any position in this list.
  `
  -- What each hold charges, for the usage chart (domain/usage-lines.ts); NULL on holds written before this column.
  ALTER TABLE holds ADD COLUMN line TEXT;
  -- Credits charged per UTC day of settlement, credit kind and chart line.
  CREATE TABLE usage_daily (
    account_id TEXT NOT NULL REFERENCES accounts(id),
    day TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('contact', 'premium')),
    line TEXT NOT NULL,
    credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
    PRIMARY KEY (account_id, day, kind, line)
  ) WITHOUT ROWID;
  -- Console sessions: only the SHA-256 of the cookie's token is kept.
  CREATE TABLE console_sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    key_id TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX console_sessions_by_expiry ON console_sessions(expires_at);
  `,
  // OAuth for remote MCP clients (issue 39): the authorization server's records, self-contained.
  `
  -- oidc-provider's models by (model, id); bearer values (tokens, codes) are kept as SHA-256 ids only.
  CREATE TABLE oauth_records (
    model TEXT NOT NULL,
    id TEXT NOT NULL,
    payload TEXT NOT NULL,
    grant_id TEXT,
    uid TEXT,
    account_id TEXT,
    expires_at TEXT,
    consumed_at TEXT,
    PRIMARY KEY (model, id)
  ) WITHOUT ROWID;
  CREATE INDEX oauth_records_by_grant ON oauth_records(grant_id) WHERE grant_id IS NOT NULL;
  CREATE INDEX oauth_records_by_uid ON oauth_records(model, uid) WHERE uid IS NOT NULL;
  CREATE INDEX oauth_records_by_account ON oauth_records(account_id, model) WHERE account_id IS NOT NULL;
  CREATE INDEX oauth_records_by_expiry ON oauth_records(expires_at) WHERE expires_at IS NOT NULL;
  `,
  // Webhooks (issue 43): endpoints, the outbox of events, deliveries and their attempt log; self-contained.
  `
  CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    url TEXT NOT NULL,
    description TEXT,
    events TEXT NOT NULL,
    secret_sealed TEXT NOT NULL,
    previous_secret_sealed TEXT,
    previous_secret_expires_at TEXT,
    credits_low_threshold INTEGER,
    -- credits.low: the window (binding:resets_at) it was last sent for, so it is sent once per window.
    credits_low_window TEXT,
    enabled INTEGER NOT NULL,
    disabled_at TEXT,
    disabled_reason TEXT,
    failing_since TEXT,
    last_success_at TEXT,
    last_failure_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX webhook_endpoints_by_account ON webhook_endpoints(account_id, created_at);
  CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    type TEXT NOT NULL,
    data TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE TABLE webhook_deliveries (
    id TEXT PRIMARY KEY,
    event_id TEXT NOT NULL REFERENCES webhook_events(id),
    endpoint_id TEXT NOT NULL,
    account_id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'succeeded', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    lease_until TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
  CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries(endpoint_id);
  CREATE TABLE webhook_attempts (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    delivery_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    attempt INTEGER NOT NULL,
    ok INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    duration_ms INTEGER NOT NULL,
    at TEXT NOT NULL,
    next_retry_at TEXT
  );
  CREATE INDEX webhook_attempts_by_endpoint ON webhook_attempts(endpoint_id, seq);
  `,
  `
  CREATE TABLE audiences (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    filter TEXT NOT NULL,
    filter_version INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX audiences_by_account ON audiences(account_id);
  CREATE TABLE audience_counts (
    audience_id TEXT NOT NULL,
    release TEXT NOT NULL,
    count INTEGER NOT NULL,
    counted_at TEXT NOT NULL,
    PRIMARY KEY (audience_id, release)
  );
  CREATE TABLE request_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL,
    request_id TEXT NOT NULL,
    entry TEXT NOT NULL
  );
  CREATE INDEX request_log_by_account ON request_log(account_id, seq);
  `,
];

/** Brings the file to the latest version; safe when several processes open it at once (immediate lock). */
export function migrate(db: Database): number {
  db.exec('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
  return db
    .transaction(() => {
      const row = db.prepare<[], { version: number }>('SELECT version FROM schema_version').get();
      const current = row?.version ?? 0;
      if (current > MIGRATIONS.length) {
        throw new Error(
          `state file is at schema version ${current}; this build knows up to ${MIGRATIONS.length}. Upgrade the ` +
            `service.`,
        );
      }
      for (let v = current; v < MIGRATIONS.length; v++) db.exec(MIGRATIONS[v]!);
      if (row) db.prepare('UPDATE schema_version SET version = ?').run(MIGRATIONS.length);
      else db.prepare('INSERT INTO schema_version (version) VALUES (?)').run(MIGRATIONS.length);
      return MIGRATIONS.length;
    })
    .immediate();
}
