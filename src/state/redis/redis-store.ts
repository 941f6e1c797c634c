import type { Plan } from '../../domain/account.js';
import { DEFAULT_PLANS, DEFAULT_UPGRADE_URL, loadPlans, PlanBook } from '../plans.js';
import type { StateStore } from '../port.js';
import { RedisAccounts } from './accounts.js';
import { RedisAudiences } from './audiences.js';
import { closeRedis, connectRedis, type RedisClient, redisStepFor } from './client.js';
import { RedisCredits } from './credits.js';
import { RedisDomainLists } from './domain-lists.js';
import { RedisFeedback } from './feedback.js';
import { RedisIdempotency } from './idempotency.js';
import { RedisJobs } from './jobs.js';
import { RedisApiKeys } from './keys-store.js';
import { RedisOAuth } from './oauth.js';
import { RedisOptOuts } from './optouts.js';
import { RedisRequestLog } from './request-log.js';
import { RedisSessions } from './sessions.js';
import { RedisSignals } from './signals.js';
import { RedisDailyUsage } from './usage-daily.js';
import { RedisWebhooks } from './webhooks.js';

export interface RedisStoreOptions {
  /** `redis://…` or `rediss://…`; needed unless `client` is given. */
  url?: string;
  /** Force TLS on a `redis://` URL. */
  tls?: boolean;
  /** HMAC key for API key hashes; kept outside Redis, so a copy of the data alone cannot test guesses. */
  keyPepper: string;
  /** Plans to serve; default: DEFAULT_PLANS with `<dataDir>/plans.json` applied when dataDir is given. */
  plans?: readonly Plan[];
  dataDir?: string;
  upgradeUrl?: string;
  /** Start of every key name (default `cds:`): several deployments, or test stores, can share one Redis. */
  prefix?: string;
  /** A connection to share (the process's one client); by default `close()` then leaves it open. */
  client?: RedisClient;
  /** Whether `close()` quits the client; default: only a client this store opened itself. */
  ownsClient?: boolean;
  /** Connection errors of a client this store opens (it keeps reconnecting). */
  onError?: (e: Error) => void;
  /**
   * Bound on each call over a client this store opens (default 5000 ms; see connectRedis). A shared `client`
   * keeps the bound it was opened with.
   */
  commandTimeoutMs?: number;
}

/** How long `ping` waits before answering false: a health check must answer even when Redis hangs. */
const PING_TIMEOUT_MS = 2000;

/**
 * The scale-out StateStore: every process of the deployment on one Redis, every check-then-write one Lua script
 * (state/redis/*.ts say which and why). It answers exactly as the SQLite adapter (test/state runs both); while Redis
 * is unreachable, answers "not serving now" (LOADING, BUSY, OOM, READONLY…) or does not answer within the client's
 * bound (client.ts), every call throws 503 data.unavailable; `ping` answers false while Redis is unreachable or
 * silent, and the client reconnects by itself.
 * Opening sends no command, so a server can start while Redis is still down.
 */
