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
  const networkHost = ctx.services.config.networkHost;
  // The parser looks saved lists up synchronously: a first pass names the ids the body uses, then those lists are
  // read and the body parsed again with them. Saved lists are the caller's own: another account's id is unknown.
  const named = new Set<string>();
  parseFamilyBFilters(body, {
    networkHost,
    domainLists: (id) => {
      named.add(id);
      return [];
    },
  });
  const lists = new Map<string, string[]>();
  for (const id of named) {
    const list = account ? await ctx.services.state.getDomainList(account.id, id) : undefined;
    if (list) lists.set(id, list.domains);
  }
  const parsed = parseFamilyBFilters(body, { networkHost, domainLists: (id) => lists.get(id) });
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
