import * as v from 'valibot';
import {
  type ColumnDef,
  columnForValuesRoute,
  type Entity,
  findList,
  publicColumns,
} from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import { lowerText } from '../../domain/text/lower.js';
import * as out from '../outputs.js';
import { intParam, text } from '../schemas.js';
import type { Services } from '../types.js';
import { defineOperation, type Operation } from '../types.js';

export interface ValueRow {
  value: string;
  label: string;
  count: number;
}

const countsCache = new Map<string, Map<string, number>>();

/** Row counts per value in the serving release, cached per release (the release is immutable). */
async function storedCounts(services: Services, col: ColumnDef): Promise<Map<string, number>> {
  const key = `${services.engine.release()?.id ?? 'none'}:${col.entity}:${col.name}`;
  let m = countsCache.get(key);
  if (!m) {
    const rows = await services.engine.distinctValues(col.entity, col.name, null, 100_000);
    m = new Map(rows.map((r) => [r.value, r.count]));
    if (countsCache.size > 200) countsCache.clear();
    countsCache.set(key, m);
  }
  return m;
}

/**
 * Values of a closed-list column. Static lists (seniority, countries, industries, ...) list every allowed
 * value with its label and the number of stored rows holding it; data-derived lists (skills, languages,
 * technologies, personas) list the values stored in the serving release, most frequent first.
 */
export async function columnValues(
  services: Services,
  entity: Entity,
  name: string,
  q: string | undefined,
  limit: number,
  sort?: ValuesSort,
): Promise<{ column: string; values: ValueRow[]; truncated: boolean }> {
  const col = columnForValuesRoute(entity, name);
  const plural = entity === 'contact' ? 'contacts' : 'companies';
  if (!col?.list) {
    const withValues = publicColumns(entity)
      .filter((c) => c.list)
      .map((c) => c.name);
    throw new AppError(
      'column.not_found',
      col ? `Column ${col.name} has no list of values.` : `Unknown column ${name}.`,
      {
        field: 'column',
        hint:
          `Columns with values: ${withValues.join(', ')}${entity === 'contact' ? ', industries' : ''}. See GET ` +
          `/v1/${plural}/schema.`,
      },
    );
  }
  const list = findList(col.list)!;
  // The engine lowercases the data's values and `q` alike (lowerText); catalog lists are matched the same way here.
  const text = q?.trim() ?? '';
  if (list.fromData && sort === 'value') {
    // Every stored value (cached per release), filtered as the engine filters `q`, then in value order.
    const needle = lowerText(text);
    const all = [...(await storedCounts(services, col))]
      .filter(([value]) => !needle || lowerText(value).includes(needle))
      .sort((a, b) => byValue(a[0], b[0]));
    return {
      column: col.name,
      values: all.slice(0, limit).map(([value, count]) => ({ value, label: value, count })),
      truncated: all.length > limit,
    };
  }
  if (list.fromData) {
    // Most frequent first is the engine's own order (and the default): sort=count changes nothing here.
    const rows = await services.engine.distinctValues(entity, col.name, text || null, limit + 1);
    return {
      column: col.name,
      values: rows.slice(0, limit).map((r) => ({ value: r.value, label: r.value, count: r.count })),
      truncated: rows.length > limit,
    };
  }
  const counts = await storedCounts(services, col);
  const needle = lowerText(text);
  const matching = list.values.filter(
    (lv) =>
      !needle ||
      lowerText(lv.slug).includes(needle) ||
      lowerText(lv.label).includes(needle) ||
      (lv.aliases ?? []).some((a) => lowerText(a).includes(needle)),
  );
  const rows = matching.map((lv) => ({ value: lv.slug, label: lv.label, count: counts.get(lv.slug) ?? 0 }));
  // Array.prototype.sort is stable: equal counts keep the catalog's order.
  if (sort === 'count') rows.sort((a, b) => b.count - a.count);
  if (sort === 'value') rows.sort((a, b) => byValue(a.value, b.value));
  return { column: col.name, values: rows.slice(0, limit), truncated: matching.length > limit };
}

/** `sort` of the values routes: absent keeps the list's own order (catalog order, data lists by count). */
export type ValuesSort = 'count' | 'value';

const byValue = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function valuesOperation(entity: Entity): Operation {
  const plural = entity === 'contact' ? 'contacts' : 'companies';
  return defineOperation({
    name: `${plural}.values`,
    family: 'A',
    method: 'GET',
    path: `/v1/${plural}/schema/:column/values`,
    auth: 'key',
    spends: false,
    summary: entity === 'contact' ? 'List column values' : 'Company column values',
    description:
      `Allowed values of a closed-list ${entity} column with labels and stored row counts (count: ${entity === 'contact' ? 'contacts' : 'companies'} ` +
      `holding the value in the serving release). q filters by substring; limit defaults to 100 (at most 1,000). ` +
      'sort=count orders by count, most held first (ties in catalog order); sort=value by value (A to Z); without ' +
      'sort, catalog lists keep their catalog order and data-derived lists (skills, languages, technologies) come ' +
      'most frequent first. Unknown column: 404 column.not_found.',
    cost: 'free',
    output: out.valuesOutput,
    errors: ['column.not_found', 'data.unavailable', 'query.timeout'],
    input: v.object({
      column: text('Column name (or `industries`).', 100),
      q: v.optional(text('Case-insensitive substring filter.', 200)),
      limit: v.optional(intParam(1, 1000, 'Maximum values returned (default 100).'), 100),
      sort: v.optional(
        v.pipe(
          v.picklist(['count', 'value'], 'must be "count" or "value"'),
          v.description(
            'count: most held first; value: by value, A to Z; absent: catalog order (data-derived lists by count).',
          ),
        ),
      ),
    }),
    mcp:
      entity === 'contact'
        ? {
            tool: 'get_values',
            annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
          }
        : undefined,
    handler: async (ctx, input) => ({
      data: await columnValues(ctx.services, entity, input.column, input.q, input.limit, input.sort),
    }),
  });
}

export const getContactValues = valuesOperation('contact');
export const getCompanyValues = valuesOperation('company');
