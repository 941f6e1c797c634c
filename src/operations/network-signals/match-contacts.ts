import { parseNetworkUrl } from '../../domain/normalize/index.js';
import type { Engager } from '../../network-signals/port.js';
import { resolveColumns, shapeRow } from '../contacts/columns.js';
import type { Services } from '../types.js';

/** The enrichment default column set a matched signal row carries, `id` first. */
const CONTACT_COLUMNS = resolveColumns('contact', undefined);
const FETCH = [...new Set([...CONTACT_COLUMNS.map((c) => c.name), 'network_slug', 'last_updated'])];

/** Who an engager is: the profile slug of a person URL on the network, else the URL itself. */
export function personKey(e: Engager, host: string): string {
  const url = parseNetworkUrl(e.profile_url, host);
  return url?.kind === 'person'
    ? url.slug
    : e.profile_url
        .trim()
        .toLowerCase()
        .replace(/[?#].*$/, '')
        .replace(/\/+$/, '');
}

/**
 * Stored contacts by profile slug, in one engine query. Two contacts sharing a slug: the later
 * `last_updated` wins, as in enrichment.
 */
export async function contactsBySlug(
  services: Services,
  slugs: readonly string[],
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, { row: Record<string, unknown>; updated: string }>();
  if (slugs.length === 0) return new Map();
  const res = await services.engine.query(
    'contact',
    { field: 'network_slug', op: 'in', value: [...new Set(slugs)] },
    {
      page: { columns: FETCH, afterSortKey: null, limit: 5000, budgetMs: services.config.searchBudgetMs },
    },
  );
  for (const row of res.rows) {
    const slug = row.network_slug;
    if (typeof slug !== 'string') continue;
    const updated = String(row.last_updated ?? '');
    const seen = out.get(slug);
    if (!seen || updated > seen.updated) out.set(slug, { row, updated });
  }
  return new Map([...out].map(([slug, { row }]) => [slug, shapeRow(row, CONTACT_COLUMNS)]));
}
