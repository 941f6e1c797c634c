import type { Client } from '@elastic/elasticsearch';
import { type Entity, findColumn } from '../../domain/catalog/index.js';
import { type Leaf, leafValues } from '../../domain/query/ir.js';
import {
  SUPPRESSION_COLUMNS,
  SUPPRESSION_FIELD,
  SUPPRESSION_TYPES,
  type Suppression,
} from '../../domain/suppression.js';
import { type LeafRewrite, MATCH_NONE, type Query, termsOf } from './compile/compile-where.js';
import { esCall } from './errors.js';
import { SHA256_FIELD } from './schema.js';

/**
 * Suppression (opt-outs) on Elasticsearch: the list becomes one query matching the contacts it names (`hidden`: a
 * `terms` clause per identifier column, the sha256 entries on the hashes written at load), which every contact read
 * puts in `must_not`: counts, pages, point reads, exports, distinct values and populated counts. Resolved against a
 * release once (`resolveSuppression`): how many contacts it hides, and what they take from their employers' stored
 * `contact_count` (company rows are read, filtered and counted with the cut counts, as on DuckDB).
 */
export interface EsSuppressed {
  version: number;
  /** Contacts of the release it hides. */
  count: number;
  hidden: Query;
  /** The same test in JS, for rows already read (an export slice leaves out people suppressed since it started). */
  hides(row: Record<string, unknown>): boolean;
  companies: CompanyCuts | null;
}

/** Companies whose contact_count drops: company id -> count once cut. */
export interface CompanyCuts {
  counts: ReadonlyMap<string, number>;
}

export const CONTACT_COUNT = 'contact_count';

/** The contact fields a JS test of the list reads. */
export const SUPPRESSION_READ_FIELDS: readonly string[] = [
  ...new Set([...SUPPRESSION_TYPES.flatMap((t) => (t === 'sha256' ? [] : SUPPRESSION_COLUMNS[t])), SHA256_FIELD]),
];

/** The contacts a list names, or null for the empty list. */
export function hiddenQuery(s: Suppression): Query | null {
  const should: Query[] = [];
  for (const t of SUPPRESSION_TYPES) {
    const values = s[SUPPRESSION_FIELD[t]];
    if (values.length === 0) continue;
    const fields = t === 'sha256' ? [SHA256_FIELD] : SUPPRESSION_COLUMNS[t];
    for (const f of fields) should.push(termsOf(f, values));
  }
  return should.length ? { bool: { should, minimum_should_match: 1 } } : null;
}

/** The JS test of a list on a row read with SUPPRESSION_READ_FIELDS. */
export function hidesFn(s: Suppression): (row: Record<string, unknown>) => boolean {
  const sets = SUPPRESSION_TYPES.map((t) => ({
    set: new Set(s[SUPPRESSION_FIELD[t]]),
    fields: t === 'sha256' ? [SHA256_FIELD] : SUPPRESSION_COLUMNS[t],
  })).filter((x) => x.set.size > 0);
  return (row) =>
    sets.some(({ set, fields }) =>
      fields.some((f) => {
        const v = row[f];
        return Array.isArray(v) ? v.some((x) => set.has(String(x))) : typeof v === 'string' && set.has(v);
      }),
    );
}

const PAGE = 10_000;

