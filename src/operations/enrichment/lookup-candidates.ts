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

/** The columns a candidate query reads: what matching needs plus what the caller answers with. */
export function candidateColumns(columns: readonly string[]): string[] {
  return [...new Set([...MATCH_COLUMNS, ...columns])];
}

/**
 * The filter of a candidate query: an OR of `in` leaves on lookup columns (a point read), or null when no input
 * is an identifier.
 */
export function candidatesWhere(inputs: readonly EnrichInput[]): IRNode | null {
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
  return leaves.length === 0 ? null : or(...leaves);
}

/** One engine query fetching every stored contact any of the inputs could match. */
export async function lookupCandidates(
  ctx: OpContext,
  inputs: readonly EnrichInput[],
  columns: readonly string[],
): Promise<Candidate[]> {
  const where = candidatesWhere(inputs);
  if (!where) return [];
  const res = await engineFor(ctx).query('contact', where, {
    page: {
      columns: candidateColumns(columns),
      afterSortKey: null,
      limit: 5000,
      budgetMs: ctx.services.config.searchBudgetMs,
    },
  });
  return res.rows as Candidate[];
}
