import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import type { Account, Plan } from '../domain/account.js';
import { AppError } from '../domain/errors/index.js';

/** Where `premium_credits.exhausted` sends the user to buy more (both state adapters). */
export const DEFAULT_UPGRADE_URL = 'https://contact-data-service.local/billing';

/** File in the data dir where operators override plans by slug or add new ones. */
export const PLANS_FILE = 'plans.json';

/** Unlimited plans' fair use: the same daily and monthly row budget for each of search, export, enrich. */
const FAIR_USE = { daily: 50_000, monthly: 1_000_000 };

export const DEFAULT_PLANS: readonly Plan[] = [
  {
    slug: 'free',
    name: 'Free',
    contact: { kind: 'pool', pool: 100 },
    premiumMonthly: 0,
    alerts: false,
    maxActiveAlerts: 0,
  },
  {
    slug: 'starter',
    name: 'Starter',
    contact: { kind: 'windows', daily: 1_000, monthly: 10_000 },
    premiumMonthly: 1_000,
    alerts: true,
    maxActiveAlerts: 100,
  },
  {
    slug: 'pro',
    name: 'Pro',
    contact: { kind: 'windows', daily: 10_000, monthly: 100_000 },
    premiumMonthly: 10_000,
    alerts: true,
    maxActiveAlerts: 100,
  },
  {
    slug: 'unlimited',
    name: 'Unlimited',
    contact: {
      kind: 'unlimited',
      fairUse: { search: { ...FAIR_USE }, export: { ...FAIR_USE }, enrich: { ...FAIR_USE } },
    },
    premiumMonthly: 50_000,
    alerts: true,
    maxActiveAlerts: 100,
  },
];

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Caps = v.strictObject({ daily: Count, monthly: Count });
const Contact = v.variant('kind', [
  v.strictObject({ kind: v.literal('pool'), pool: Count }),
  v.strictObject({ kind: v.literal('windows'), daily: Count, monthly: Count }),
  v.strictObject({
    kind: v.literal('unlimited'),
    fairUse: v.strictObject({ search: Caps, export: Caps, enrich: Caps }),
  }),
]);
const Slug = v.pipe(
  v.string(),
  v.regex(/^[a-z][a-z0-9_-]{0,39}$/, 'a plan slug is lowercase letters, digits, - and _'),
);
const Fields = {
  name: v.pipe(v.string(), v.minLength(1)),
  contact: Contact,
  premiumMonthly: Count,
  alerts: v.boolean(),
  maxActiveAlerts: Count,
};
/** An entry overrides any subset of a default plan's fields (`contact` as a whole) or defines a new plan. */
const PlansFile = v.record(Slug, v.strictObject({ ...mapOptional(Fields) }));
const FullPlan = v.strictObject({ slug: Slug, ...Fields });

/**
 * Applies a plans file's content to `base`. Format: an object keyed by slug, e.g.
 * `{ "starter": { "contact": { "kind": "windows", "daily": 2000, "monthly": 20000 } },
 *    "team": { "name": "Team", "contact": {...}, "premiumMonthly": 5000, "alerts": true, "maxActiveAlerts": 100 } }`.
 * A new slug must give every field. Throws an Error naming `source` and the offending path.
 */
export function applyPlanOverrides(base: readonly Plan[], content: unknown, source: string): Plan[] {
  const parsed = v.safeParse(PlansFile, content);
  if (!parsed.success) throw new Error(`${source}: ${v.summarize(parsed.issues)}`);
  const plans = new Map(base.map((p) => [p.slug, p]));
  for (const [slug, override] of Object.entries(parsed.output)) {
    const merged = v.safeParse(FullPlan, { ...plans.get(slug), ...override, slug });
    if (!merged.success)
      throw new Error(
        `${source}: plan "${slug}" ${plans.has(slug) ? 'is invalid' : 'is new and needs every field'}: ` +
          `${v.summarize(merged.issues)}`,
      );
    plans.set(slug, merged.output);
  }
  return [...plans.values()];
}

/** The default plans with `<dataDir>/plans.json` applied, when that file exists. */
export function loadPlans(dataDir: string, base: readonly Plan[] = DEFAULT_PLANS): Plan[] {
  const file = join(dataDir, PLANS_FILE);
  if (!existsSync(file)) return [...base];
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
  }
  return applyPlanOverrides(base, content, file);
}

/** Plans by slug, as a store holds them. */
export class PlanBook {
  private readonly bySlug: ReadonlyMap<string, Plan>;
  constructor(plans: readonly Plan[]) {
    const map = new Map<string, Plan>();
    for (const p of plans) {
      if (map.has(p.slug)) throw new Error(`plan "${p.slug}" is defined twice`);
      map.set(p.slug, p);
    }
    this.bySlug = map;
  }
  list(): Plan[] {
    return [...this.bySlug.values()];
  }
  get(slug: string): Plan | undefined {
    return this.bySlug.get(slug);
  }
  slugs(): string[] {
    return [...this.bySlug.keys()];
  }

  /** The account's plan; a plan removed from plans.json after accounts used it is an operator error. */
  planOf(account: Account): Plan {
    const plan = this.get(account.plan);
    if (!plan)
      throw new Error(`account ${account.id} is on plan "${account.plan}", which is not defined (check plans.json)`);
    return plan;
  }

  /**
   * Checks an account's plan and billing day as a client sent them (both state adapters, on create and change):
   * 400 request.invalid naming the field.
   */
  checkAccountInput(input: { plan: string; billingDay: number | null }): void {
    if (!this.get(input.plan)) {
      throw new AppError('request.invalid', `Unknown plan ${JSON.stringify(input.plan)}.`, {
        field: 'plan',
        hint: `Plans: ${this.slugs().join(', ')}.`,
      });
    }
    const day = input.billingDay;
    if (day !== null && !(Number.isInteger(day) && day >= 1 && day <= 28)) {
      // Capped at 28 so every month has the billing day and billing months never drift.
      throw new AppError(
        'request.invalid',
        'The billing day is a whole number from 1 to 28, or null for the calendar month.',
        { field: 'billing_day' },
      );
    }
  }
}

function mapOptional<T extends Record<string, v.GenericSchema>>(
  fields: T,
): { [K in keyof T]: v.OptionalSchema<T[K], undefined> } {
  return Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, v.optional(s)])) as {
    [K in keyof T]: v.OptionalSchema<T[K], undefined>;
  };
}
