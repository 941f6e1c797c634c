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
    const { columns, afterSortKey, limit, budgetMs, offset, json } = req.page;
    // Rows after sort_key k start at bit k (sort_key = bit + 1).
    const from = afterSortKey === null ? 0 : Math.max(0, Math.floor(afterSortKey));
    const keys = matched.rowsFrom(from, offset ?? 0, limit).map((r) => r + 1);
    if (keys.length > 0) {
      const byKey = (cols: readonly string[]) => {
        const q = rowsByKeyQuery(entity, keys, cols);
        return session.run(q.sql, q.params, { budgetMs, ...(req.tenant ? { tenant: req.tenant } : {}) });
      };
      const page = entity === 'contact' ? await cardRows(session, keys, columns, byKey, json === true) : null;
      if (page?.json) return { releaseId: session.info.id, count, countTimedOut: false, ...page };
      rows = page?.rows ?? (await byKey(columns));
    }
  }
  return { releaseId: session.info.id, count, countTimedOut: false, rows };
}

/**
 * A page's contact rows from the point store's cards, with the columns the cards do not hold (a family B page shows
 * its filters' columns, e.g. company_employee_count) read from the release for those rows only; null when the cards
 * hold none of the columns or cannot answer. Reading a page's text columns from the release costs most of its time
 * (1 M contacts: 100 rows of the default columns plus two, 6.6 ms; the two alone, 1.9 ms). `json`: a page whose every
 * column is on the cards is answered as the cards' own bytes (renderCards), its rows holding only sort_key.
 */
async function cardRows(
  session: ReleaseSession,
  keys: readonly number[],
  columns: readonly string[],
  byKey: (columns: readonly string[]) => Promise<Record<string, unknown>[]>,
  json: boolean,
): Promise<Pick<QueryResult, 'rows' | 'json'> | null> {
  const onCard = session.cardColumns(columns);
  const rest = columns.filter((c) => c !== 'sort_key' && !onCard.includes(c));
  // Cards that hold only the id (or the sort key) of a page that needs other columns spare the release's read
  // nothing. A page of ids alone is read from the cards: from the release it took 2 to 3 times as long (1 M).
  if (rest.length > 0 && !onCard.some((c) => c !== 'id' && c !== 'sort_key')) return null;
  if (rest.length === 0 && json) {
    const page = await session.cardsJson(keys, columns);
    // Every key's card, each the contact asked for (its own sort_key), or the page is read as objects below.
    if (page?.sortKeys.length === keys.length && page.sortKeys.every((k, i) => k === keys[i]))
      return { rows: keys.map((k) => ({ sort_key: k })), json: { bytes: page.bytes, ends: page.ends } };
  }
  if (rest.length === 0) {
    const cards = await session.cards(keys, columns);
    return cards && { rows: cards };
  }
  const [others, read] = await Promise.all([byKey(rest), session.cards(keys, onCard)]);
  // Every contact has its card (the store is whole): cards the release's rows do not agree with (or a failed read)
  // are read from the release as well, for these rows and only the columns the cards were to give.
  const agree = (cards: Record<string, unknown>[] | null): cards is Record<string, unknown>[] =>
    cards !== null &&
    cards.length === others.length &&
    cards.every((card, i) => Number(card.sort_key) === Number(others[i]!.sort_key));
  const cards = agree(read) ? read : await byKey(onCard);
  if (!agree(cards)) return null;
  return { rows: cards.map((card, i) => ({ ...card, ...others[i] })) };
}

/** Candidates of one leaf checked by the release's columns at most this many at a time; more go to the scan. */
export const VERIFY_MAX = 50_000;

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
