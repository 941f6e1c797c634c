import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as v from 'valibot';

/**
 * Every setting, read once from flags and environment, validated. Flags win over env; env over defaults.
 * The table of docs/configuration.md (written by `cds docs`) is the user-facing copy of SETTINGS below.
 */
export interface Setting {
  key: keyof Config;
  flag?: string;
  env: string;
  default: string;
  doc: string;
}

export const SETTINGS: readonly Setting[] = [
  {
    key: 'dataDir',
    flag: '--data',
    env: 'CDS_DATA_DIR',
    default: './data',
    doc: 'Data directory: releases, state.sqlite, files, secret.',
  },
  {
    key: 'filesDir',
    env: 'CDS_FILES_DIR',
    default: '',
    doc:
      'Where export files (and uploads) live; every process of a deployment must see the same folder. Default: ' +
      'DATA/files.',
  },
  { key: 'port', flag: '--port', env: 'PORT', default: '8080', doc: 'HTTP port (0 = any free port).' },
  { key: 'host', flag: '--host', env: 'HOST', default: '127.0.0.1', doc: 'Interface to bind.' },
  {
    key: 'publicUrl',
    flag: '--public-url',
    env: 'CDS_PUBLIC_URL',
    default: '',
    doc: 'Base URL printed and used in signed links; default http://HOST:PORT.',
  },
  {
    key: 'logLevel',
    env: 'CDS_LOG_LEVEL',
    default: 'info',
    doc: 'pino log level: fatal, error, warn, info, debug, trace, silent.',
  },
  {
    key: 'engine',
    env: 'CDS_ENGINE',
    default: 'duckdb',
    doc: 'Search engine adapter: duckdb (embedded), opensearch (OpenSearch 2.19/3.x) or elasticsearch (9.x).',
  },
  { key: 'state', env: 'CDS_STATE', default: 'sqlite', doc: 'State store adapter: sqlite (embedded) or redis.' },
  {
    key: 'redisUrl',
    env: 'REDIS_URL',
    default: '',
    doc: 'Redis URL for CDS_STATE=redis: redis://[:password@]host:6379[/db], or rediss://… for TLS.',
  },
  {
    key: 'redisPrefix',
    env: 'CDS_REDIS_PREFIX',
    default: 'cds:',
    doc: 'Prefix of every Redis key the deployment writes (state, rate windows, job queue); one per deployment.',
  },
  { key: 'redisTls', env: 'REDIS_TLS', default: '0', doc: 'Use TLS to Redis even with a redis:// URL.' },
  {
    key: 'opensearchUrl',
    env: 'OPENSEARCH_URL',
    default: '',
    doc:
      "OpenSearch URL for CDS_ENGINE=opensearch (http(s)://[user:password@]host:9200, or several nodes' URLs " +
      'separated by commas: a request is sent again to another node when one is unreachable); required with it. OpenSearch ' +
      '2.19 and 3.x (tools/opensearch/ runs one locally). CDS_ES_CA_FILE, CDS_ES_PREFIX, CDS_ES_SHARDS and ' +
      'CDS_ES_REPLICAS apply to it as to Elasticsearch.',
  },
  {
    key: 'elasticsearchUrl',
    env: 'ELASTICSEARCH_URL',
    default: '',
    doc:
      "Elasticsearch URL for CDS_ENGINE=elasticsearch (http(s)://[user:password@]host:9200, or several nodes' URLs " +
      'separated by commas); required with it. ' +
      'Elasticsearch 9.x (the client sends the 9.x compatibility headers).',
  },
  {
    key: 'esApiKey',
    env: 'CDS_ES_API_KEY',
    default: '',
    doc: 'Elasticsearch API key (the encoded form) for a secured cluster, instead of a user and password in the URL.',
  },
  {
    key: 'esCaFile',
    env: 'CDS_ES_CA_FILE',
    default: '',
    doc: "PEM file of the CA that signed the cluster's certificate (e.g. a self-signed cluster's http_ca.crt).",
  },
  {
    key: 'esPrefix',
    env: 'CDS_ES_PREFIX',
    default: '',
    doc:
      'Prefix of the Elasticsearch index and alias names of the deployment (contacts-<release>, companies-<release>, ' +
      'aliases contacts and companies); one per deployment sharing a cluster.',
  },
  {
    key: 'esShards',
    env: 'CDS_ES_SHARDS',
    default: '1',
    doc: 'Primary shards of each new release index (contacts and companies); see docs/search-cluster.md "Sizing".',
  },
  {
    key: 'esReplicas',
    env: 'CDS_ES_REPLICAS',
    default: '1',
    doc: 'Replicas of each release index once loaded (a load writes with none, then sets this).',
  },
  {
    key: 'duckdbPool',
    env: 'CDS_DUCKDB_POOL',
    default: '4',
    doc: 'DuckDB connections per release (one query at a time each).',
  },
  { key: 'duckdbThreads', env: 'CDS_DUCKDB_THREADS', default: '2', doc: 'DuckDB worker threads.' },
  { key: 'duckdbMemory', env: 'CDS_DUCKDB_MEMORY', default: '3GB', doc: 'DuckDB memory limit.' },
  {
    key: 'pointReaders',
    env: 'CDS_POINT_READERS',
    default: '4',
    doc:
      'Reader threads per release for point reads (enrichment, lookups): the identifiers of one call are read in ' +
      'parallel from the point store.',
  },
  {
    key: 'index',
    env: 'CDS_INDEX',
    default: '1',
    doc:
      'Answer counts and pages from the release bitmap index when the filter allows (1), or always scan the ' +
      'columns (0).',
  },
  {
    key: 'indexCacheMb',
    env: 'CDS_INDEX_CACHE_MB',
    default: '256',
    doc: 'Memory for decoded index postings, per release (MB); the rest are read from the index file.',
  },
  {
    key: 'queryCacheMb',
    env: 'CDS_QUERY_CACHE_MB',
    default: '128',
    doc:
      'Memory for the rows of queries the index answered, per release (MB): the same filter counts and pages again ' +
      'without being run (a release never changes; an opt-out starts afresh); 0 keeps none.',
  },
  {
    key: 'countBudgetMs',
    env: 'CDS_COUNT_BUDGET_MS',
    default: '3000',
    doc: 'Count budget; past it the count is null with count_unavailable.',
  },
  {
    key: 'searchBudgetMs',
    env: 'CDS_SEARCH_BUDGET_MS',
    default: '10000',
    doc: 'Search budget; past it 504 query.timeout.',
  },
  {
    key: 'workers',
    env: 'CDS_WORKERS',
    default: '4',
    doc:
      'Background jobs (exports, collects, alert runs) this process runs at once; 0 = none (another process sharing ' +
      'the data dir runs them).',
  },
  {
    key: 'jobHeartbeatMs',
    env: 'CDS_JOB_HEARTBEAT_MS',
    default: '5000',
    doc: 'How often a running job proves it is alive.',
  },
  {
    key: 'holdLeaseMs',
    env: 'CDS_HOLD_LEASE_MS',
    default: '60000',
    doc:
      "How long a request's credit hold outlives its process: a hold not renewed for this long (its process died) " +
      'is released by the next sweep of any process.',
  },
  {
    key: 'jobStaleMs',
    env: 'CDS_JOB_STALE_MS',
    default: '30000',
    doc:
      'A running job silent this long is requeued and resumed (its process died). Jobs of a dead process on the ' +
      'same host are requeued at once.',
  },
  {
    key: 'exportConcurrency',
    env: 'CDS_EXPORT_CONCURRENCY',
    default: '1',
    doc: 'CSV exports this process runs at once (each also holds one DuckDB connection while a batch runs).',
  },
  {
    key: 'exportMaxRows',
    env: 'CDS_EXPORT_MAX_ROWS',
    default: '1000000',
    doc:
      'Upper bound of rows in one family A export (family B: 50,000, from the spec); beyond it truncation_reason is ' +
      'export_limit.',
  },
  {
    key: 'exportBatchRows',
    env: 'CDS_EXPORT_BATCH_ROWS',
    default: '100000',
    doc: 'Rows an export reads and writes per engine query.',
  },
  {
    key: 'exportBatchBudgetMs',
    env: 'CDS_EXPORT_BATCH_BUDGET_MS',
    default: '120000',
    doc: 'Time budget of one export batch query; past it the run fails and is retried (3 runs in all).',
  },
  {
    key: 'exportBatchDelayMs',
    env: 'CDS_EXPORT_BATCH_DELAY_MS',
    default: '0',
    doc: 'Testing only: pause after each export batch, to make an export slow enough to interrupt.',
  },
  {
    key: 'testAnswerDelayMs',
    env: 'CDS_TEST_ANSWER_DELAY_MS',
    default: '0',
    doc: 'Testing only: pause before a REST answer is written, so a test client can disconnect first.',
  },
  {
    key: 'searchTotalsCache',
    env: 'CDS_SEARCH_TOTALS_CACHE',
    default: '1',
    doc: 'Remember page.total per data release and query during cursor walks (1) or count on every page (0).',
  },
  {
    key: 'checkContracts',
    env: 'CDS_CHECK_CONTRACTS',
    default: '0',
    doc:
      "Testing: check every answer against its operation's declared response schema and error codes; a mismatch " +
      'answers 500 internal.error (the test suite runs with 1).',
  },
  {
    key: 'maxBodyBytes',
    env: 'CDS_MAX_BODY_BYTES',
    default: '1048576',
    doc: 'Largest accepted JSON body; larger answers 400 request.invalid.',
  },
  {
    key: 'ratePerMinute',
    env: 'CDS_RATE_PER_MINUTE',
    default: '300',
    doc: 'Requests accepted per key in any 60-second span (spec: 300).',
  },
  { key: 'rateConcurrent', env: 'CDS_RATE_CONCURRENT', default: '2', doc: 'Concurrent requests per key (spec: 2).' },
  {
    key: 'networkHost',
    env: 'CDS_NETWORK_HOST',
    default: 'network.com',
    doc: 'Host of the professional network in profile, post and company URLs.',
  },
  {
    key: 'adminToken',
    env: 'CDS_ADMIN_TOKEN',
    default: '',
    doc:
      'Operator token for /v1/admin routes (the "other sign-in"); empty disables them; at least 32 characters ' +
      'when set (shorter refuses to start). Failed sign-ins are throttled per address and token prefix (docs/security.md).',
  },
  {
    key: 'metricsPort',
    env: 'CDS_METRICS_PORT',
    default: '',
    doc:
      'Also serve GET /metrics (Prometheus text) on this port of HOST, without authentication: for a private ' +
      'network only. Empty: no metrics port; /metrics on the main port takes the operator token (404 when ' +
      'CDS_ADMIN_TOKEN is empty too). 0 = any free port.',
  },
  {
    key: 'secret',
    env: 'CDS_SECRET',
    default: '',
    doc:
      'HMAC secret for cursors, signed links and key hashing; default: generated once into DATA/secret; at least ' +
      '32 characters when set (shorter refuses to start).',
  },
  {
    key: 'mcpAllowedOrigins',
    env: 'CDS_MCP_ORIGINS',
    default: '',
    doc:
      'Origins (comma-separated, e.g. https://app.example.org) allowed to call /mcp; empty = only loopback origins. ' +
      'Requests without Origin are always accepted.',
  },
  {
    key: 'demoContacts',
    env: 'CDS_DEMO_CONTACTS',
    default: '200000',
    doc: 'Contacts in the demo release `npm start` creates on an empty data dir.',
  },
  { key: 'demoCompanies', env: 'CDS_DEMO_COMPANIES', default: '20000', doc: 'Companies in the demo release.' },
  {
    key: 'signalsDelayMs',
    env: 'CDS_SIGNALS_DELAY_MS',
    default: '100',
    doc: 'Simulated network: pause before each batch of 100 engagers (0 = as fast as possible).',
  },
  {
    key: 'signalsProviderUrl',
    env: 'CDS_SIGNALS_PROVIDER_URL',
    default: '',
    doc: 'HTTP signals provider endpoint (POST {url}/estimate, {url}/collect); empty = the simulated network.',
  },
  {
    key: 'signalsProviderToken',
    env: 'CDS_SIGNALS_PROVIDER_TOKEN',
    default: '',
    doc: 'Bearer token sent to the signals provider.',
  },
  {
    key: 'signalsProviderTimeoutMs',
    env: 'CDS_SIGNALS_PROVIDER_TIMEOUT_MS',
    default: '15000',
    doc: 'Timeout of one signals provider call.',
  },
  {
    key: 'signalsProviderRetries',
    env: 'CDS_SIGNALS_PROVIDER_RETRIES',
    default: '3',
    doc: 'Retries of a provider call that timed out or answered 429/5xx (exponential backoff).',
  },
  {
    key: 'signalsProviderBackoffMs',
    env: 'CDS_SIGNALS_PROVIDER_BACKOFF_MS',
    default: '500',
    doc: 'First backoff before a provider retry; doubles each retry.',
  },
  {
    key: 'collectWaitMs',
    env: 'CDS_COLLECT_WAIT_MS',
    default: '45000',
    doc: 'Longest a POST /v1/signals/collect with wait: true keeps the request open (spec: about 45 s).',
  },
  {
    key: 'uploadMaxRows',
    env: 'CDS_UPLOAD_MAX_ROWS',
    default: '50000',
    doc: 'Data rows one CSV enrichment upload may hold (the file itself is at most 15 MB).',
  },
  {
    key: 'uploadFetchTimeoutMs',
    env: 'CDS_UPLOAD_FETCH_TIMEOUT_MS',
    default: '20000',
    doc: 'Time limit of reading a published spreadsheet link on the upload page (all redirects included).',
  },
  {
    key: 'uploadFetchAllowHosts',
    env: 'CDS_UPLOAD_FETCH_ALLOW_HOSTS',
    default: '',
    doc:
      'Testing only: comma-separated IP addresses a spreadsheet link may resolve to although they are loopback or ' +
      'private (the tests serve sheets on 127.0.0.1). Leave empty in production.',
  },
  {
    key: 'webhookAllowHosts',
    env: 'CDS_WEBHOOK_ALLOW_HOSTS',
    default: '',
    doc:
      'Comma-separated host names or IP addresses a webhook URL may name although they are private or loopback, and ' +
      'may reach over plain http: (a self-hosted deployment delivering to services on its own network). Empty: ' +
      'every webhook URL must be https: and resolve to public addresses only.',
  },
  {
    key: 'webhookTimeoutMs',
    env: 'CDS_WEBHOOK_TIMEOUT_MS',
    default: '10000',
    doc: 'Time limit of one webhook delivery attempt (connect, send, answer); past it the attempt is retried later.',
  },
  {
    key: 'enrichmentBatchDelayMs',
    env: 'CDS_ENRICHMENT_BATCH_DELAY_MS',
    default: '0',
    doc: 'Testing only: pause after each batch of 100 rows of a CSV enrichment run (to watch progress).',
  },
  {
    key: 'oauthAccessTokenSeconds',
    env: 'CDS_OAUTH_ACCESS_TOKEN_SECONDS',
    default: '900',
    doc:
      'Lifetime of an OAuth access token of a remote MCP client (/mcp); the client renews it with its refresh token. ' +
      'Revoking the key it was granted under, or suspending the account, ends it at once.',
  },
  {
    key: 'oauthRefreshTokenDays',
    env: 'CDS_OAUTH_REFRESH_TOKEN_DAYS',
    default: '30',
    doc:
      'Lifetime of an OAuth refresh token (each use rotates it: the old one is refused afterwards) and of the ' +
      "client's grant; past it the person approves the client again.",
  },
  {
    key: 'consoleSessionMinutes',
    env: 'CDS_CONSOLE_SESSION_MINUTES',
    default: '720',
    doc:
      'Lifetime of a web console session (/app) from sign-in; the session also ends with sign-out or when its key ' +
      'is revoked.',
  },
];

