import { open, rm } from 'node:fs/promises';
import type { estypes } from '@elastic/elasticsearch';
import { type ColumnDef, type Entity, findColumn } from '../../domain/catalog/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import { csvField } from '../../domain/text/csv-cell.js';
import type { CsvExportRequest, CsvExportResult, ExportCount } from '../port.js';
import { allBuckets } from './aggregations.js';
import { SORT } from './compile/select.js';
import { csvCell } from './csv-cells.js';
import { budgetOptions, clusterCall, timedOut } from './errors.js';
import { countWithin, readQuery } from './queries.js';
import type { ClusterSession } from './session.js';
import { CONTACT_COUNT, SUPPRESSION_READ_FIELDS } from './suppression.js';

/** Rows per search request of an export (a request may not return more than max_result_window). */
const SLICE_MAX = 10_000;
/** How long the point in time of an export stays open between two slices. */
const KEEP_ALIVE = '5m';

function columnOf(entity: Entity, name: string): ColumnDef {
  const col = findColumn(entity, name, true);
  if (!col) throw new Error(`export column ${name} is not a ${entity} column`);
  return col;
}

/**
 * Matches of an export and what a per-company cap keeps: the count, and with a cap the matches per company_domain
 * (every bucket, a composite aggregation) each kept up to the cap; rows without a domain are not capped.
 */
export async function exportCount(
  s: ClusterSession,
  entity: Entity,
  where: IRNode,
  req: { maxPerCompany: number | null; budgetMs: number },
): Promise<ExportCount> {
  const sup = s.suppression();
  const c = await countWithin(s, entity, where, req.budgetMs, sup);
  if (c.count === null) throw timedOut();
  if (req.maxPerCompany === null) return { releaseId: s.info.id, matches: c.count, capped: c.count };
  if (entity !== 'contact') throw new Error('a per-company cap applies to contact exports only');
  const q = readQuery(entity, where, sup);
  const buckets = await allBuckets(s, s.indices[entity], q, 'company_domain', req.budgetMs);
  let withDomain = 0;
  let kept = 0;
  for (const b of buckets) {
    withDomain += b.count;
    kept += Math.min(b.count, req.maxPerCompany);
  }
  return { releaseId: s.info.id, matches: c.count, capped: kept + (c.count - withDomain) };
}

/**
 * Writes the matches to CSV in the stable order: a point in time on the pinned release's index, read in slices of
 * `batchRows` (search_after on sort_key), each slice's cells written by csv-cells.ts as DuckDB writes them. The
 * matches are those of the suppression at the start (so a cap counts the same rows throughout); each slice also drops
 * the people suppressed since. A slice past its budget stops the export (query.timeout); a failed export leaves no
 * file.
 */
export async function exportCsv(
  s: ClusterSession,
  entity: Entity,
  where: IRNode,
  req: CsvExportRequest,
): Promise<CsvExportResult> {
  if (!Number.isSafeInteger(req.batchRows) || req.batchRows < 1)
    throw new RangeError(`batchRows must be >= 1, got ${req.batchRows}`);
  if (req.maxPerCompany !== null && entity !== 'contact')
    throw new Error('a per-company cap applies to contact exports only');
  const start = s.suppression();
  const columns = req.columns.map((c) => columnOf(entity, c.name));
  if (start?.companies && columns.some((c) => c.entity === 'company' && c.name === CONTACT_COUNT))
    throw new Error('a company export cannot write contact_count while a suppression cuts it');
  const query = readQuery(entity, where, start);
  const read = [
    ...new Set([
      ...columns.map((c) => c.name),
      'sort_key',
      ...(req.maxPerCompany !== null ? ['company_domain'] : []),
      ...(entity === 'contact' ? SUPPRESSION_READ_FIELDS : []),
    ]),
  ];
  const fh = await open(req.file, 'w');
  let ok = false;
  let rows = 0;
  let bytes = 0;
  let pit: string | undefined;
  try {
    pit = await clusterCall(() => s.client.openPointInTime(s.indices[entity], KEEP_ALIVE));
    const header = Buffer.from(`${req.columns.map((c) => csvField(c.header)).join(',')}\r\n`, 'utf8');
    await fh.write(header);
    bytes += header.length;
    const perCompany = new Map<string, number>();
    // The last hit's sort values: with a point in time the cluster may add its own tiebreaker (Elasticsearch's
    // `_shard_doc`) to the sort.
    let after: estypes.SortResults | null = null;
    while (rows < req.maxRows) {
      const size = Math.min(req.batchRows, SLICE_MAX);
      const r = await clusterCall(() =>
        s.client.search<Record<string, unknown>>(
          {
            pit: { id: pit!, keep_alive: KEEP_ALIVE },
            query,
            sort: SORT,
            size,
            ...(after !== null ? { search_after: after } : {}),
            _source: { includes: read },
            track_total_hits: false,
            timeout: `${req.budgetMs}ms`,
          },
          budgetOptions(req.budgetMs),
        ),
      );
      if (r.timed_out) throw timedOut();
      if (r.pit_id) pit = r.pit_id;
      const hits = r.hits.hits;
      // People suppressed since the export started are left out from this slice on.
      const now = s.suppression();
      const lines: string[] = [];
      for (const h of hits) {
        const src = h._source ?? {};
        if (h.sort) after = h.sort;
        if (req.maxPerCompany !== null) {
          const d = src.company_domain;
          if (d !== null && d !== undefined) {
            const n = (perCompany.get(String(d)) ?? 0) + 1;
            perCompany.set(String(d), n);
            if (n > req.maxPerCompany) continue;
          }
        }
        if (entity === 'contact' && now && now !== start && now.hides(src)) continue;
        if (rows + lines.length >= req.maxRows) break;
        lines.push(`${columns.map((c) => csvCell(c, src[c.name])).join(',')}\r\n`);
      }
      if (lines.length) {
        const buf = Buffer.from(lines.join(''), 'utf8');
        await fh.write(buf);
        bytes += buf.length;
        rows += lines.length;
      }
      await req.onBatch?.(rows);
      if (hits.length < size) break;
    }
    await fh.sync();
    ok = true;
  } finally {
    await fh.close();
    if (pit) await s.client.closePointInTime(pit).catch(() => undefined);
    if (!ok) await rm(req.file, { force: true });
  }
  return { releaseId: s.info.id, rows, bytes };
}
