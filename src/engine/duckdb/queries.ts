import type { Entity } from '../../domain/catalog/index.js';
import { isAppError } from '../../domain/errors/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import type { QueryRequest, QueryResult } from '../port.js';
import { countQuery, pageQuery } from './compile/select.js';
import type { ReleaseSession } from './open-release.js';

/**
 * Count and page on one pinned release, concurrently on two pooled connections. A count past its budget
 * becomes null (the caller warns `count_unavailable`); a page past its budget throws query.timeout.
 */
export async function runQuery(session: ReleaseSession, releaseId: string, entity: Entity, where: IRNode, req: QueryRequest): Promise<QueryResult> {
  const counting =
    req.countBudgetMs === undefined
      ? Promise.resolve({ count: null as number | null, timedOut: false })
      : (async () => {
          const q = countQuery(entity, where);
          try {
            const rows = await session.run(q.sql, q.params, { budgetMs: req.countBudgetMs });
            return { count: Number(rows[0]!.n), timedOut: false };
          } catch (e) {
            if (isAppError(e) && e.code === 'query.timeout') return { count: null, timedOut: true };
            throw e;
          }
        })();
  const paging = req.page
    ? (async () => {
        const { columns, afterSortKey, limit, budgetMs, offset } = req.page!;
        const q = pageQuery(entity, where, columns, afterSortKey, limit, offset ?? 0);
        return session.run(q.sql, q.params, { budgetMs });
      })()
    : Promise.resolve([] as Record<string, unknown>[]);
  const [c, rows] = await Promise.all([counting, paging]);
  return { releaseId, count: c.count, countTimedOut: c.timedOut, rows };
}