const intIn = (min: number, max: number) =>
  v.pipe(v.string(), v.regex(/^\d+$/, 'must be a whole number'), v.transform(Number), v.minValue(min), v.maxValue(max));

/** The search engine adapters (CDS_ENGINE): the embedded one and the two transports of the search-cluster family. */
export const ENGINES = ['duckdb', 'opensearch', 'elasticsearch'] as const;
export type EngineName = (typeof ENGINES)[number];

const ConfigSchema = v.object({
  dataDir: v.pipe(v.string(), v.minLength(1)),
  filesDir: v.string(),
  port: intIn(0, 65535),
  host: v.pipe(v.string(), v.minLength(1)),
  publicUrl: v.string(),
  logLevel: v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  engine: v.picklist(ENGINES),
  state: v.picklist(['sqlite', 'redis']),
  redisUrl: v.pipe(
    v.string(),
    v.check((s) => s === '' || /^rediss?:\/\/\S+$/i.test(s), 'a redis:// or rediss:// URL, or empty'),
  ),
  redisPrefix: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'letters, digits and _ . : - (1 to 64)')),
  redisTls: v.pipe(
    v.picklist(['0', '1'], 'must be 0 or 1'),
    v.transform((x) => x === '1'),
  ),
  opensearchUrl: v.pipe(
    v.string(),
    v.check((s) => s === '' || /^https?:\/\/[^\s,]+(,https?:\/\/[^\s,]+)*$/i.test(s), 'http(s) URLs, or empty'),
  ),
  elasticsearchUrl: v.pipe(
    v.string(),
    v.check((s) => s === '' || /^https?:\/\/[^\s,]+(,https?:\/\/[^\s,]+)*$/i.test(s), 'http(s) URLs, or empty'),
  ),
  esApiKey: v.string(),
  esCaFile: v.string(),
  esPrefix: v.pipe(v.string(), v.regex(/^[a-z0-9_.-]{0,64}$/, 'lowercase letters, digits and _ . - (up to 64)')),
  esShards: intIn(1, 1024),
  esReplicas: intIn(0, 16),
  duckdbPool: intIn(1, 64),
  pointReaders: intIn(1, 64),
  index: v.pipe(
    v.picklist(['0', '1'], 'must be 0 or 1'),
    v.transform((x) => x === '1'),
  ),
  indexCacheMb: intIn(1, 65_536),
  queryCacheMb: intIn(0, 65_536),
  duckdbThreads: intIn(1, 256),
  duckdbMemory: v.pipe(v.string(), v.regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, 'like 3GB')),
  countBudgetMs: intIn(1, 600000),
  searchBudgetMs: intIn(1, 600000),
  workers: intIn(0, 64),
  jobHeartbeatMs: intIn(10, 600_000),
  holdLeaseMs: intIn(1000, 3_600_000),
  jobStaleMs: intIn(100, 86_400_000),
  exportConcurrency: intIn(1, 16),
  exportMaxRows: intIn(1, 100_000_000),
  exportBatchRows: intIn(1, 10_000_000),
  exportBatchBudgetMs: intIn(100, 3_600_000),
  exportBatchDelayMs: intIn(0, 600_000),
  testAnswerDelayMs: intIn(0, 60_000),
  searchTotalsCache: v.pipe(
    v.picklist(['0', '1'], 'must be 0 or 1'),
    v.transform((x) => x === '1'),
  ),
  checkContracts: v.pipe(
    v.picklist(['0', '1'], 'must be 0 or 1'),
    v.transform((x) => x === '1'),
  ),
  maxBodyBytes: intIn(1024, 100 * 1024 * 1024),
  ratePerMinute: intIn(1, 1_000_000),
  rateConcurrent: intIn(1, 10_000),
  networkHost: v.pipe(v.string(), v.regex(/^[a-z0-9.-]+\.[a-z]{2,}$/i, 'a host name like network.com')),
  adminToken: v.pipe(
    v.string(),
    v.check((s) => s === '' || s.length >= 32, 'must be empty or at least 32 characters'),
  ),
  metricsPort: v.pipe(
    v.string(),
    v.check((s) => s === '' || (/^\d+$/.test(s) && Number(s) <= 65535), 'empty or a port number (0-65535)'),
    v.transform((s) => (s === '' ? null : Number(s))),
  ),
  secret: v.pipe(
    v.string(),
    v.check((s) => s === '' || s.length >= 32, 'must be empty or at least 32 characters'),
  ),
  demoContacts: intIn(0, 100_000_000),
  demoCompanies: intIn(1, 10_000_000),
  signalsDelayMs: intIn(0, 60_000),
  signalsProviderUrl: v.pipe(
    v.string(),
    v.check((s) => s === '' || /^https?:\/\/\S+$/i.test(s), 'an http(s) URL or empty'),
  ),
  signalsProviderToken: v.string(),
  signalsProviderTimeoutMs: intIn(1, 600_000),
  signalsProviderRetries: intIn(0, 10),
  signalsProviderBackoffMs: intIn(0, 600_000),
  collectWaitMs: intIn(0, 120_000),
  uploadMaxRows: intIn(1, 1_000_000),
  uploadFetchTimeoutMs: intIn(100, 600_000),
  uploadFetchAllowHosts: v.pipe(
    v.string(),
    v.transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  ),
  webhookAllowHosts: v.pipe(
    v.string(),
    v.transform((s) =>
      s
        .split(',')
        .map((o) => o.trim().toLowerCase())
        .filter(Boolean),
    ),
  ),
  webhookTimeoutMs: intIn(100, 600_000),
  enrichmentBatchDelayMs: intIn(0, 60_000),
  oauthAccessTokenSeconds: intIn(60, 86_400),
  oauthRefreshTokenDays: intIn(1, 365),
  consoleSessionMinutes: intIn(1, 43_200),
  mcpAllowedOrigins: v.pipe(
    v.string(),
    v.transform((s) =>
      s
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
    v.check((list) => list.every((o) => /^https?:\/\/[^/\s]+$/i.test(o)), 'each origin like https://host[:port]'),
  ),
});

