import type { Entity } from '../../domain/catalog/index.js';
import { canonicalJson } from '../../domain/cursor.js';
import { isAppError } from '../../domain/errors/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import type { QueryRequest, QueryResult } from '../port.js';
import { andNotInto, type Bitset, orInto } from './bitmap-index/bitset.js';
import { IndexCannotAnswer, type PlanContext, planBitset } from './bitmap-index/plan.js';
import { pointReadLeaves } from './compile/point-read-leaves.js';
import { countQuery, pageQuery, rowsByKeyQuery } from './compile/select.js';
import { indexedQuery, verifier } from './indexed-query.js';
import type { ReleaseSession } from './open-release.js';
import { cutCompanyRows, cutRowsMatching, cutsLeaf, type Suppressed } from './suppression/suppressed.js';

/**
 * Count and page on one pinned release, concurrently on two pooled connections. A count past its budget
 * becomes null (the caller warns `count_unavailable`); a page past its budget throws query.timeout. Both see the
 * release as the suppression of the moment leaves it (read once): without its suppressed contacts, with companies'
 * contact counts cut by them.
 */
export async function runQuery(
  session: ReleaseSession,
  releaseId: string,
  entity: Entity,
  where: IRNode,
  req: QueryRequest,
): Promise<QueryResult> {
  const sup = session.suppression();
  const result = await answer(session, releaseId, entity, where, req, sup);
  if (entity === 'company') cutCompanyRows(result.rows, sup);
  return result;
}

/**
 * The index's plan context under a suppression: a company's contact_count leaf is decided on the cut counts for
 * the companies with a cut (the stored postings for the others).
 */
function suppressedPlan(entity: Entity, sup: Suppressed | null): Pick<PlanContext, 'rewrite'> {
  const cuts = sup?.companies;
  if (entity !== 'company' || !cuts) return {};
  return {
    rewrite: (leaf, stored) => {
      if (!cutsLeaf(leaf, sup)) return stored;
      andNotInto(stored, cuts.affected);
      orInto(stored, cutRowsMatching(leaf, cuts));
      return stored;
    },
  };
}

async function answer(
  session: ReleaseSession,
  releaseId: string,
  entity: Entity,
  where: IRNode,
  req: QueryRequest,
  sup: Suppressed | null,
): Promise<QueryResult> {
  // Point reads keep their key lookups; every other filter the index can answer is answered from it.
  const points =
    req.page && entity === 'contact'
      ? pointReadLeaves(entity, where, req.page.afterSortKey, req.page.offset ?? 0)
      : null;
  const ix = points ? null : session.index(entity);
  const plan = ix
    ? planBitset({ ix, entity, verify: verifier(session, entity, req), ...suppressedPlan(entity, sup) }, where)
    : null;
  // A filter the index answered before on this release, under the same suppression, is not run again (planning
  // only builds closures; a filter the index cannot answer never reaches the cache).
  const results = plan ? session.results() : null;
  if (plan && results) {
    const key = `${entity}:${canonicalJson(where)}`;
    const known = results.get(key, sup);
    if (known) return indexedQuery(session, entity, known, req);
    let bits: Bitset | null = null;
    try {
      bits = await plan();
    } catch (e) {
      // Too many candidates to verify, or a verification past its budget: the scan answers (with its own budgets).
      // A damaged index file is set aside and the scan answers from now on; an error of the request itself stands.
      if (isAppError(e) && e.code !== 'query.timeout') throw e;
      if (!(e instanceof IndexCannotAnswer) && !isAppError(e)) session.indexFailed(e as Error);
    }
    if (bits) {
      if (entity === 'contact' && sup) andNotInto(bits, sup.contacts);
      return indexedQuery(session, entity, results.put(key, sup, bits), req);
    }
  }
  const count = async (): Promise<{ count: number | null; timedOut: boolean }> => {
    const q = countQuery(entity, where, sup);
    try {
      const rows = await session.run(q.sql, q.params, {
        budgetMs: req.countBudgetMs,
        ...(req.tenant ? { tenant: req.tenant } : {}),
      });
      return { count: Number(rows[0]!.n), timedOut: false };
    } catch (e) {
      if (isAppError(e) && e.code === 'query.timeout') return { count: null, timedOut: true };
      throw e;
    }
  };
  const page = async (): Promise<Record<string, unknown>[]> => {
    const { columns, afterSortKey, limit, budgetMs, offset } = req.page!;
    const leaves = entity === 'contact' ? pointReadLeaves(entity, where, afterSortKey, offset ?? 0) : null;
    const points = leaves ? await session.pointRead(leaves, columns, limit, sup) : null;
    if (points) return points;
    // Columns beyond the cards of a release without DuckDB lookup indexes: the store's key tables name the rows.
    const keys = leaves ? await session.pointKeys(leaves, limit, sup) : null;
    if (keys) {
      if (keys.length === 0) return [];
      const byKey = rowsByKeyQuery(entity, keys, columns);
      return session.run(byKey.sql, byKey.params, { budgetMs, ...(req.tenant ? { tenant: req.tenant } : {}) });
    }
    const q = pageQuery(entity, where, columns, afterSortKey, limit, offset ?? 0, sup);
    return session.run(q.sql, q.params, { budgetMs, ...(req.tenant ? { tenant: req.tenant } : {}) });
  };
  if (!req.page) {
    const c = req.countBudgetMs === undefined ? { count: null, timedOut: false } : await count();
    return { releaseId, count: c.count, countTimedOut: c.timedOut, rows: [] };
  }
  if (req.countBudgetMs === undefined) return { releaseId, count: null, countTimedOut: false, rows: await page() };
  // A first page that is not full has seen every match: its length is the count, and no second scan runs.
  if (req.page.afterSortKey === null && !req.page.offset) {
    const rows = await page();
    if (rows.length < req.page.limit) return { releaseId, count: rows.length, countTimedOut: false, rows };
    const c = await count();
    return { releaseId, count: c.count, countTimedOut: c.timedOut, rows };
  }
  const [c, rows] = await Promise.all([count(), page()]);
  return { releaseId, count: c.count, countTimedOut: c.timedOut, rows };
}
