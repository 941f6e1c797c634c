import type { Entity } from '../../domain/catalog/index.js';
import type { QueryRequest, QueryResult } from '../port.js';
import { countBits, setRows, setRowsFrom } from './bitmap-index/bitset.js';
import type { Verify } from './bitmap-index/plan.js';
import type { CachedRows } from './bitmap-index/result-cache.js';
import { rowsByKeyQuery, verifyQuery } from './compile/select.js';
import type { ReleaseSession } from './open-release.js';

/**
 * A count and/or page answered from the release's bitmap index: the filter's rows (a bitset, whose bit order is the
 * stable sort_key order, or their sorted ids), the count their number, a page the next rows after the cursor, read
 * by key from the point store's cards (contacts, card columns) or from the release's columns.
 */
export async function indexedQuery(
  session: ReleaseSession,
  entity: Entity,
  matched: CachedRows,
  req: QueryRequest,
): Promise<QueryResult> {
  const count = req.countBudgetMs === undefined ? null : matched.count;
  let rows: Record<string, unknown>[] = [];
  if (req.page) {
    const { columns, afterSortKey, limit, budgetMs, offset } = req.page;
    // Rows after sort_key k start at bit k (sort_key = bit + 1).
    const from = afterSortKey === null ? 0 : Math.max(0, Math.floor(afterSortKey));
    const keys = matched.rowsFrom(from, offset ?? 0, limit).map((r) => r + 1);
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

/** Candidates of one leaf checked by the release's columns at most this many at a time; more go to the scan. */
const VERIFY_MAX = 50_000;

/** The index's verifier for one query: the leaf compiled to SQL over the candidates' rows, on the query's budget. */
export function verifier(session: ReleaseSession, entity: Entity, req: QueryRequest): Verify {
  return async (leaf, candidates) => {
    const n = countBits(candidates);
    if (n > VERIFY_MAX) return null;
    if (n === 0) return candidates;
    const q = verifyQuery(
      entity,
      leaf,
      setRowsFrom(candidates, 0, 0, n).map((r) => r + 1),
    );
    const budgetMs = req.countBudgetMs ?? req.page?.budgetMs;
    const rows = await session.run(q.sql, q.params, {
      ...(budgetMs === undefined ? {} : { budgetMs }),
      ...(req.tenant ? { tenant: req.tenant } : {}),
    });
    // Same size as the candidates' bitset (the release's rows).
    const exact = new Int32Array(candidates.length);
    setRows(
      exact,
      Uint32Array.from(rows, (r) => Number(r.sort_key) - 1),
    );
    return exact;
  };
}
