import * as v from 'valibot';
import { type Candidate, matchInput } from '../../domain/enrichment/match.js';
import { AppError } from '../../domain/errors/index.js';
import {
  type EnrichInput,
  emailDomain,
  normalizeDomain,
  normalizePhone,
  parseEmail,
} from '../../domain/normalize/index.js';
import { and, type IRNode } from '../../domain/query/ir.js';
import { resolveColumns, shapeRow } from '../contacts/columns.js';
import { withContactCredits } from '../credits.js';
import { engineFor } from '../engine-for.js';
import { lookupCandidates } from '../enrichment/lookup-candidates.js';
import { BATCH_MAX, rowsPerCall } from '../limits.js';
import * as out from '../outputs.js';
import { intParam, text } from '../schemas.js';
import { defineOperation, type OpContext } from '../types.js';
import { creditsRemaining } from './credits-remaining.js';

const columns = () => resolveColumns('contact', undefined);

function phoneResult(_ctx: OpContext, raw: string, rows: readonly Candidate[]) {
  const phone = normalizePhone(raw);
  const input: EnrichInput = phone ? { kind: 'phone', value: phone } : { kind: 'invalid' };
  const m = matchInput(input, rows, null);
  return {
    phone: raw,
    success: m.kind === 'match',
    contact: m.kind === 'match' ? shapeRow(m.contact, columns()) : null,
    ...(m.kind === 'ambiguous'
      ? { reason: 'ambiguous', note: 'Several contacts share this number; not charged.' }
      : m.kind === 'invalid'
        ? { reason: 'invalid' }
        : {}),
  };
}

async function phones(ctx: OpContext, raws: readonly string[]) {
  const inputs: EnrichInput[] = raws.map((r) => {
    const p = normalizePhone(r);
    return p ? { kind: 'phone', value: p } : { kind: 'invalid' };
  });
  const rows = await lookupCandidates(
    ctx,
    inputs,
    columns().map((c) => c.name),
  );
  const results = raws.map((r) => phoneResult(ctx, r, rows));
  const ok = results.filter((r) => r.success).length;
  const body =
    ok === 0
      ? { results }
      : await withContactCredits(
          ctx,
          'enrich',
          ok,
          async () => ({ result: { results }, delivered: ok }),
          'exact',
          'lookups',
        );
  return { ...body, creditsRemaining: await creditsRemaining(ctx) };
}

