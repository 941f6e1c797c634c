import * as v from 'valibot';
import type { Candidate } from '../../domain/enrichment/match.js';
import { AppError } from '../../domain/errors/index.js';
import {
  type EnrichInput,
  normalizeCompanyName,
  normalizeDomain,
  parseEmail,
  parseNetworkUrl,
} from '../../domain/normalize/index.js';
import { type IRNode, or } from '../../domain/query/ir.js';
import { withContactCredits } from '../credits.js';
import { engineFor } from '../engine-for.js';
import { lookupCandidates } from '../enrichment/lookup-candidates.js';
import { BATCH_MAX } from '../limits.js';
import * as out from '../outputs.js';
import { intParam } from '../schemas.js';
import { defineOperation, type OpContext } from '../types.js';
import { creditsRemaining } from './credits-remaining.js';

/** What the family B enrichments answer with; with the matching columns, all on the contact card. */
export const PERSON_FIELDS = [
  'first_name',
  'last_name',
  'work_email',
  'network',
  'name',
  'title',
  'company',
  'company_domain',
];

function checkBatch(items: readonly unknown[]): void {
  if (items.length > BATCH_MAX) {
    throw new AppError('request.invalid', `${items.length} items sent; a batch holds at most ${BATCH_MAX}.`, {
      field: 'items',
      hint: `Send at most ${BATCH_MAX} items per call; split larger lists.`,
    });
  }
}

const limitPerItem = v.optional(
  intParam(1, 10, 'Records per item (default 1, at most 10); extra records of a shared identifier come in `more`.'),
  1,
);

/** Charges one credit per successful item (all or nothing: 402 when the credits left cannot cover them). */
async function charge<T>(ctx: OpContext, successes: number, body: T): Promise<T & { creditsRemaining: number | null }> {
  const out =
    successes === 0
      ? body
      : await withContactCredits(
          ctx,
          'enrich',
          successes,
          async () => ({ result: body, delivered: successes }),
          'exact',
        );
  return { ...out, creditsRemaining: await creditsRemaining(ctx) };
}

function personData(c: Candidate) {
  return {
    email_address: (c.work_email as string | null) ?? null,
    person_network_url: (c.network as string | null) ?? null,
    first_name: (c.first_name as string | null) ?? null,
    last_name: (c.last_name as string | null) ?? null,
  };
}

/** Every stored record of one identifier, newest first (a shared email or slug has several). */
function recordsFor(input: EnrichInput, rows: readonly Candidate[]): Candidate[] {
  const hits = rows.filter((r) =>
    input.kind === 'email'
      ? r.work_email === input.value
      : input.kind === 'network'
        ? r.network_slug === input.value
        : false,
  );
  return hits.sort((a, b) =>
    a.last_updated < b.last_updated ? 1 : a.last_updated > b.last_updated ? -1 : a.id < b.id ? -1 : 1,
  );
}

/**
 * One identifier per item (a profile URL or an email) to the newest stored record that holds what is asked
 * for (`wants`: an email for from-network, a profile URL for from-email).
 */
async function identifierBatch(
  ctx: OpContext,
  raws: readonly string[],
  limitPerItem: number,
  read: (raw: string) => EnrichInput,
  wants: 'work_email' | 'network',
  invalidText: string,
  answer: (raw: string, best: Candidate | undefined) => Record<string, unknown>,
) {
  checkBatch(raws);
  const inputs = raws.map(read);
  const rows = await lookupCandidates(ctx, inputs, PERSON_FIELDS);
  let ok = 0;
  const results = raws.map((raw, i) => {
    const recs = recordsFor(inputs[i]!, rows).filter((r) => r[wants]);
    const best = recs[0];
    if (best) ok++;
    return {
      ...answer(raw, best),
      success: best !== undefined,
      data: best ? personData(best) : null,
      ...(recs.length > 1 && limitPerItem > 1 ? { more: recs.slice(1, limitPerItem).map(personData) } : {}),
      ...(inputs[i]!.kind === 'invalid' ? { error: invalidText } : {}),
    };
  });
  return charge(ctx, ok, { results });
}

export const enrichFromNetwork = defineOperation({
  name: 'b.enrich.from_network',
  family: 'B',
  method: 'POST',
  path: '/api/v1/enrich/from-network',
  auth: 'key',
  spends: true,
  summary: 'Emails from profile URLs (family B)',
  description:
    'Up to 100 items, each { network_url }: the work email of the stored person with that profile. `success` is ' +
    'true when the person is held with a work email; one contact credit per successful item. More than 100 items: ' +
    '400.',
  cost: 'one contact credit per successful item',
  output: out.obj({
    results: out.list(
      out.obj({ networkUrl: out.str, email: out.nullable(out.str), success: out.bool, data: out.nullable(out.record) }),
    ),
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    items: v.array(
      v.object({ network_url: v.pipe(v.string(), v.maxLength(500)) }),
      'must be an array of { network_url }',
    ),
    limit_per_item: limitPerItem,
  }),
  mcp: {
    tool: 'service_get_emails_from_network_batch',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const host = ctx.services.config.networkHost;
    const read = (raw: string): EnrichInput => {
      const u = parseNetworkUrl(raw, host);
      return u?.kind === 'person' ? { kind: 'network', value: u.slug } : { kind: 'invalid' };
    };
    const body = await identifierBatch(
      ctx,
      input.items.map((it) => it.network_url),
      input.limit_per_item,
      read,
      'work_email',
      'not a person profile URL',
      (raw, best) => ({
        networkUrl: raw,
        email: (best?.work_email as string | undefined) ?? null,
      }),
    );
    return { body };
  },
});

