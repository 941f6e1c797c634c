import type { JobStore } from '../jobs/port.js';
import type { SignalStore } from '../signals/port.js';

/**
 * StateStore port: accounts, plans, API keys, credits, feedback (and later jobs, idempotency, signals).
 * Implemented by state/sqlite (embedded default) and state/redis (scale-out); both pass test/state.
 * Every credit movement goes through reserve -> commit | release here, atomically (ARCHITECTURE rule 5).
 */

export type CreditKind = 'contact' | 'premium';
/** Fair-use categories of unlimited plans. */
export type UsageCategory = 'search' | 'export' | 'enrich';

export type ContactAllowance =
  | { kind: 'pool'; pool: number } // free plan: lifetime pool, never resets
  | { kind: 'windows'; daily: number; monthly: number } // paid plans: UTC day + billing month caps
  | { kind: 'unlimited'; fairUse: Record<UsageCategory, { daily: number; monthly: number }> };

export interface Plan {
  slug: string;
  name: string;
  contact: ContactAllowance;
  /** Premium credits per billing month. */
  premiumMonthly: number;
  /** Whether alerts may be created. */
  alerts: boolean;
  maxActiveAlerts: number;
}

export type AccountStatus = 'active' | 'suspended';

export interface Account {
  id: string;
  name: string;
  plan: string;
  /** Day of month (1-28) the billing month starts; null = no subscription (UTC calendar month). */
  billingDay: number | null;
  status: AccountStatus;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** The 8 characters after `cds_`, for display (`cds_AbCd1234…`); the secret itself is never stored. */
  prefix: string;
  name: string | null;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** Usage of one credit kind (and category, for fair use) in the windows that apply now. */
export interface WindowUsage {
  /** Window start and reset, RFC 3339 UTC; the free pool has start null and reset far-future. */
  start: string | null;
  resetsAt: string;
  cap: number;
  used: number;
  held: number;
}

export interface CreditSnapshot {
  plan: Plan;
  account: Account;
  /** contact credits: pool (free) or day+month (paid). Unlimited: per category. */
  contact:
    | { kind: 'pool'; pool: WindowUsage }
    | { kind: 'windows'; day: WindowUsage; month: WindowUsage }
    | { kind: 'unlimited'; categories: Record<UsageCategory, { day: WindowUsage; month: WindowUsage }> };
  premium: { month: WindowUsage };
}

export interface Hold {
  id: string;
  accountId: string;
  kind: CreditKind;
  category: UsageCategory | null;
  amount: number;
  status: 'held' | 'committed' | 'released';
  charged: number;
  createdAt: string;
  /** When the hold was committed or released; null while held. */
  settledAt: string | null;
}

export interface ReserveRequest {
  accountId: string;
  kind: CreditKind;
  /** Needed for unlimited plans' fair-use budget; recorded on every hold. */
  category: UsageCategory | null;
  amount: number;
  /** exact: all or nothing (throws the matching *.exhausted AppError); up_to: grant what is left (may be 0). */
  mode: 'exact' | 'up_to';
  now: Date;
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
export type IdempotencyBegin =
  | { state: 'new' }
  | { state: 'replay'; status: number; body: unknown }
  | { state: 'running' }
  | { state: 'mismatch' };

export interface StateStore extends JobStore, SignalStore {
  // plans
  listPlans(): Plan[];
  getPlan(slug: string): Plan | undefined;
  // accounts (bad input and unknown account ids throw AppError request.invalid with `field`)
  createAccount(input: { name: string; plan: string; billingDay: number | null; now: Date }): Account;
  getAccount(id: string): Account | undefined;
  listAccounts(): Account[];
  setAccountStatus(id: string, status: AccountStatus): Account;
  /** Moves the account to another plan / billing day; usage already counted stays in its windows. */
  setAccountPlan(id: string, input: { plan: string; billingDay: number | null }): Account;
  // keys: the secret is returned once and stored only as a keyed hash.
  // createKey throws key.limit_reached while an active key exists; revokeKey throws key.not_found for an
  // unknown, already revoked or other account's key. authenticate never accepts a revoked key but does
  // accept a suspended account's key (the HTTP layer decides 403 vs allowed).
  createKey(accountId: string, input: { name?: string | null; now: Date }): { key: ApiKeyRecord; secret: string };
  revokeKey(accountId: string, keyId: string, now: Date): ApiKeyRecord;
  listKeys(accountId: string): ApiKeyRecord[];
  authenticate(secret: string, now: Date): { account: Account; key: ApiKeyRecord } | undefined;
  // credits (reserve throws contact_credits.exhausted / premium_credits.exhausted in mode exact)
  snapshot(accountId: string, now: Date): CreditSnapshot;
  reserve(req: ReserveRequest): Hold;
  /** Charges min(charged, amount) and returns the rest; a no-op returning the hold once it is settled. */
  commit(holdId: string, charged: number, now: Date): Hold;
  release(holdId: string, now: Date): Hold;
  getHold(holdId: string): Hold | undefined;
  /**
   * Releases holds no queued or running job owns: request-scoped holds of a process that died mid-request.
   * Called once at start-up, before the server accepts requests. Returns how many were released.
   */
  releaseOrphanHolds(now: Date): number;
  // feedback
  addFeedback(accountId: string, body: Record<string, unknown>, now: Date): Feedback;
  listFeedback(accountId: string): Feedback[];
  // saved domain lists (family B domain_list_id); every lookup is scoped to its account
  createDomainList(accountId: string, input: { name: string; domains: string[]; now: Date }): DomainList;
  getDomainList(accountId: string, id: string): DomainList | undefined;
  listDomainLists(accountId: string): DomainList[];
  // idempotency: claim a key for a request hash; finish stores the answer; abandon frees the key
  beginIdempotent(accountId: string, key: string, requestHash: string, now: Date): IdempotencyBegin;
  finishIdempotent(accountId: string, key: string, status: number, body: unknown): void;
  abandonIdempotent(accountId: string, key: string): void;
  // health
  ping(): boolean;
  close(): void;
}
