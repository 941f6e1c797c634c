import type { Candidate } from '../../domain/enrichment/match.js';
import type { EnrichInput } from '../../domain/normalize/index.js';
import { type IRNode, or } from '../../domain/query/ir.js';
import { engineFor } from '../engine-for.js';
import type { OpContext } from '../types.js';

export const MATCH_COLUMNS = [
  'id',
  'work_email',
  'network_slug',
  'mobile_phone',
  'direct_phone',
  'last_updated',
  'company_domain',
];

/** One engine query fetching every stored contact any of the inputs could match. */
export async function lookupCandidates(
  ctx: OpContext,
  inputs: readonly EnrichInput[],
  columns: readonly string[],
): Promise<Candidate[]> {
  const emails = new Set<string>();
  const slugs = new Set<string>();
  const phones = new Set<string>();
  for (const i of inputs) {
    if (i.kind === 'email') emails.add(i.value);
    else if (i.kind === 'network') slugs.add(i.value);
    else if (i.kind === 'phone') phones.add(i.value);
  }
  const leaves: IRNode[] = [];
  if (emails.size) leaves.push({ field: 'work_email', op: 'in', value: [...emails] });
  if (slugs.size) leaves.push({ field: 'network_slug', op: 'in', value: [...slugs] });
  if (phones.size)
    leaves.push(
      { field: 'mobile_phone', op: 'in', value: [...phones] },
      { field: 'direct_phone', op: 'in', value: [...phones] },
    );
  if (leaves.length === 0) return [];
  const res = await engineFor(ctx).query('contact', or(...leaves), {
    page: {
      columns: [...new Set([...MATCH_COLUMNS, ...columns])],
      afterSortKey: null,
      limit: 5000,
      budgetMs: ctx.services.config.searchBudgetMs,
    },
  });
  return res.rows as Candidate[];
}
