import * as v from 'valibot';
import { matchInput } from '../../domain/enrichment/match.js';
import { AppError } from '../../domain/errors/index.js';
import { classifyEnrichInput, normalizeDomain } from '../../domain/normalize/index.js';
import { resolveColumns, shapeRow } from '../contacts/columns.js';
import { columnsMember } from '../contacts/inputs.js';
import { withContactCredits } from '../credits.js';
import * as out from '../outputs.js';
import { defineOperation, type Warning } from '../types.js';
import { lookupCandidates } from './lookup-candidates.js';

export const ENRICH_MAX_INPUTS = 100;

export const enrichContacts = defineOperation({
  name: 'enrichments.create',
  family: 'A',
  method: 'POST',
  path: '/v1/enrichments',
  auth: 'key',
  spends: true,
  summary: 'Enrich contacts',
  description:
    'Matches up to 100 work emails, phone numbers or profile URLs to stored contacts, answering one result per ' +
    'input in order. Emails are lowercased (mailto: and "Name <email>" accepted), profile URLs reduce to their slug,' +
    ' phones match mobile or direct phones. company_domain keeps only matches employed on that domain. One contact ' +
    'credit per matched input, repeats included; misses, invalid, ambiguous and off-domain inputs are free; when ' +
    'the credits left cannot cover every match the call answers 402.',
  cost: 'one contact credit per match; miss free',
  output: out.list(out.obj({ input: out.str, matched: out.bool, contact: out.nullable(out.contactRow) })),
  errors: ['enrich.mode_unavailable', 'enrich.too_many_inputs', 'data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    inputs: v.pipe(
      v.array(v.string('each input must be a string'), 'must be an array of strings'),
      v.minLength(1, 'must hold at least one input'),
      v.maxLength(10_000, 'is far too long'),
    ),
    company_domain: v.optional(v.pipe(v.string(), v.maxLength(300))),
    mode: v.optional(v.picklist(['stored', 'refresh'], 'must be stored or refresh'), 'stored'),
    columns: v.optional(columnsMember),
  }),
  mcp: {
    tool: 'enrich_contact',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    if (input.inputs.length > ENRICH_MAX_INPUTS) {
      throw new AppError(
        'enrich.too_many_inputs',
        `${input.inputs.length} inputs sent; at most ${ENRICH_MAX_INPUTS} per call.`,
        { field: 'inputs', hint: 'Send at most 100 inputs per call; split larger lists.' },
      );
    }
    if (input.mode === 'refresh') {
      throw new AppError('enrich.mode_unavailable', 'Only mode "stored" is available.', {
        field: 'mode',
        hint: 'Send mode "stored" or leave it out.',
      });
    }
    let domain: string | null = null;
    if (input.company_domain !== undefined) {
      domain = input.company_domain.includes('.') ? (normalizeDomain(input.company_domain) ?? null) : null;
      if (!domain)
        throw new AppError(
          'request.invalid',
          'company_domain must be a bare domain containing a dot, such as acme.com.',
          { field: 'company_domain', hint: 'To find people by company name, search with filter.company_names.' },
        );
    }
    const columns = resolveColumns('contact', input.columns);
    const host = ctx.services.config.networkHost;
    const classified = input.inputs.map((s) => classifyEnrichInput(s, host));
    const candidates = await lookupCandidates(
      ctx,
      classified,
      columns.map((c) => c.name),
    );

    const dupEmail: string[] = [];
    const dupNetwork: string[] = [];
    const offDomain: string[] = [];
    const results = input.inputs.map((raw, i) => {
      const m = matchInput(classified[i]!, candidates, domain);
      if (m.kind === 'match') {
        if (m.duplicate === 'work_email') dupEmail.push(raw);
        if (m.duplicate === 'network') dupNetwork.push(raw);
        return { input: raw, matched: true, off_domain: false, contact: shapeRow(m.contact, columns) };
      }
      if (m.kind === 'off_domain') offDomain.push(raw);
      return {
        input: raw,
        matched: false,
        off_domain: m.kind === 'off_domain',
        contact: null,
        ...(m.kind === 'invalid' || m.kind === 'ambiguous' ? { reason: m.kind } : {}),
      };
    });

    const warnings: Warning[] = [];
    if (dupEmail.length)
      warnings.push({
        code: 'duplicate_work_email',
        message: 'Several contacts share a work email; the one with the later last_updated was returned.',
        keys_applied: dupEmail,
        hint: 'Match on the profile URL to pick a specific person.',
      });
    if (dupNetwork.length)
      warnings.push({
        code: 'duplicate_network',
        message: 'Several contacts share a profile URL; the one with the later last_updated was returned.',
        keys_applied: dupNetwork,
        hint: 'Match on the work email to pick a specific person.',
      });
    if (offDomain.length)
      warnings.push({
        code: 'off_domain',
        message: `${offDomain.length} input(s) are held at another employer than ${domain}; not charged.`,
        keys_applied: offDomain,
        hint: 'Leave out company_domain to get these contacts at their current employer.',
      });

    const matches = results.filter((r) => r.matched).length;
    if (matches === 0) return { data: results, warnings };
    return withContactCredits(
      ctx,
      'enrich',
      matches,
      async () => ({ result: { data: results, warnings }, delivered: matches }),
      'exact',
    );
  },
});
