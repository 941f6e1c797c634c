import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Plan } from '../../domain/account.js';
import { DEFAULT_PLANS, DEFAULT_UPGRADE_URL, loadPlans, PlanBook } from '../plans.js';
import type { StateStore } from '../port.js';
import { SqliteAccounts } from './accounts.js';
import { SqliteAudiences } from './audiences.js';
import { SqliteCredits } from './credits.js';
import { SqliteDomainLists } from './domain-lists.js';
import { SqliteFeedback } from './feedback.js';
import { GroupCommit } from './group-commit.js';
import { SqliteIdempotency } from './idempotency.js';
import { SqliteJobs } from './jobs.js';
import { SqliteKeys } from './keys.js';
import { SqliteOAuth } from './oauth.js';
import { SqliteOptOuts } from './optouts.js';
import { SqliteRequestLog } from './request-log.js';
import { migrate } from './schema.js';
import { SqliteSessions } from './sessions.js';
import { SqliteSignals } from './signals.js';
import { SqliteWebhooks } from './webhooks.js';

export { DEFAULT_UPGRADE_URL } from '../plans.js';

export interface SqliteStoreOptions {
  /** Path of the SQLite file (created with its folder when missing). */
  file: string;
  /** HMAC key for API key hashes; keep it outside the state file. */
  keyPepper: string;
  /** Plans to serve; default: DEFAULT_PLANS with `<dataDir>/plans.json` applied when dataDir is given. */
  plans?: readonly Plan[];
  dataDir?: string;
  upgradeUrl?: string;
  /** How long a writer waits for another process's lock before failing. */
  busyTimeoutMs?: number;
}