export const enrichFromEmail = defineOperation({
  name: 'b.enrich.from_email',
  family: 'B',
  method: 'POST',
  path: '/api/v1/enrich/from-email',
  auth: 'key',
  spends: true,
  summary: 'Profile URLs from emails (family B)',
  description:
    'Up to 100 items, each { email }: the profile URL and name of the stored person with that work email. `success` ' +
    'is true when the person is held with a profile URL; one contact credit per successful item. More than 100 ' +
    'items: 400.',
  cost: 'one contact credit per match',
  output: out.obj({
    results: out.list(
      out.obj({ email: out.str, networkUrl: out.nullable(out.str), success: out.bool, data: out.nullable(out.record) }),
    ),
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    items: v.array(v.object({ email: v.pipe(v.string(), v.maxLength(500)) }), 'must be an array of { email }'),
    limit_per_item: limitPerItem,
  }),
  mcp: {
    tool: 'service_get_network_urls_from_emails_batch',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const read = (raw: string): EnrichInput => {
      const e = parseEmail(raw);
      return e ? { kind: 'email', value: e } : { kind: 'invalid' };
    };
    const body = await identifierBatch(
      ctx,
      input.items.map((it) => it.email),
      input.limit_per_item,
      read,
      'network',
      'not an email address',
      (raw, best) => ({
        email: raw,
        networkUrl: (best?.network as string | undefined) ?? null,
      }),
    );
    return { body };
  },
});

/** The columns from-person reads for each employee of the items' companies. */
export const FROM_PERSON_COLUMNS = ['id', 'last_updated', 'company_name_norm', ...PERSON_FIELDS];

/**
 * from-person's candidates: every contact employed on one of the domains or at one of the normalized company
 * names (the names are matched on them afterwards). The index answers it; the page is read from the cards.
 */
export function employeesWhere(domains: readonly string[], names: readonly string[]): IRNode | null {
  const leaves: IRNode[] = [];
  if (domains.length) leaves.push({ field: 'company_domain', op: 'in', value: [...domains] });
  if (names.length) leaves.push({ field: 'company_name_norm', op: 'in', value: [...names] });
  return leaves.length ? or(...leaves) : null;
}

const fold = (s: unknown) =>
  typeof s === 'string' ? s.normalize('NFKD').replace(/\p{M}/gu, '').trim().toLowerCase() : '';

export const enrichFromPerson = defineOperation({
  name: 'b.enrich.from_person',
  family: 'B',
  method: 'POST',
  path: '/api/v1/enrich/from-person',
  auth: 'key',
  spends: true,
  summary: 'Enrich people by name and company (family B)',
  description:
    'Up to 100 items, each { first_name, last_name, company_name or company_domain }: names match case- and ' +
    'accent-insensitively; the company by normalized name or domain. `success` is true on a match; one contact ' +
    'credit per match. More than 100 items: 400.',
  cost: 'one contact credit per match',
  output: out.obj({
    results: out.list(out.obj({ input: out.record, success: out.bool, data: out.nullable(out.record) })),
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    items: v.array(
      v.object({
        first_name: v.pipe(v.string(), v.maxLength(200)),
        last_name: v.pipe(v.string(), v.maxLength(200)),
        company_name: v.optional(v.pipe(v.string(), v.maxLength(300))),
        company_domain: v.optional(v.pipe(v.string(), v.maxLength(300))),
      }),
      'must be an array of { first_name, last_name, company_name | company_domain }',
    ),
    limit_per_item: limitPerItem,
  }),
  mcp: {
    tool: 'service_enrich_person_batch',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    checkBatch(input.items);
    const keys = input.items.map((it) => ({
      domain: it.company_domain ? normalizeDomain(it.company_domain) : undefined,
      name: it.company_name ? normalizeCompanyName(it.company_name) || undefined : undefined,
    }));
    const domains = [...new Set(keys.map((k) => k.domain).filter((d): d is string => !!d))];
    const names = [...new Set(keys.map((k) => k.name).filter((d): d is string => !!d))];
    const where = employeesWhere(domains, names);
    const rows = where
      ? ((
          await engineFor(ctx).query('contact', where, {
            page: {
              columns: FROM_PERSON_COLUMNS,
              afterSortKey: null,
              limit: 20_000,
              budgetMs: ctx.services.config.searchBudgetMs,
            },
          })
        ).rows as Candidate[])
      : [];
    let ok = 0;
    const results = input.items.map((it, i) => {
      const k = keys[i]!;
      const recs = rows
        .filter(
          (r) =>
            (k.domain ? r.company_domain === k.domain : k.name ? r.company_name_norm === k.name : false) &&
            fold(r.first_name) === fold(it.first_name) &&
            fold(r.last_name) === fold(it.last_name),
        )
        .sort((a, b) => (a.last_updated < b.last_updated ? 1 : -1));
      const best = recs[0];
      if (best) ok++;
      return {
        input: it,
        success: best !== undefined,
        data: best
          ? {
              ...personData(best),
              title: best.title ?? null,
              company: best.company ?? null,
              company_domain: best.company_domain ?? null,
            }
          : null,
        ...(recs.length > 1 && input.limit_per_item > 1
          ? { more: recs.slice(1, input.limit_per_item).map(personData) }
          : {}),
        ...(!k.domain && !k.name ? { error: 'needs company_name or a company_domain containing a dot' } : {}),
      };
    });
    return { body: await charge(ctx, ok, { results }) };
  },
});
