import type { Account, Plan } from '../../domain/account.js';
import type { CreditKind, Hold, UsageCategory } from '../../domain/credits.js';
import {
  type Budget,
  type BudgetScope,
  budgetsFor,
  contactExhausted,
  premiumExhausted,
} from '../../domain/quota/index.js';
import { lineOf, type UsageLine } from '../../domain/usage-lines.js';
import { type RedisKeys, USAGE_TTL_MS } from './keys.js';
import type { LuaReply } from './scripts/lua-values.js';

/**
 * A hold's Redis form: the request the hold scripts take (HOLD_LUA), the hash they write, and the 402 a refusal
 * becomes. The budgets are computed here, in JS, from the account read just before the script: accounts are never
 * deleted, and a plan change racing the script is the same as the hold landing just before the change (the hold
 * keeps its windows and counters either way, as in SQLite).
 */

export interface HoldAsk {
  account: Account;
  plan: Plan;
  holdId: string;
  kind: CreditKind;
  category: UsageCategory | null;
  amount: number;
  mode: 'exact' | 'up_to';
  now: Date;
  leaseUntil?: Date;
  /** A job's hold: below this grant the whole job is refused (with the 402 of an exact ask for the minimum). */
  minimum?: number;
  /** The job that owns the hold (releaseOrphanHolds keeps it while the job is queued or running). */
  jobId?: string;
  /** The usage chart's line (default lineOf(kind, category)). */
  line?: UsageLine;
}

export interface HoldPlan {
  ask: HoldAsk;
  budgets: Budget[];
  /** The request's JSON fields, without `expected` (the caller adds it). */
  lua: Record<string, unknown>;
  /** Every counter key the hold moves (declared as script KEYS). */
  counters: string[];
}

/** The budgets of the ask and, for each, its capped counter first and then the other scope's counter. */
export function planHold(k: RedisKeys, ask: HoldAsk): HoldPlan {
  const budgets = budgetsFor(ask.plan, ask.account.billingDay, ask.kind, ask.category, ask.now);
  // Every hold moves the plan-wide counter and, when it names one, its category's counter.
  const scopes: BudgetScope[] = ask.category ? ['*', ask.category] : ['*'];
  const counterOf = (b: Budget, scope: BudgetScope) => k.usage(ask.account.id, ask.kind, scope, b.window, b.start);
  const luaBudgets = budgets.map((b) => ({
    cap: b.cap,
    keys: [b.scope, ...scopes.filter((s) => s !== b.scope)].map((s) => counterOf(b, s)),
    // The counters' expiry (ms, as text so Lua passes it on as is), '0' for none: see USAGE_TTL_MS.
    ttl: String(USAGE_TTL_MS[b.window]),
  }));
  const counters = luaBudgets.flatMap((b) => b.keys);
  const lua: Record<string, unknown> = {
    id: ask.holdId,
    accountId: ask.account.id,
    kind: ask.kind,
    amount: ask.amount,
    exact: ask.mode === 'exact',
    createdAt: ask.now.toISOString(),
    counters: JSON.stringify(counters),
    budgets: luaBudgets,
    line: lineOf(ask.kind, ask.category, ask.line),
    daily: k.dailyUsagePrefix(ask.account.id),
    ...(ask.category ? { category: ask.category } : {}),
    ...(ask.minimum !== undefined ? { minimum: ask.minimum } : {}),
    ...(ask.jobId !== undefined ? { jobId: ask.jobId } : {}),
    ...(ask.leaseUntil ? { leaseUntil: ask.leaseUntil.toISOString(), leaseMs: String(ask.leaseUntil.getTime()) } : {}),
  };
  return { ask, budgets, lua, counters };
}

/** The hold as the script would write it with this grant (what a job's payload function is shown). */
export function heldHold(ask: HoldAsk, amount: number): Hold {
  return {
    id: ask.holdId,
    accountId: ask.account.id,
    kind: ask.kind,
    category: ask.category,
    amount,
    status: 'held',
    charged: 0,
    createdAt: ask.now.toISOString(),
    settledAt: null,
  };
}

export function toHold(h: Record<string, string>): Hold {
  return {
    id: h.id ?? '',
    accountId: h.accountId ?? '',
    kind: h.kind as CreditKind,
    category: (h.category ?? null) as UsageCategory | null,
    amount: Number(h.amount),
    status: h.status as Hold['status'],
    charged: Number(h.charged),
    createdAt: h.createdAt ?? '',
    settledAt: h.settledAt ?? null,
  };
}

/**
 * The 402 of a refusal answered by plan_hold, as the SQLite adapter raises it. 'short': an exact ask did not fit.
 * 'minimum': the grant was below the job's minimum; SQLite then asks for the minimum exactly on top of the grant it
 * already holds, so the room it reports is each budget's room less that grant.
 */
export function refusal(plan: HoldPlan, reply: LuaReply[], upgradeUrl: string): Error {
  const tag = reply[0];
  let required = plan.ask.amount;
  let remaining = numbers(reply[1]);
  if (tag === 'minimum') {
    const granted = Number(reply[1]);
    required = plan.ask.minimum ?? 0;
    remaining = numbers(reply[2]).map((r) => Math.max(0, r - granted));
  } else if (tag !== 'short') {
    return new Error(`unexpected hold script answer ${JSON.stringify(reply)}`);
  }
  const short = plan.budgets
    .map((budget, i) => ({ budget, remaining: remaining[i] ?? 0 }))
    .filter((s) => s.remaining < required);
  if (short.length === 0) return new Error(`hold script refused with room left: ${JSON.stringify(reply)}`);
  return plan.ask.kind === 'premium'
    ? premiumExhausted(short[0]!.budget, short[0]!.remaining, required, upgradeUrl)
    : contactExhausted(short, required);
}

function numbers(reply: LuaReply | undefined): number[] {
  return Array.isArray(reply) ? reply.map(Number) : [];
}