/** The embedded StateStore: one SQLite file, synchronous better-sqlite3, safe to open from several processes. */
export function openSqliteStore(options: SqliteStoreOptions): StateStore {
  if (!options.keyPepper) throw new Error('openSqliteStore needs a non-empty keyPepper');
  // Plans first: a bad plans.json fails before the file is opened.
  const plans = new PlanBook(
    options.plans ?? (options.dataDir !== undefined ? loadPlans(options.dataDir) : DEFAULT_PLANS),
  );
  if (options.file !== ':memory:') mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL survives process crashes; a power cut may lose the last commits, never corrupt the file.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db);
  } catch (e) {
    db.close();
    throw e;
  }
  const accounts = new SqliteAccounts(db, plans);
  const webhooks = new SqliteWebhooks(db);
  const keys = new SqliteKeys(db, options.keyPepper, accounts, webhooks);
  const credits = new SqliteCredits(db, accounts, options.upgradeUrl ?? DEFAULT_UPGRADE_URL);
  const feedback = new SqliteFeedback(db, accounts);
  const idempotency = new SqliteIdempotency(db);
  const domainLists = new SqliteDomainLists(db, accounts);
  const jobs = new SqliteJobs(db, accounts, credits, webhooks);
  const signals = new SqliteSignals(db, credits);
  const optOuts = new SqliteOptOuts(db);
  const sessions = new SqliteSessions(db);
  const audiences = new SqliteAudiences(db, accounts);
  const requestLog = new SqliteRequestLog(db);
  const oauth = new SqliteOAuth(db);
  // The credit writes and reads of every paid request, and the request log, commit in groups (group-commit.ts).
  const group = new GroupCommit(db);

  return {
    listPlans: () => plans.list(),
    getPlan: (slug) => plans.get(slug),
    createAccount: async (input) => accounts.create(input),
    getAccount: async (id) => accounts.get(id),
    listAccounts: async () => accounts.list(),
    setAccountStatus: async (id, status) => accounts.setStatus(id, status),
    setAccountPlan: async (id, input) => accounts.setPlan(id, input),
    createKey: async (accountId, input) => keys.create(accountId, input),
    revokeKey: async (accountId, keyId, now) => keys.revoke(accountId, keyId, now),
    listKeys: async (accountId) => keys.list(accountId),
    authenticate: async (secret, now) => keys.authenticate(secret, now),
    snapshot: (accountId, now) => group.run(() => credits.snapshot(accountId, now)),
    reserve: (req) => group.run(() => credits.reserve(req)),
    commit: (holdId, charged, now) => group.run(() => credits.commit(holdId, charged, now)),
    releaseHold: (holdId, now) => group.run(() => credits.releaseHold(holdId, now)),
    getHold: async (holdId) => credits.getHold(holdId),
    releaseOrphanHolds: async (now) => {
      const orphans = db
        .prepare<[string], { id: string }>(
          "SELECT h.id FROM holds h WHERE h.status = 'held' AND (h.lease_until < ? OR (h.lease_until IS NULL AND " +
            "NOT EXISTS (SELECT 1 FROM jobs j WHERE j.hold_id = h.id AND j.status IN ('queued', 'running'))))",
        )
        .all(now.toISOString());
      db.transaction(() => {
        for (const o of orphans) credits.releaseHold(o.id, now);
      })();
      return orphans.length;
    },
    renewHoldLeases: async (holdIds, until) => {
      const renew = db.prepare("UPDATE holds SET lease_until = ? WHERE id = ? AND status = 'held'");
      db.transaction(() => {
        for (const id of holdIds) renew.run(until.toISOString(), id);
      })();
    },
    addFeedback: async (accountId, body, now) => feedback.add(accountId, body, now),
    listFeedback: async (accountId) => feedback.list(accountId),
    createDomainList: async (accountId, input, limits) => domainLists.create(accountId, input, limits),
    getDomainList: async (accountId, id) => domainLists.get(accountId, id),
    listDomainLists: async (accountId) => domainLists.list(accountId),
    beginIdempotent: async (accountId, key, hash, now, leaseMs) =>
      idempotency.begin(accountId, key, hash, now, leaseMs),
    finishIdempotent: async (accountId, key, status, body) => idempotency.finish(accountId, key, status, body),
    abandonIdempotent: async (accountId, key) => idempotency.abandon(accountId, key),
    createJob: async (job) => jobs.create(job),
    getJob: async (id) => jobs.get(id),
    listJobs: async (accountId, kind, limit) => jobs.list(accountId, kind, limit),
    claimJob: async (kinds, now, worker) => jobs.claimNext(kinds, now, worker),
    claimJobById: async (id, now, worker) => jobs.claimById(id, now, worker),
    queuedJobs: async (limit) => jobs.queuedJobs(limit),
    progressJob: async (id, result, now, attempt) => jobs.saveProgress(id, result, now, attempt),
    finishJob: async (id, end, now) => jobs.finish(id, end, now),
    yieldJob: async (id, attempt, _now, spent) => jobs.yield(id, attempt, spent),
    requeueStale: async (staleBefore, _now, isDead) => jobs.requeueStale(staleBefore, isDead),
    addSignals: async (run, rows, now, maxNewLeads, chargeHold) =>
      signals.addSignals(run, rows, now, maxNewLeads, chargeHold),
    runStats: async (runId) => signals.runStats(runId),
    forgetRunLeads: async (runId) => signals.forgetRunLeads(runId),
    listSignals: async (q) => signals.listSignals(q),
    countSignals: async (q) => signals.countSignals(q),
    createAlert: async (input, maxActive) => signals.createAlert(input, maxActive),
    getAlert: async (id) => signals.getAlert(id),
    listAlerts: async (accountId) => signals.listAlerts(accountId),
    updateAlert: async (id, patch, now, maxActive) => signals.updateAlert(id, patch, now, maxActive),
    deleteAlert: async (id, now) => signals.deleteAlert(id, now),
    dueAlerts: async (now, limit) => signals.dueAlerts(now, limit),
    claimAlertSlot: async (id, due, next, now) => signals.claimAlertSlot(id, due, next, now),
    addOptOuts: async (entries, audit, now, onProgress) => optOuts.add(entries, audit, now, onProgress),
    removeOptOuts: async (entries, audit, now, onProgress) => optOuts.remove(entries, audit, now, onProgress),
    listOptOuts: async (q) => optOuts.list(q),
    allOptOuts: async () => optOuts.allEntries(),
    optOutVersion: async () => optOuts.currentVersion(),
    listOptOutAudit: async (limit) => optOuts.auditRecords(limit),
    usageByDay: async (accountId, fromDay, toDay) => credits.daily.list(accountId, fromDay, toDay),
    createSession: async (session) => sessions.create(session),
    getSession: async (tokenHash, now) => sessions.get(tokenHash, now),
    rebindSession: async (tokenHash, keyId) => sessions.setKey(tokenHash, keyId),
    deleteSession: async (tokenHash) => sessions.delete(tokenHash),
    createAudience: async (accountId, input, max) => audiences.create(accountId, input, max),
    getAudience: async (accountId, id) => audiences.get(accountId, id),
    listAudiences: async (accountId) => audiences.list(accountId),
    updateAudience: async (accountId, id, patch, now) => audiences.patch(accountId, id, patch, now),
    deleteAudience: async (accountId, id) => audiences.delete(accountId, id),
    recordAudienceCount: async (accountId, id, version, point) => audiences.record(accountId, id, version, point),
    appendRequestLog: (entries, cap) => group.run(() => requestLog.append(entries, cap)),
    listRequestLog: async (accountId) => requestLog.list(accountId),
    getRequestLogEntry: async (accountId, requestId) => requestLog.get(accountId, requestId),
    oauthUpsert: async (record, now) => oauth.put(record, now),
    oauthFind: async (model, id, now) => oauth.find(model, id, now),
    oauthFindByUid: async (model, uid, now) => oauth.findByUid(model, uid, now),
    oauthConsume: async (model, id, now) => oauth.markConsumed(model, id, now),
    oauthDestroy: async (model, id) => oauth.destroy(model, id),
    oauthRevokeGrant: async (grantId) => oauth.revokeGrant(grantId),
    oauthListByAccount: async (accountId, model, now) => oauth.listByAccount(accountId, model, now),
    createWebhook: async (input, max) => webhooks.create(input, max),
    getWebhook: async (accountId, id) => webhooks.get(accountId, id),
    listWebhooks: async (accountId) => webhooks.list(accountId),
    updateWebhook: async (accountId, id, patch, now) => webhooks.update(accountId, id, patch, now),
    deleteWebhook: async (accountId, id) => webhooks.delete(accountId, id),
    recordWebhookEvent: async (accountId, draft, now, endpointId) => webhooks.record(accountId, draft, now, endpointId),
    claimWebhookDeliveries: async (now, limit, leaseUntil) => webhooks.claim(now, limit, leaseUntil),
    finishWebhookAttempt: async (id, attempt, outcome, disableAfterMs) =>
      webhooks.finish(id, attempt, outcome, disableAfterMs),
    listWebhookAttempts: async (accountId, endpointId, limit) => webhooks.attempts(accountId, endpointId, limit),
    getWebhookDelivery: async (accountId, endpointId, id) => webhooks.delivery(accountId, endpointId, id),
    replayWebhookDelivery: async (accountId, endpointId, id, now) => webhooks.replay(accountId, endpointId, id, now),
    webhookQueueStats: async () => webhooks.stats(),
    pruneWebhooks: async (before, limit) => webhooks.prune(before, limit),
    creditsLowEndpoints: async () => webhooks.creditsLowEndpoints(),
    recordCreditsLow: async (accountId, endpointId, windowKey, draft, now) =>
      webhooks.recordCreditsLow(accountId, endpointId, windowKey, draft, now),
    ping: async () => {
      try {
        return db.prepare<[], { ok: number }>('SELECT 1 AS ok').get()?.ok === 1;
      } catch {
        return false;
      }
    },
    close: async () => {
      group.flush();
      if (db.open) db.close();
    },
  };
}
