import type { Account, AccountStatus, ApiKeyRecord, CreditSnapshot, Plan } from '../domain/account.js';
import type { AudienceStore } from '../domain/audiences/store.js';
import type { ConsoleSession } from '../domain/console-session.js';
import type { CreditKind, Hold, UsageCategory } from '../domain/credits.js';
import type { OAuthRecord, OAuthStored } from '../domain/oauth-record.js';
import type { OptOutEntry, OptOutType } from '../domain/optouts.js';
import type { RequestLogStore } from '../domain/request-log.js';
import type { DailyUsage, UsageLine } from '../domain/usage-lines.js';
import type { WebhookStore } from '../domain/webhooks/store.js';
import type { JobStore } from '../jobs/port.js';
import type { SignalStore } from '../network-signals/port.js';

/**
 * StateStore port: accounts, plans, API keys, credits, feedback, idempotency records, domain lists, jobs and signals.
 * Implemented by state/sqlite (embedded default) and state/redis (scale-out); both pass test/state. Every method is
 * async (Redis answers over the network); plans are configuration and stay synchronous.
 * Every credit movement goes through reserve -> commit | release here, atomically (ARCHITECTURE rule 5).
 */

export interface ReserveRequest {
  accountId: string;
  kind: CreditKind;
  /** Needed for unlimited plans' fair-use budget; recorded on every hold. */
  category: UsageCategory | null;
  amount: number;
  /** exact: all or nothing (throws the matching *.exhausted AppError); up_to: grant what is left (may be 0). */
  mode: 'exact' | 'up_to';
  now: Date;
  /**
   * A request's hold: held until this time unless renewed (renewHoldLeases). A hold without a lease belongs to a
   * job, whose runner settles it.
   */
  leaseUntil?: Date;
  /** The usage chart's line for what this hold charges (default: lineOf(kind, category)). */
  line?: UsageLine;
}

/** Per-account bounds of saved domain lists. */
export interface DomainListLimits {
  lists: number;
  domains: number;
}

export interface DomainList {
  id: string;
  accountId: string;
  name: string;
  domains: string[];
  createdAt: string;
}

export interface Feedback {
  id: string;
  accountId: string;
  body: Record<string, unknown>;
  createdAt: string;
}

/** What `beginIdempotent` found for an Idempotency-Key (records live 24 hours). */
/** How long an idempotency record answers its key (spec: 24 hours); both adapters and the state transfer use it. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export type IdempotencyBegin =
  | { state: 'new' }
  | { state: 'replay'; status: number; body: unknown }
  | { state: 'running' }
  | { state: 'mismatch' };

/** Who made an opt-out change and how (the audit keeps it, with the type and count, never an identifier). */
export interface OptOutAuditInput {
  action: 'add' | 'import' | 'remove';
  /** The operator: `cli:<user>` for the command, `api:operator` for the operator routes. */
  actor: string;
}

/** One audit record: one per (change, identifier type) that changed something. */
export interface OptOutAuditRecord {
  at: string;
  action: string;
  actor: string;
  type: OptOutType;
  count: number;
}

export interface OptOutListQuery {
  type?: OptOutType;
  /** `next` of the previous page (an entry key, `type:value`); null or absent for the first page. */
  after?: string | null;
  limit: number;
}

export interface OptOutPage {
  /** In the stable order of `type:value` (byte order), the same in every adapter. */
  entries: Array<OptOutEntry & { createdAt: string }>;
  /** The `after` of the next page; null on the last one. */
  next: string | null;
  /** Entries of the queried type (or of every type) in the list now. */
  total: number;
}

/** Progress of a large opt-out change: entries handled so far, of `total`, after each chunk. */
export type OptOutProgress = (done: number, total: number) => void;

/**
 * Entries per chunk of an opt-out change: each chunk is one transaction (SQLite) or one script (Redis), atomic with
 * its audit count and version bump; a change of more entries is several chunks, each atomic on its own.
 */
export const OPT_OUT_CHUNK = 5000;