export type Config = v.InferOutput<typeof ConfigSchema>;

export class ConfigError extends Error {}

/** Reads `--flag value` / `--flag=value` pairs for the known flags; other argv entries are left to the caller. */
export function flagValues(argv: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  const known = new Set(SETTINGS.map((s) => s.flag).filter(Boolean));
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(0, eq) : a;
    if (!known.has(name)) continue;
    const value = eq > 0 ? a.slice(eq + 1) : argv[i + 1];
    if (value === undefined) throw new ConfigError(`${name} needs a value`);
    out[name] = value;
    if (eq < 0) i++;
  }
  return out;
}

export function loadConfig(argv: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Config {
  const flags = flagValues(argv);
  const raw: Record<string, string> = {};
  for (const s of SETTINGS) raw[s.key] = (s.flag && flags[s.flag]) ?? env[s.env] ?? s.default;
  const parsed = v.safeParse(ConfigSchema, raw);
  if (!parsed.success) {
    const issues = parsed.issues.map((i) => {
      const key = i.path?.[0]?.key as keyof Config | undefined;
      const s = SETTINGS.find((x) => x.key === key);
      return `${s ? (s.flag ?? s.env) : String(key)} (${s?.env ?? ''}): ${i.message}`;
    });
    throw new ConfigError(`invalid configuration: ${issues.join('; ')}`);
  }
  const cfg = parsed.output;
  cfg.dataDir = resolve(cfg.dataDir);
  cfg.filesDir = cfg.filesDir ? resolve(cfg.filesDir) : join(cfg.dataDir, 'files');
  if (!cfg.publicUrl) cfg.publicUrl = `http://${cfg.host.includes(':') ? `[${cfg.host}]` : cfg.host}:${cfg.port}`;
  cfg.publicUrl = cfg.publicUrl.replace(/\/+$/, '');
  return cfg;
}

/** The service secret: CDS_SECRET, or a random one generated once into DATA/secret (mode 0600). */
export function ensureSecret(cfg: Config): string {
  if (cfg.secret) return cfg.secret;
  // Every process of a deployment must sign and hash with the same secret: a generated one would differ per host.
  if (cfg.state === 'redis')
    throw new ConfigError('CDS_STATE=redis needs CDS_SECRET (the same secret of 32+ characters in every process)');
  mkdirSync(cfg.dataDir, { recursive: true });
  const file = join(cfg.dataDir, 'secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
}
