import type { Entity } from '../../domain/catalog/index.js';
import type { QueryRequest, QueryResult } from '../port.js';
import { type Bitset, countBits, setRowsFrom } from './bitmap-index/bitset.js';
import { rowsByKeyQuery } from './compile/select.js';
import type { ReleaseSession } from './open-release.js';

/**
 * A count and/or page answered from the release's bitmap index: the filter's rows as one bitset (its bit order is
 * the stable sort_key order), the count its population, a page its next set bits after the cursor, read by key
 * from the point store's cards (contacts, card columns) or from the release's columns.
 */
export async function indexedQuery(
  session: ReleaseSession,
  entity: Entity,
  bits: Bitset,
  req: QueryRequest,
): Promise<QueryResult> {
  const count = req.countBudgetMs === undefined ? null : countBits(bits);
  let rows: Record<string, unknown>[] = [];
  if (req.page) {
    const { columns, afterSortKey, limit, budgetMs, offset } = req.page;
    // Rows after sort_key k start at bit k (sort_key = bit + 1).
    const from = afterSortKey === null ? 0 : Math.max(0, Math.floor(afterSortKey));
    const keys = setRowsFrom(bits, from, offset ?? 0, limit).map((r) => r + 1);
    if (keys.length > 0) {
      const cards = entity === 'contact' ? await session.cards(keys, columns) : null;
      if (cards) rows = cards;
      else {
        const q = rowsByKeyQuery(entity, keys, columns);
        rows = await session.run(q.sql, q.params, { budgetMs, ...(req.tenant ? { tenant: req.tenant } : {}) });
      }
    }
  }
  return { releaseId: session.info.id, count, countTimedOut: false, rows };
}