export const lookupPhone = defineOperation({
  name: 'b.lookup.phone',
  family: 'B',
  method: 'GET',
  path: '/api/v1/contacts/lookup/phone',
  auth: 'key',
  spends: true,
  summary: 'Contact by phone (family B)',
  description:
    'The stored contact whose mobile or direct phone is this number (any common format; E.164 best). A number ' +
    'shared by several contacts is ambiguous and free. One contact credit on a match.',
  cost: 'one contact credit on a match',
  output: out.obj({
    phone: out.str,
    success: out.bool,
    contact: out.nullable(out.contactRow),
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({ phone: text('Phone number.', 64) }),
  mcp: {
    tool: 'service_lookup_contact_by_phone',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const out = await phones(ctx, [input.phone]);
    return { body: { ...out.results[0]!, creditsRemaining: out.creditsRemaining } };
  },
});

export const lookupPhonesBatch = defineOperation({
  name: 'b.lookup.phones',
  family: 'B',
  method: 'POST',
  path: '/api/v1/contacts/from-phone',
  auth: 'key',
  spends: true,
  summary: 'Contacts by phone, batch (family B)',
  description:
    'Up to 100 phone numbers in `phones`, answered in order. One contact credit per match; misses and ambiguous ' +
    'numbers are free. More than 100: 400.',
  cost: 'one contact credit per match; misses free',
  output: out.obj({
    results: out.list(out.obj({ phone: out.str, success: out.bool, contact: out.nullable(out.contactRow) })),
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({ phones: v.array(v.pipe(v.string(), v.maxLength(64)), 'must be an array of phone numbers') }),
  mcp: {
    tool: 'service_lookup_contacts_by_phone_batch',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    if (input.phones.length > BATCH_MAX)
      throw new AppError('request.invalid', `${input.phones.length} phones sent; a batch holds at most ${BATCH_MAX}.`, {
        field: 'phones',
        hint: `Send at most ${BATCH_MAX} per call.`,
      });
    return { body: await phones(ctx, input.phones) };
  },
});

/** One page of contacts matching `where` (offset paging), cut to the credits left; one credit per contact. */
async function listPage(ctx: OpContext, where: IRNode, limit: number, offset: number) {
  const cols = columns();
  return withContactCredits(
    ctx,
    'search',
    limit,
    async (granted) => {
      const res = await engineFor(ctx).query('contact', where, {
        countBudgetMs: ctx.services.config.countBudgetMs,
        page: {
          columns: cols.map((c) => c.name),
          afterSortKey: null,
          offset,
          limit: granted + 1,
          budgetMs: ctx.services.config.searchBudgetMs,
        },
      });
      const more = res.rows.length > granted;
      const rows = res.rows.slice(0, granted);
      return {
        result: {
          contacts: rows.map((r) => shapeRow(r, cols)),
          total: res.count,
          limit,
          offset,
          returned: rows.length,
          has_more: more,
          next_offset: more ? offset + rows.length : null,
        },
        delivered: rows.length,
      };
    },
    'up_to',
    'lookups',
  );
}

export const lookupColleagues = defineOperation({
  name: 'b.lookup.colleagues',
  family: 'B',
  method: 'POST',
  path: '/api/v1/contacts/lookup/colleagues',
  auth: 'key',
  spends: true,
  summary: 'Colleagues (family B)',
  description:
    'Contacts at the same company as a work email (the person is left out) or at a company domain. 100 per page by ' +
    'default, up to 5,000 per REST call (100 per MCP call); offset paging. One contact credit per returned contact.',
  cost: 'one contact credit per returned contact',
  output: out.obj({
    contacts: out.list(out.contactRow),
    total: out.num,
    ...out.offsetPage,
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    work_email: v.optional(text('A work email; its domain names the company.', 320)),
    company_domain: v.optional(text('A company domain or website URL.', 300)),
    limit: v.optional(intParam(1, 5000, 'Contacts per page (default 100, at most 5,000; 100 over MCP).'), 100),
    offset: v.optional(intParam(0, 1_000_000, 'Rows to skip; use next_offset.'), 0),
  }),
  mcp: {
    tool: 'service_lookup_colleagues',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const email = input.work_email ? parseEmail(input.work_email) : undefined;
    const domain = input.company_domain
      ? normalizeDomain(input.company_domain)
      : email
        ? emailDomain(email)
        : undefined;
    if (!domain)
      throw new AppError('request.invalid', 'Send a work_email or a company_domain.', {
        field: input.work_email ? 'work_email' : 'company_domain',
        hint: 'For example {"company_domain": "acme.com"}.',
      });
    const parts: IRNode[] = [{ field: 'company_domain', op: 'eq', value: domain }];
    if (email) parts.push({ not: { field: 'work_email', op: 'eq', value: email } });
    const limit = rowsPerCall(ctx.face, input.limit);
    const page = await listPage(ctx, and(...parts), limit, input.offset);
    return { body: { company_domain: domain, ...page, creditsRemaining: await creditsRemaining(ctx) } };
  },
});

export const DECISION_SENIORITIES = ['c_level', 'founder_or_partner', 'vp', 'director'];

export const lookupDecisionMakers = defineOperation({
  name: 'b.lookup.decision_makers',
  family: 'B',
  method: 'POST',
  path: '/api/v1/contacts/lookup/decision-makers',
  auth: 'key',
  spends: true,
  summary: 'Decision makers (family B)',
  description:
    'Executives, founders, VPs, directors and head-of roles with a VALID work email at one or more company domains. ' +
    'Up to 100 per MCP call (REST: up to 1,000); offset paging. One contact credit per returned contact.',
  cost: 'one contact credit per returned contact',
  output: out.obj({
    contacts: out.list(out.contactRow),
    total: out.num,
    ...out.offsetPage,
    creditsRemaining: out.creditsRemaining,
  }),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    company_domains: v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(300))),
      v.minLength(1, 'must hold at least one domain'),
      v.maxLength(100, 'must hold at most 100 domains'),
    ),
    limit: v.optional(intParam(1, 1000, 'Contacts per page (default 100; at most 100 over MCP).'), 100),
    offset: v.optional(intParam(0, 1_000_000, 'Rows to skip; use next_offset.'), 0),
  }),
  mcp: {
    tool: 'lookup_decision_makers',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const domains = input.company_domains.map((d, i) => {
      const n = normalizeDomain(d);
      if (!n)
        throw new AppError('request.invalid', `${JSON.stringify(d)} is not a domain.`, {
          field: `company_domains[${i}]`,
          hint: 'Send bare domains such as acme.com.',
        });
      return n;
    });
    const where = and(
      { field: 'company_domain', op: 'in', value: domains },
      { field: 'email_status', op: 'eq', value: 'valid' },
      {
        or: [
          { field: 'seniority', op: 'in', value: DECISION_SENIORITIES },
          { field: 'title', op: 'words', value: 'head of' },
        ],
      },
    );
    const limit = rowsPerCall(ctx.face, input.limit);
    const page = await listPage(ctx, where, limit, input.offset);
    return { body: { company_domains: domains, ...page, creditsRemaining: await creditsRemaining(ctx) } };
  },
});
