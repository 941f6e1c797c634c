import { parseFamilyBFilters } from '../../domain/family-b/index.js';
import { and, type IRNode, isLeaf } from '../../domain/query/ir.js';
import type { OpContext } from '../types.js';
import type { FamilyBFilterInput } from './input-schema.js';

export interface FamilyBQuery {
  ir: IRNode;
  keysApplied: string[];
}

/** Flat filters (nested `filters` or top level) AND `where_sql`, parsed into the one Query IR. */
export async function familyBQuery(ctx: OpContext, body: FamilyBFilterInput): Promise<FamilyBQuery> {
  const account = ctx.account;
  const parsed = parseFamilyBFilters(body, {
    networkHost: ctx.services.config.networkHost,
    // Saved lists are the caller's own: another account's list id is unknown here.
    domainLists: (id) => (account ? ctx.services.state.getDomainList(account.id, id)?.domains : undefined),
  });
  const whereSql = body.where_sql;
  if (whereSql === undefined || whereSql === null || whereSql === '') return parsed;
  const tree = await ctx.services.whereSqlParser.parse(whereSql);
  return { ir: and(parsed.ir, tree), keysApplied: [...parsed.keysApplied, 'where_sql'] };
}

/** Public columns a query reads, in first-seen order (family B adds them to the default output set). */
export function fieldsOf(node: IRNode, out: string[] = []): string[] {
  if (isLeaf(node)) {
    if (!out.includes(node.field)) out.push(node.field);
  } else {
    for (const child of 'and' in node ? node.and : 'or' in node ? node.or : [node.not]) fieldsOf(child, out);
  }
  return out;
}