export interface StateStore extends JobStore, SignalStore, AudienceStore, RequestLogStore, WebhookStore {
  // plans
  listPlans(): Plan[];
  getPlan(slug: string): Plan | undefined;
  // accounts (bad input and unknown account ids throw AppError request.invalid with `field`)
  createAccount(input: { name: string; plan: string; billingDay: number | null; now: Date }): Promise<Account>;
  getAccount(id: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  setAccountStatus(id: string, status: AccountStatus): Promise<Account>;
  /** Moves the account to another plan / billing day; usage already counted stays in its windows. */
  setAccountPlan(id: string, input: { plan: string; billingDay: number | null }): Promise<Account>;
  // keys: the secret is returned once and stored only as a keyed hash.
  // createKey throws key.limit_reached while an active key exists; revokeKey throws key.not_found for an
  // unknown, already revoked or other account's key. authenticate never accepts a revoked key but does
  // accept a suspended account's key (the HTTP layer decides 403 vs allowed).
  createKey(
    accountId: string,
    input: { name?: string | null; now: Date },
  ): Promise<{ key: ApiKeyRecord; secret: string }>;
  revokeKey(accountId: string, keyId: string, now: Date): Promise<ApiKeyRecord>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  authenticate(secret: string, now: Date): Promise<{ account: Account; key: ApiKeyRecord } | undefined>;
  // credits (reserve throws contact_credits.exhausted / premium_credits.exhausted in mode exact)
  snapshot(accountId: string, now: Date): Promise<CreditSnapshot>;
  reserve(req: ReserveRequest): Promise<Hold>;
  /** Charges min(charged, amount) and returns the rest; a no-op returning the hold once it is settled. */
  commit(holdId: string, charged: number, now: Date): Promise<Hold>;
  releaseHold(holdId: string, now: Date): Promise<Hold>;
  getHold(holdId: string): Promise<Hold | undefined>;
  /**
   * Releases holds no queued or running job owns: request-scoped holds of a process that died mid-request.
   * Called once at start-up, before the server accepts requests. Returns how many were released.
   */
  /**
   * Releases the holds of requests whose process died: a lease that expired before `now`, or (state written by an
   * earlier version) no lease and no live job. Live requests of other processes keep theirs. Returns the count.
   */
  releaseOrphanHolds(now: Date): Promise<number>;
  /** Extends the leases of these held holds (a process renews its live requests' holds). */
  renewHoldLeases(holdIds: readonly string[], until: Date): Promise<void>;
  // feedback
  addFeedback(accountId: string, body: Record<string, unknown>, now: Date): Promise<Feedback>;
  listFeedback(accountId: string): Promise<Feedback[]>;
  // saved domain lists (family B domain_list_id); every lookup is scoped to its account
  /**
   * Saves a list unless the account would then hold more than `limits.lists` lists or `limits.domains` domains in
   * all (409 domain_lists.limit_reached); the check and the insert are one atomic step.
   */
  createDomainList(
    accountId: string,
    input: { name: string; domains: string[]; now: Date },
    limits: DomainListLimits,
  ): Promise<DomainList>;
  getDomainList(accountId: string, id: string): Promise<DomainList | undefined>;
  listDomainLists(accountId: string): Promise<DomainList[]>;
  // idempotency: claim a key for a request hash; finish stores the answer; abandon frees the key. A running
  // record holds the key for `leaseMs` from its start: past it (its process died mid-request) the key is
  // claimed again as new, so a retry is not refused for 24 hours.
  beginIdempotent(
    accountId: string,
    key: string,
    requestHash: string,
    now: Date,
    leaseMs: number,
  ): Promise<IdempotencyBegin>;
  finishIdempotent(accountId: string, key: string, status: number, body: unknown): Promise<void>;
  abandonIdempotent(accountId: string, key: string): Promise<void>;
  // opt-outs (suppression list): entries are normalized (domain/optouts.ts normalizeOptOut) before they get here.
  // A change is applied in chunks of OPT_OUT_CHUNK entries, each atomic with its audit count and version bump.
  /** Adds the entries not listed yet (`already`: listed before, or repeated in `entries`). */
  addOptOuts(
    entries: readonly OptOutEntry[],
    audit: OptOutAuditInput & { action: 'add' | 'import' },
    now: Date,
    onProgress?: OptOutProgress,
  ): Promise<{ added: number; already: number }>;
  /** Removes the listed entries (`missing`: not listed, or repeated in `entries`). */
  removeOptOuts(
    entries: readonly OptOutEntry[],
    audit: OptOutAuditInput & { action: 'remove' },
    now: Date,
    onProgress?: OptOutProgress,
  ): Promise<{ removed: number; missing: number }>;
  /** A page of the list in `type:value` order; a malformed `after` throws request.invalid (field `cursor`). */
  listOptOuts(q: OptOutListQuery): Promise<OptOutPage>;
  /** The whole list (the engine and the loader apply it); one read. */
  allOptOuts(): Promise<OptOutEntry[]>;
  /**
   * Bumped by every chunk of a change that added or removed something (never by a no-op), so a server polling it
   * applies changes promptly; one cheap read. 0 before the first change.
   */
  optOutVersion(): Promise<number>;
  /** The newest audit records first, at most `limit`. */
  listOptOutAudit(limit: number): Promise<OptOutAuditRecord[]>;
  // usage per day (the console's chart): every settled charge adds to its UTC day (of the settlement) and line
  /** Days from `fromDay` to `toDay` inclusive (YYYY-MM-DD), in day order; only non-zero records. */
  usageByDay(accountId: string, fromDay: string, toDay: string): Promise<DailyUsage[]>;
  // web console sessions (only the token's hash is stored); an expired session is never returned
  createSession(session: ConsoleSession): Promise<void>;
  getSession(tokenHash: string, now: Date): Promise<ConsoleSession | undefined>;
  /** Binds the session to another key (null: its key was revoked by the session itself). */
  rebindSession(tokenHash: string, keyId: string | null): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  // OAuth authorization server records (src/oauth): by (model, id); an expired record is never returned
  /** Writes (or replaces) the record; its indexes follow. `now` measures its lifetime. */
  oauthUpsert(record: OAuthRecord, now: Date): Promise<void>;
  oauthFind(model: string, id: string, now: Date): Promise<OAuthStored | undefined>;
  oauthFindByUid(model: string, uid: string, now: Date): Promise<OAuthStored | undefined>;
  /** Marks the record used (a code exchanged, a refresh token rotated); a missing record is a no-op. */
  oauthConsume(model: string, id: string, now: Date): Promise<void>;
  oauthDestroy(model: string, id: string): Promise<void>;
  /** Deletes every record of the grant (its codes and tokens), not the Grant record itself. */
  oauthRevokeGrant(grantId: string): Promise<void>;
  /** The account's live records of one model (its Grants: the connected clients), oldest first. */
  oauthListByAccount(accountId: string, model: string, now: Date): Promise<OAuthStored[]>;
  // health
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
