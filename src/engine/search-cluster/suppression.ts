import type { estypes } from '@elastic/elasticsearch';
import { type Entity, findColumn } from '../../domain/catalog/index.js';
import { type Leaf, leafValues } from '../../domain/query/ir.js';
import {
  SUPPRESSION_COLUMNS,
  SUPPRESSION_FIELD,
  SUPPRESSION_TYPES,
  type Suppression,
} from '../../domain/suppression.js';
import { lowerText } from '../../domain/text/lower.js';
import { type LeafRewrite, MATCH_NONE, type Query, termsOf } from './compile/compile-where.js';
import { SORT } from './compile/select.js';
import { clusterCall } from './errors.js';
import { SHA256_FIELD } from './schema.js';
import type { ClusterClient } from './transport.js';

/**
 * Suppression (opt-outs) on a search cluster: the list becomes one query matching the contacts it names
 * (`hiddenQuery`: a `terms` clause per identifier column, the sha256 entries on the hashes written at load). It is resolved against a
 * release once (`resolveSuppression`) into the ids of the contacts it matches, which every contact read puts in
 * `must_not` (counts, pages, point reads, exports, distinct values and populated counts), and into what they take
 * from their employers' stored `contact_count` (company rows are read, filtered and counted with the cut counts, as
 * on DuckDB).
 */
export interface ClusterSuppressed {
  version: number;
  /** Contacts of the release it hides. */
  count: number;
  /** Those contacts, by id (what every contact read puts in `must_not`). */
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

/**
 * Resolves a list against one release's indices: the ids of the contacts it matches (every match, in sort_key order)
 * and how many of them each employer loses. Reads then leave out those ids (`hidden` is a `terms` query on `id`), so a
 * request carries the release's suppressed contacts, not the whole list (a release never changes once loaded).
 */
export async function resolveSuppression(
  client: ClusterClient,
  indices: Record<Entity, string>,
  s: Suppression,
  version: number,
): Promise<ClusterSuppressed | null> {
  const listQuery = hiddenQuery(s);
  if (!listQuery) return null;
  const ids: string[] = [];
  const cuts = new Map<string, number>();
  let after: estypes.SortResults | undefined;
  for (;;) {
    const r = await clusterCall(() =>
      client.search<Record<string, unknown>>({
        index: indices.contact,
        size: PAGE,
        query: listQuery,
        sort: SORT,
        _source: { includes: ['id', 'company_id'] },
        track_total_hits: false,
        ...(after ? { search_after: after } : {}),
      }),
    );
    const hits = r.hits.hits;
    for (const h of hits) {
      ids.push(String(h._source?.id));
      const employer = h._source?.company_id;
      if (typeof employer === 'string') cuts.set(employer, (cuts.get(employer) ?? 0) + 1);
      if (h.sort) after = h.sort;
    }
    if (hits.length < PAGE) break;
  }
  const count = ids.length;
  const hidden: Query = count ? termsOf('id', ids) : MATCH_NONE;
  let companies: CompanyCuts | null = null;
  if (cuts.size > 0) {
    const counts = new Map<string, number>();
    const employers = [...cuts.keys()];
    for (let i = 0; i < employers.length; i += PAGE) {
      const part = employers.slice(i, i + PAGE);
      const r = await clusterCall(() =>
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
export function cutsLeaf(entity: Entity, leaf: Leaf, sup: ClusterSuppressed | null): boolean {
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
      return lowerText(String(n)).includes(lowerText(String(leafValues(leaf)[0])));
    case 'prefix':
      return lowerText(String(n)).startsWith(lowerText(String(leafValues(leaf)[0])));
    case 'words':
      return false;
  }
}

/**
 * Under a suppression that cuts companies' contact counts: a contact_count leaf is the stored one for the companies
 * without a cut, and the cut count's answer for the others (by id).
 */
export function cutRewrite(entity: Entity, sup: ClusterSuppressed | null): LeafRewrite | undefined {
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
export function cutCompanyRows(rows: Record<string, unknown>[], sup: ClusterSuppressed | null): void {
  const cuts = sup?.companies;
  if (!cuts) return;
  for (const r of rows) {
    if (!(CONTACT_COUNT in r)) continue;
    const n = cuts.counts.get(String(r.id));
    if (n !== undefined) r[CONTACT_COUNT] = n;
  }
}
