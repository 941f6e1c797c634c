/**
 * Accounts, their plans, their API keys and their credit snapshot: the records every operation and adapter speaks of.
 * The state store
 * keeps them (src/state/port.ts); nothing here knows how.
 */

import type { UsageCategory, WindowUsage } from './credits.js';

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

/** An account's credits now: its plan, and the usage of every window that applies. */
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
