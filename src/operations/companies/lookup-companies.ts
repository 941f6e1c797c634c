import * as v from 'valibot';
import { normalizeCompanyName, normalizeDomain, parseNetworkUrl } from '../../domain/normalize/index.js';
import { type IRNode, or } from '../../domain/query/ir.js';
import { resolveColumns, shapeRow } from '../contacts/columns.js';
import { columnsMember } from '../contacts/inputs.js';
import { withContactCredits } from '../credits.js';
import { engineFor } from '../engine-for.js';
import * as out from '../outputs.js';
import { defineOperation } from '../types.js';

type Key = { by: 'id' | 'domain' | 'network' | 'name'; value: string };

/** Reads one lookup input: a com_ id, a company profile URL, a domain or URL, else a company name. */
export function lookupKey(input: string, networkHost: string): Key | undefined {
  const s = input.trim();
  if (/^com_[A-Za-z0-9]+$/.test(s)) return { by: 'id', value: s };
  const url = parseNetworkUrl(s, networkHost);
  if (url) return url.kind === 'company' ? { by: 'network', value: url.slug } : undefined;
  if (!/\s/.test(s) && s.includes('.')) {
    const domain = normalizeDomain(s);
    if (domain) return { by: 'domain', value: domain };
  }
  const name = normalizeCompanyName(s);
  return name ? { by: 'name', value: name } : undefined;
}

const FIELD = { id: 'id', domain: 'domain', network: 'network_slug', name: 'name_norm' } as const;

export const lookupCompanies = defineOperation({
  name: 'companies.lookup',
  family: 'A',
  method: 'POST',
  path: '/v1/companies/lookup',
  auth: 'key',
  spends: true,
  summary: 'Look up companies',
  description:
    'Up to 100 inputs, each a domain (or website URL), company name, company profile URL or com_ id, answered in ' +
    'order with matched and company. A name shared by several companies matches the one with the most stored ' +
    'contacts. One contact credit per match (repeats included); misses are free; when the credits left cannot cover ' +
    'every match the call answers 402.',
  cost: 'one contact credit per match; miss free',
  output: out.list(out.obj({ input: out.str, matched: out.bool, company: out.nullable(out.row) })),
  errors: ['data.unavailable', 'query.timeout'],
  charges: 'contact',
  input: v.object({
    inputs: v.pipe(
      v.array(v.pipe(v.string(), v.maxLength(500))),
      v.minLength(1, 'must hold at least one input'),
      v.maxLength(100, 'must hold at most 100 inputs'),
    ),
    columns: v.optional(columnsMember),
  }),
  mcp: {
    tool: 'get_companies',
    annotations: { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false },
  },
  handler: async (ctx, input) => {
    const columns = resolveColumns('company', input.columns);
    const keys = input.inputs.map((s) => lookupKey(s, ctx.services.config.networkHost));
    const leaves: IRNode[] = [];
    for (const by of ['id', 'domain', 'network', 'name'] as const) {
      const values = [...new Set(keys.filter((k): k is Key => k?.by === by).map((k) => k.value))];
      if (values.length) leaves.push({ field: FIELD[by], op: 'in', value: values });
    }
    const fetch = [...new Set([...columns.map((c) => c.name), 'domain', 'network_slug', 'name_norm', 'contact_count'])];
    const rows = leaves.length
      ? (
          await engineFor(ctx).query('company', or(...leaves), {
            page: { columns: fetch, afterSortKey: null, limit: 10_000, budgetMs: ctx.services.config.searchBudgetMs },
          })
        ).rows
      : [];
    const index = new Map<string, Record<string, unknown>>();
    // Most contacts first, so a shared name resolves to the best-known company.
    for (const r of [...rows].sort((a, b) => Number(b.contact_count) - Number(a.contact_count))) {
      for (const by of ['id', 'domain', 'network', 'name'] as const) {
        const v = r[FIELD[by]];
        if (typeof v === 'string' && !index.has(`${by}:${v}`)) index.set(`${by}:${v}`, r);
      }
    }
    const results = input.inputs.map((raw, i) => {
      const k = keys[i];
      const row = k ? index.get(`${k.by}:${k.value}`) : undefined;
      return {
        input: raw,
        matched: row !== undefined,
        company: row ? shapeRow(row, columns) : null,
        ...(k ? {} : { reason: 'invalid' as const }),
      };
    });
    const matches = results.filter((r) => r.matched).length;
    if (matches === 0) return { data: results };
    return withContactCredits(
      ctx,
      'search',
      matches,
      async () => ({ result: { data: results }, delivered: matches }),
      'exact',
      'lookups',
    );
  },
});