export async function openRedisStore(options: RedisStoreOptions): Promise<StateStore> {
  if (!options.keyPepper) throw new Error('openRedisStore needs a non-empty keyPepper');
  // Plans first: a bad plans.json fails before a connection is made.
  const plans = new PlanBook(
    options.plans ?? (options.dataDir !== undefined ? loadPlans(options.dataDir) : DEFAULT_PLANS),
  );
  const prefix = options.prefix ?? 'cds:';
  let client: RedisClient;
  if (options.client) client = options.client;
  else if (options.url)
    client = await connectRedis({
      url: options.url,
      ...(options.tls !== undefined ? { tls: options.tls } : {}),
      ...(options.onError ? { onError: options.onError } : {}),
      ...(options.commandTimeoutMs !== undefined ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
    });
  else throw new Error('openRedisStore needs a url or a client');
  const ownsClient = options.ownsClient ?? options.client === undefined;

  const accounts = new RedisAccounts(client, prefix, plans);
  const keys = new RedisApiKeys(client, prefix, options.keyPepper, accounts);
  const credits = new RedisCredits(client, prefix, accounts, options.upgradeUrl ?? DEFAULT_UPGRADE_URL);
  const feedback = new RedisFeedback(client, prefix, accounts);
  const idempotency = new RedisIdempotency(client, prefix);
  const domainLists = new RedisDomainLists(client, prefix, accounts);
  const jobs = new RedisJobs(client, prefix, accounts, credits);
  const signals = new RedisSignals(client, prefix);
  const sessions = new RedisSessions(client, prefix);
  const audiences = new RedisAudiences(client, prefix, accounts);
  const requestLog = new RedisRequestLog(client, prefix);
  const oauth = new RedisOAuth(client, prefix);
  const daily = new RedisDailyUsage(client, prefix);
  const webhooks = new RedisWebhooks(client, prefix);
  // Every call goes through one bounded step: a connection failure, a "not serving now" reply or no answer within
  // the client's commandTimeoutMs, anywhere in it, is a 503, never a 500 nor a request left hanging.
  const step = redisStepFor(client);
  // Each chunk of an opt-out change is its own bounded step (a large import is many steps).
  const optOuts = new RedisOptOuts(client, prefix, step);

  return {
    listPlans: () => plans.list(),
    getPlan: (slug) => plans.get(slug),
    createAccount: (input) => step(() => accounts.create(input)),
    getAccount: (id) => step(() => accounts.get(id)),
    listAccounts: () => step(() => accounts.list()),
    setAccountStatus: (id, status) => step(() => accounts.setStatus(id, status)),
    setAccountPlan: (id, input) => step(() => accounts.setPlan(id, input)),
    createKey: (accountId, input) => step(() => keys.create(accountId, input)),
    revokeKey: (accountId, keyId, now) => step(() => keys.revoke(accountId, keyId, now)),
    listKeys: (accountId) => step(() => keys.list(accountId)),
    authenticate: (secret, now) => step(() => keys.authenticate(secret, now)),
    snapshot: (accountId, now) => step(() => credits.snapshot(accountId, now)),
    reserve: (req) => step(() => credits.reserve(req)),
    commit: (holdId, charged, now) => step(() => credits.commit(holdId, charged, now)),
    releaseHold: (holdId, now) => step(() => credits.releaseHold(holdId, now)),
    getHold: (holdId) => step(() => credits.getHold(holdId)),
    releaseOrphanHolds: (now) => step(() => credits.releaseOrphanHolds(now)),
    renewHoldLeases: (holdIds, until) => step(() => credits.renewHoldLeases(holdIds, until)),
    addFeedback: (accountId, body, now) => step(() => feedback.add(accountId, body, now)),
    listFeedback: (accountId) => step(() => feedback.list(accountId)),
    createDomainList: (accountId, input, limits) => step(() => domainLists.create(accountId, input, limits)),
    getDomainList: (accountId, id) => step(() => domainLists.get(accountId, id)),
    listDomainLists: (accountId) => step(() => domainLists.list(accountId)),
    beginIdempotent: (accountId, key, hash, now, leaseMs) =>
      step(() => idempotency.begin(accountId, key, hash, now, leaseMs)),
    finishIdempotent: (accountId, key, status, body) => step(() => idempotency.finish(accountId, key, status, body)),
    abandonIdempotent: (accountId, key) => step(() => idempotency.abandon(accountId, key)),
    createJob: (job) => step(() => jobs.create(job)),
    getJob: (id) => step(() => jobs.get(id)),
    listJobs: (accountId, kind, limit) => step(() => jobs.list(accountId, kind, limit)),
    claimJob: (kinds, now, worker) => step(() => jobs.claimNext(kinds, now, worker)),
    claimJobById: (id, now, worker) => step(() => jobs.claimById(id, now, worker)),
    queuedJobs: (limit) => step(() => jobs.queuedJobs(limit)),
    progressJob: (id, result, now, attempt) => step(() => jobs.saveProgress(id, result, now, attempt)),
    finishJob: (id, end, now) => step(() => jobs.finish(id, end, now)),
    yieldJob: (id, attempt, _now, spent) => step(() => jobs.yield(id, attempt, spent)),
    requeueStale: (staleBefore, _now, isDead) => step(() => jobs.requeueStale(staleBefore, isDead)),
    addSignals: (run, rows, now, maxNewLeads, chargeHold) =>
      step(() => signals.addSignals(run, rows, now, maxNewLeads, chargeHold)),
    runStats: (runId) => step(() => signals.runStats(runId)),
    forgetRunLeads: (runId) => step(() => signals.forgetRunLeads(runId)),
    listSignals: (q) => step(() => signals.listSignals(q)),
    countSignals: (q) => step(() => signals.countSignals(q)),
    createAlert: (input, maxActive) => step(() => signals.createAlert(input, maxActive)),
    getAlert: (id) => step(() => signals.getAlert(id)),
    listAlerts: (accountId) => step(() => signals.listAlerts(accountId)),
    updateAlert: (id, patch, now, maxActive) => step(() => signals.updateAlert(id, patch, now, maxActive)),
    deleteAlert: (id, now) => step(() => signals.deleteAlert(id, now)),
    dueAlerts: (now, limit) => step(() => signals.dueAlerts(now, limit)),
    claimAlertSlot: (id, due, next, now) => step(() => signals.claimAlertSlot(id, due, next, now)),
    addOptOuts: (entries, audit, now, onProgress) => optOuts.add(entries, audit, now, onProgress),
    removeOptOuts: (entries, audit, now, onProgress) => optOuts.remove(entries, audit, now, onProgress),
    listOptOuts: (q) => optOuts.list(q),
    allOptOuts: () => optOuts.all(),
    optOutVersion: () => optOuts.version(),
    listOptOutAudit: (limit) => optOuts.audit(limit),
    usageByDay: (accountId, fromDay, toDay) => step(() => daily.list(accountId, fromDay, toDay)),
    createSession: (session) => step(() => sessions.create(session)),
    getSession: (tokenHash, now) => step(() => sessions.get(tokenHash, now)),
    rebindSession: (tokenHash, keyId) => step(() => sessions.setKey(tokenHash, keyId)),
    deleteSession: (tokenHash) => step(() => sessions.delete(tokenHash)),
    createAudience: (accountId, input, max) => step(() => audiences.create(accountId, input, max)),
    getAudience: (accountId, id) => step(() => audiences.get(accountId, id)),
    listAudiences: (accountId) => step(() => audiences.list(accountId)),
    updateAudience: (accountId, id, patch, now) => step(() => audiences.update(accountId, id, patch, now)),
    deleteAudience: (accountId, id) => step(() => audiences.delete(accountId, id)),
    recordAudienceCount: (accountId, id, version, point) => step(() => audiences.record(accountId, id, version, point)),
    appendRequestLog: (entries, cap) => step(() => requestLog.append(entries, cap)),
    listRequestLog: (accountId) => step(() => requestLog.list(accountId)),
    getRequestLogEntry: (accountId, requestId) => step(() => requestLog.get(accountId, requestId)),
    createWebhook: (input, max) => step(() => webhooks.create(input, max)),
    getWebhook: (accountId, id) => step(() => webhooks.get(accountId, id)),
    listWebhooks: (accountId) => step(() => webhooks.list(accountId)),
    updateWebhook: (accountId, id, patch, now) => step(() => webhooks.update(accountId, id, patch, now)),
    deleteWebhook: (accountId, id) => step(() => webhooks.delete(accountId, id)),
    recordWebhookEvent: (accountId, draft, now, endpointId) =>
      step(() => webhooks.record(accountId, draft, now, endpointId)),
    claimWebhookDeliveries: (now, limit, leaseUntil) => step(() => webhooks.claim(now, limit, leaseUntil)),
    finishWebhookAttempt: (id, attempt, outcome, disableAfterMs) =>
      step(() => webhooks.finish(id, attempt, outcome, disableAfterMs)),
    listWebhookAttempts: (accountId, endpointId, limit) => step(() => webhooks.attempts(accountId, endpointId, limit)),
    getWebhookDelivery: (accountId, endpointId, id) => step(() => webhooks.delivery(accountId, endpointId, id)),
    replayWebhookDelivery: (accountId, endpointId, id, now) =>
      step(() => webhooks.replay(accountId, endpointId, id, now)),
    webhookQueueStats: () => step(() => webhooks.stats()),
    pruneWebhooks: (before, limit) => step(() => webhooks.prune(before, limit)),
    creditsLowEndpoints: () => step(() => webhooks.creditsLowEndpoints()),
    recordCreditsLow: (accountId, endpointId, windowKey, draft, now) =>
      step(() => webhooks.recordCreditsLow(accountId, endpointId, windowKey, draft, now)),
    oauthUpsert: (record, now) => step(() => oauth.put(record, now)),
    oauthFind: (model, id, now) => step(() => oauth.find(model, id, now)),
    oauthFindByUid: (model, uid, now) => step(() => oauth.findByUid(model, uid, now)),
    oauthConsume: (model, id, now) => step(() => oauth.consume(model, id, now)),
    oauthDestroy: (model, id) => step(() => oauth.destroy(model, id)),
    oauthRevokeGrant: (grantId) => step(() => oauth.revokeGrant(grantId)),
    oauthListByAccount: (accountId, model, now) => step(() => oauth.listByAccount(accountId, model, now)),
    ping: () => ping(client),
    close: async () => {
      // Not a bare client.close(): it waits for every pending reply, forever if Redis answers nothing.
      if (ownsClient) await closeRedis(client);
    },
  };
}

async function ping(client: RedisClient): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
  });
  // A late failure after the timeout answered is swallowed too: ping never throws, now or later.
  const answer = Promise.resolve()
    .then(() => client.ping())
    .then(
      (r) => r === 'PONG',
      () => false,
    );
  try {
    return await Promise.race([answer, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