/** Resolves a list against one release's indices. */
export async function resolveSuppression(
  client: Client,
  indices: Record<Entity, string>,
  s: Suppression,
  version: number,
): Promise<EsSuppressed | null> {
  const hidden = hiddenQuery(s);
  if (!hidden) return null;
  const count = await esCall(() => client.count({ index: indices.contact, query: hidden }).then((r) => r.count));
  // Suppressed contacts per employer (a composite aggregation pages every bucket, exactly).
  const cuts = new Map<string, number>();
  let after: Record<string, string | number | null> | undefined;
  for (;;) {
    const r = await esCall(() =>
      client.search({
        index: indices.contact,
        size: 0,
        query: hidden,
        aggs: {
          by: {
            composite: {
              size: PAGE,
              sources: [{ c: { terms: { field: 'company_id' } } }],
              ...(after ? { after } : {}),
            },
          },
        },
      }),
    );
    const agg = r.aggregations?.by as
      | { buckets: { key: Record<string, string>; doc_count: number }[]; after_key?: Record<string, string> }
      | undefined;
    for (const b of agg?.buckets ?? []) cuts.set(String(b.key.c), b.doc_count);
    if (!agg?.after_key || (agg.buckets.length ?? 0) < PAGE) break;
    after = agg.after_key;
  }
  let companies: CompanyCuts | null = null;
  if (cuts.size > 0) {
    const counts = new Map<string, number>();
    const ids = [...cuts.keys()];
    for (let i = 0; i < ids.length; i += PAGE) {
      const part = ids.slice(i, i + PAGE);
      const r = await esCall(() =>
        client.search<Record<string, unknown>>({
          index: indices.company,
          size: part.length,
          query: termsOf('id', part),
          _source: { includes: ['id', CONTACT_COUNT] },
        }),
      );
      for (const h of r.hits.hits) {
        const id = String(h._source?.id);
        counts.set(id, Number(h._source?.[CONTACT_COUNT] ?? 0) - (cuts.get(id) ?? 0));
      }
    }
    companies = counts.size ? { counts } : null;
  }
  return { version, count, hidden, hides: hidesFn(s), companies };
}

/** Whether a company leaf reads contact_count while a suppression cuts some. */
export function cutsLeaf(entity: Entity, leaf: Leaf, sup: EsSuppressed | null): boolean {
  return entity === 'company' && !!sup?.companies && findColumn(entity, leaf.field, true)?.name === CONTACT_COUNT;
}

/** A number leaf decided on a value (the cut count of a company). */
export function numberLeafHolds(leaf: Leaf, n: number): boolean {
  const vals = leafValues(leaf).map(Number);
  const v = vals[0]!;
  switch (leaf.op) {
    case 'exists':
      return leaf.value !== false;
    case 'eq':
      return n === v;
    case 'neq':
      return n !== v;
    case 'gt':
      return n > v;
    case 'gte':
      return n >= v;
    case 'lt':
      return n < v;
    case 'lte':
      return n <= v;
    case 'in':
      return vals.includes(n);
    case 'not_in':
      return !vals.includes(n);
    case 'contains':
      return String(n)
        .toLowerCase()
        .includes(String(leafValues(leaf)[0]).toLowerCase());
    case 'prefix':
      return String(n)
        .toLowerCase()
        .startsWith(String(leafValues(leaf)[0]).toLowerCase());
    case 'words':
      return false;
  }
}

/**
 * Under a suppression that cuts companies' contact counts: a contact_count leaf is the stored one for the companies
 * without a cut, and the cut count's answer for the others (by id).
 */
export function cutRewrite(entity: Entity, sup: EsSuppressed | null): LeafRewrite | undefined {
  const cuts = sup?.companies;
  if (entity !== 'company' || !cuts) return undefined;
  const affected = [...cuts.counts.keys()];
  return (leaf, stored) => {
    if (!cutsLeaf(entity, leaf, sup)) return stored;
    const holding = affected.filter((id) => numberLeafHolds(leaf, cuts.counts.get(id)!));
    return {
      bool: {
        should: [
          { bool: { filter: [stored], must_not: [termsOf('id', affected)] } },
          holding.length ? termsOf('id', holding) : MATCH_NONE,
        ],
        minimum_should_match: 1,
      },
    };
  };
}

/** Company rows with their contact_count as cut (rows carry `id` when contact_count is asked). */
export function cutCompanyRows(rows: Record<string, unknown>[], sup: EsSuppressed | null): void {
  const cuts = sup?.companies;
  if (!cuts) return;
  for (const r of rows) {
    if (!(CONTACT_COUNT in r)) continue;
    const n = cuts.counts.get(String(r.id));
    if (n !== undefined) r[CONTACT_COUNT] = n;
  }
}
