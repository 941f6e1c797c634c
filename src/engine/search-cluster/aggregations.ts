import type { estypes } from '@elastic/elasticsearch';
import type { Query } from './compile/compile-where.js';
import { budgetOptions, clusterCall, timedOut } from './errors.js';
import type { ClusterSession } from './session.js';

const PAGE = 10_000;

/**
 * Every bucket of a `terms` source over the rows of a query, with its row count: a composite aggregation paged to the
 * end, which is exact on any number of shards (a plain `terms` aggregation is not). Keys come back as the field
 * stores them (text, numbers, booleans).
 */
export async function allBuckets(
  s: ClusterSession,
  index: string,
  query: Query,
  field: string,
  budgetMs?: number,
): Promise<{ key: unknown; count: number }[]> {
  const out: { key: unknown; count: number }[] = [];
  let after: Record<string, estypes.FieldValue> | undefined;
  for (;;) {
    const r = await clusterCall(() =>
      s.client.search(
        {
          index,
          size: 0,
          query,
          aggs: {
            by: { composite: { size: PAGE, sources: [{ v: { terms: { field } } }], ...(after ? { after } : {}) } },
          },
          ...(budgetMs !== undefined ? { timeout: `${budgetMs}ms` } : {}),
        },
        budgetOptions(budgetMs),
      ),
    );
    if (r.timed_out) throw timedOut();
    const agg = r.aggregations?.by as
      | {
          buckets: { key: Record<string, unknown>; doc_count: number }[];
          after_key?: Record<string, estypes.FieldValue>;
        }
      | undefined;
    for (const b of agg?.buckets ?? []) out.push({ key: b.key.v, count: b.doc_count });
    if (!agg?.after_key || agg.buckets.length < PAGE) break;
    after = agg.after_key;
  }
  return out;
}
