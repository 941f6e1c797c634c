import type { ColumnDef, Entity } from '../../domain/catalog/index.js';
import { canonicalJson, decodeCursor, encodeCursor, queryHash } from '../../domain/cursor.js';
import { JsonRows } from '../../domain/json-rows.js';
import type { IRNode } from '../../domain/query/ir.js';
import type { JsonPage } from '../../engine/port.js';
import { withContactCredits } from '../credits.js';
import { engineFor } from '../engine-for.js';
import { buildLabel } from '../invoke.js';
import { rowsPerCall } from '../limits.js';
import type { OpContext, OpResult, Page, Warning } from '../types.js';
import { countUnavailableWarning, noRowsWarning, pageTruncatedWarning } from '../warnings.js';
import { shapedAsStored, shapeRow } from './columns.js';

export interface SearchPageInput {
  entity: Entity;
  ir: IRNode;
  keysApplied: string[];
  columns: ColumnDef[];
  limit: number;
  cursor: string | null | undefined;
  /** At most this many rows per `company_domain` in this page (rows beyond it are skipped, not deferred). */
  maxPerCompany?: number | undefined;
  /** What the cursor pins besides order and release: the canonical filter, columns and options. */
  pinned: unknown;
}

const MAX_SCAN_ROUNDS = 20;

/**
 * page.total of a search, per data release and query: a release never changes, so a cursor walk counts its
 * query once, not on every page. Bounded; the count route itself always counts.
 */
const totals = new Map<string, number>();
const TOTALS_MAX = 5000;

function rememberTotal(key: string, n: number): void {
  if (totals.size >= TOTALS_MAX) totals.delete(totals.keys().next().value as string);
  totals.set(key, n);
}

/**
 * One page of a family A search, keyset-paged in the release's stable order. Credits: the page is cut to
 * the contact credits left (one per returned row), with a page_truncated warning when more rows match; with none
 * left the call answers 402.
 */
export async function searchPage(ctx: OpContext, p: SearchPageInput): Promise<OpResult> {
  const { services } = ctx;
  const limit = rowsPerCall(ctx.face, p.limit);
  const hash = queryHash(p.pinned);
  const after = p.cursor
    ? decodeCursor(services.secret, p.cursor, { buildLabel: ctx.buildLabel, queryHash: hash }).k
    : null;
  const names = p.columns.map((c) => c.name);
  const fetchCols =
    p.maxPerCompany !== undefined && p.entity === 'contact' && !names.includes('company_domain')
      ? [...names, 'company_domain']
      : names;
  // The rows may come as JSON text (QueryResult.json) when they are the answer as they are: shapeRow changes no
  // value and no row is skipped (no per-company cap). MCP relabels rows, so it takes objects.
  const json = ctx.face === 'rest' && p.maxPerCompany === undefined && shapedAsStored(p.columns);

  /** Set when the credits left cut the page (fewer granted than the limit, and more rows match). */
  let cut = null as { granted: number } | null;
  const result = await withContactCredits(ctx, 'search', limit, async (granted) => {
    const want = granted;
    const kept: Record<string, unknown>[] = [];
    /** The page's rows as JSON (QueryResult.json), while every row came so: the kept rows are its first ones. */
    let keptJson: JsonPage | null = null;
    const perCompany = new Map<string, number>();
    let cursorKey = after;
    let total: number | null = null;
    let countTimedOut = false;
    let more = false;
    let releaseId = '';
    const totalKey = `${services.engine.release()?.id ?? ''}:${p.entity}:${canonicalJson(p.ir)}`;
    const known = services.config.searchTotalsCache ? totals.get(totalKey) : undefined;
    for (let round = 0; round < MAX_SCAN_ROUNDS; round++) {
      const batch = p.maxPerCompany === undefined ? want + 1 : Math.max(2 * (want - kept.length) + 1, 100);
      const res = await engineFor(ctx).query(p.entity, p.ir, {
        ...(round === 0 && known === undefined ? { countBudgetMs: services.config.countBudgetMs } : {}),
        page: {
          columns: fetchCols,
          afterSortKey: cursorKey,
          limit: batch,
          budgetMs: services.config.searchBudgetMs,
          ...(json ? { json } : {}),
        },
      });
      if (res.json) {
        // Without a cap the loop runs once (its batch is the page plus one), so a page's rows all come one way and
        // every row is kept up to the page's size.
        if (round > 0) throw new Error('a search page got rows as JSON past its first read');
        keptJson = res.json;
      }
      releaseId = res.releaseId;
      if (round === 0) {
        total = known ?? res.count;
        countTimedOut = res.countTimedOut;
        if (
          services.config.searchTotalsCache &&
          known === undefined &&
          res.count !== null &&
          res.releaseId === services.engine.release()?.id
        )
          rememberTotal(totalKey, res.count);
      }
      for (const row of res.rows) {
        if (kept.length === want) {
          more = true;
          break;
        }
        cursorKey = Number(row.sort_key);
        const company = p.entity === 'contact' ? (row.company_domain as string | null) : null;
        if (p.maxPerCompany !== undefined && company) {
          const n = perCompany.get(company) ?? 0;
          if (n >= p.maxPerCompany) continue;
          perCompany.set(company, n + 1);
        }
        kept.push(row);
      }
      if (more || res.rows.length < batch) break;
    }
    const lastKept = kept[kept.length - 1];
    // The cursor pins the release the rows were read from (a release swap mid-request expires it).
    const label = buildLabel(services, releaseId);
    const page: Page = {
      returned: kept.length,
      limit,
      total,
      next_cursor:
        more && lastKept ? encodeCursor(services.secret, { r: label, q: hash, k: Number(lastKept.sort_key) }) : null,
    };
    const warnings: Warning[] = [];
    if (countTimedOut) warnings.push(countUnavailableWarning(services.config.countBudgetMs));
    if (kept.length === 0) warnings.push(noRowsWarning(p.keysApplied));
    const data = keptJson
      ? new JsonRows(keptJson.bytes.subarray(0, kept.length > 0 ? keptJson.ends[kept.length - 1] : 0), kept.length)
      : kept.map((r) => shapeRow(r, p.columns));
    if (more && granted < limit) cut = { granted };
    return { result: { data, page, warnings }, delivered: kept.length };
  });
  // A page the credits cut says so (page_truncated); a dry run's quote says it in its own `cut`.
  if (cut && !ctx.dryRun) {
    const { granted } = cut;
    result.warnings.push(
      await pageTruncatedWarning(ctx, {
        returned: result.page.returned,
        limit,
        granted,
        continueWith: 'page.next_cursor',
      }),
    );
  }
  return result;
}
