import type { Entity } from '../../domain/catalog/index.js';
import { isAppError } from '../../domain/errors/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import type { QueryRequest, QueryResult } from '../port.js';
import { countRequest, pageRequest, visibleQuery } from './compile/select.js';
import { budgetOptions, clusterCall, timedOut } from './errors.js';
import { MAX_RESULT_WINDOW } from './mappings.js';
import { rowOf } from './rows.js';
import type { ClusterSession } from './session.js';
import { type ClusterSuppressed, CONTACT_COUNT, cutCompanyRows, cutRewrite } from './suppression.js';

/** The query of a read on an entity, with the suppression's rows left out and its cut counts applied. */
export function readQuery(entity: Entity, where: IRNode, sup: ClusterSuppressed | null) {
  return visibleQuery(entity, where, entity === 'contact' && sup ? sup.hidden : null, cutRewrite(entity, sup));
}

/** The exact count of a query within a budget; null past it. `sup` is the suppression the read pinned. */
export async function countWithin(
  s: ClusterSession,
  entity: Entity,
  where: IRNode,
  budgetMs: number,
  sup: ClusterSuppressed | null = s.suppression(),
): Promise<{ count: number | null; timedOut: boolean }> {
  const q = readQuery(entity, where, sup);
  try {
    const r = await clusterCall(() =>
      s.client.search(countRequest(s.indices[entity], q, budgetMs), budgetOptions(budgetMs)),
    );
    if (r.timed_out) return { count: null, timedOut: true };
    const total = r.hits.total;
    return { count: typeof total === 'number' ? total : (total?.value ?? 0), timedOut: false };
  } catch (e) {
    if (isAppError(e) && e.code === 'query.timeout') return { count: null, timedOut: true };
    throw e;
  }
}

/**
 * Count and page on one pinned release. A count past its budget is null (the caller warns `count_unavailable`); a
 * page past its budget is query.timeout; the count and the page are two requests sent together.
 */
export async function runQuery(
  s: ClusterSession,
  entity: Entity,
  where: IRNode,
  req: QueryRequest,
): Promise<QueryResult> {
  const sup = s.suppression();
  const releaseId = s.info.id;
  const page = async (): Promise<Record<string, unknown>[]> => {
    const { columns, afterSortKey, limit, budgetMs, offset } = req.page!;
    // Company rows carry their id when contact_count is asked, so a cut count can be applied.
    const wanted =
      entity === 'company' && sup?.companies && columns.includes(CONTACT_COUNT) ? [...columns, 'id'] : columns;
    const query = readQuery(entity, where, sup);
    // An offset past the index's result window (the lookups page up to 1,000,000 rows deep) is walked with
    // search_after, sort keys only, and the page read after it: the same rows, no window error.
    let after = afterSortKey;
    let skip = offset ?? 0;
    if (skip + limit > MAX_RESULT_WINDOW) {
      const stepped = await stepPast(s, s.indices[entity], query, after, skip, budgetMs);
      if (stepped === null) return [];
      [after, skip] = [stepped, 0];
    }
    const body = pageRequest(s.indices[entity], query, wanted, after, limit, skip, budgetMs);
    const r = await clusterCall(() => s.client.search<Record<string, unknown>>(body, budgetOptions(budgetMs)));
    if (r.timed_out) throw timedOut();
    const rows = r.hits.hits.map((h) => rowOf(h, wanted));
    if (entity === 'company') cutCompanyRows(rows, sup);
    if (wanted !== columns) for (const row of rows) if (!columns.includes('id')) delete row.id;
    return rows;
  };
  if (!req.page) {
    const c =
      req.countBudgetMs === undefined
        ? { count: null, timedOut: false }
        : await countWithin(s, entity, where, req.countBudgetMs, sup);
    return { releaseId, count: c.count, countTimedOut: c.timedOut, rows: [] };
  }
  if (req.countBudgetMs === undefined) return { releaseId, count: null, countTimedOut: false, rows: await page() };
  // The count and the page are sent together (the cluster answers them on its own threads). A first page that is
  // not full is its own count, whatever the count request answered.
  const [c, rows] = await Promise.all([countWithin(s, entity, where, req.countBudgetMs, sup), page()]);
  if (req.page.afterSortKey === null && !req.page.offset && rows.length < req.page.limit)
    return { releaseId, count: rows.length, countTimedOut: false, rows };
  return { releaseId, count: c.count, countTimedOut: c.timedOut, rows };
}

/** Sort keys per request while walking to a deep offset. */
const STEP = 10_000;

/**
 * The sort key of the `skip`-th row after `after` (null: fewer rows match), read `STEP` sort keys at a time with
 * search_after and no _source.
 */
async function stepPast(
  s: ClusterSession,
  index: string,
  query: ReturnType<typeof readQuery>,
  after: number | null,
  skip: number,
  budgetMs: number,
): Promise<number | null> {
  let at = after;
  for (let left = skip; left > 0; ) {
    const size = Math.min(left, STEP);
    const body = { ...pageRequest(index, query, [], at, size, 0, budgetMs), _source: false as const };
    const r = await clusterCall(() => s.client.search(body, budgetOptions(budgetMs)));
    if (r.timed_out) throw timedOut();
    const hits = r.hits.hits;
    if (hits.length < size) return null;
    at = Number(hits[hits.length - 1]!.sort?.[0]);
    left -= size;
  }
  return at;
}
