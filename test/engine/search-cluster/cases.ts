import type { estypes } from '@elastic/elasticsearch';
import { FIXED_QUERIES } from '../../../bench/lib/query-suite.js';
import type { Entity } from '../../../src/domain/catalog/index.js';
import { parseFamilyBFilters } from '../../../src/domain/family-b/filters.js';
import { type IRNode, parseCompanyFilter, parseContactFilter } from '../../../src/domain/query/index.js';
import { countRequest, pageRequest, visibleQuery } from '../../../src/engine/search-cluster/compile/select.js';
import { hiddenQuery } from '../../../src/engine/search-cluster/suppression.js';

/**
 * The IR trees the Elasticsearch compiler is checked on: every node type (and, or, not, their empty forms) and every
 * leaf operator on every storage kind, the family A and B filter shapes that compile to particular trees (exclude_*
 * keys, include_secondary_roles, title phrases, contains, NAICS prefixes, month ranges, regions, has_*), and every
 * fixed query of bench/query-bench.
 */
export interface IrCase {
  name: string;
  entity: Entity;
  where: IRNode;
}

const c = (name: string, where: IRNode, entity: Entity = 'contact'): IrCase => ({ name, entity, where });

export const IR_NODE_CASES: readonly IrCase[] = [
  c('and empty (match all)', { and: [] }),
  c('or empty (match none)', { or: [] }),
  c('and', {
    and: [
      { field: 'country', op: 'eq', value: 'us' },
      { field: 'seniority', op: 'eq', value: 'vp' },
    ],
  }),
  c('or', {
    or: [
      { field: 'country', op: 'eq', value: 'us' },
      { field: 'country', op: 'eq', value: 'gb' },
    ],
  }),
  c('not', { not: { field: 'country', op: 'in', value: ['us', 'ca'] } }),
  c('not of and', {
    not: {
      and: [
        { field: 'function', op: 'eq', value: 'engineering' },
        { field: 'has_phone', op: 'eq', value: true },
      ],
    },
  }),
  // text
  c('text eq', { field: 'name', op: 'eq', value: 'Ada Lovelace' }),
  c('text neq', { field: 'name', op: 'neq', value: 'Ada Lovelace' }),
  c('text in', { field: 'country', op: 'in', value: ['us', 'gb'] }),
  c('text in empty', { field: 'country', op: 'in', value: [] }),
  c('text not_in', { field: 'country', op: 'not_in', value: ['us', 'gb'] }),
  c('text not_in empty', { field: 'country', op: 'not_in', value: [] }),
  c('text gt', { field: 'name', op: 'gt', value: 'M' }),
  c('text contains', { field: 'name', op: 'contains', value: 'Zz*?\\q' }),
  c('text prefix', { field: 'company_domain', op: 'prefix', value: 'Acme' }),
  c('text words', { field: 'title', op: 'words', value: 'Head of Growth!' }),
  c('text words without words', { field: 'title', op: 'words', value: '--' }),
  c('text exists', { field: 'work_email', op: 'exists' }),
  c('text exists false', { field: 'work_email', op: 'exists', value: false }),
  // month (text kind, YYYY-MM) and date (YYYY-MM-DD)
  c('month gte', { field: 'last_updated', op: 'gte', value: '2025-01' }),
  c('month lt', { field: 'company_last_round_date', op: 'lt', value: '2024-06' }),
  c('month contains', { field: 'last_updated', op: 'contains', value: '2025' }),
  c('date eq', { field: 'role_since', op: 'eq', value: '2024-03-01' }),
  c('date lte', { field: 'role_since', op: 'lte', value: '2024-03-01' }),
  c('date in', { field: 'last_refreshed', op: 'in', value: ['2025-01-01', '2025-02-01'] }),
  // numbers and booleans
  c('int eq', { field: 'company_employee_count', op: 'eq', value: 50 }),
  c('int neq', { field: 'company_employee_count', op: 'neq', value: 50 }),
  c('int gt', { field: 'company_employee_count', op: 'gt', value: 50 }),
  c('int gte', { field: 'company_employee_count', op: 'gte', value: 50 }),
  c('int lt', { field: 'company_employee_count', op: 'lt', value: 50 }),
  c('int lte', { field: 'company_employee_count', op: 'lte', value: 50 }),
  c('int in', { field: 'company_founded_year', op: 'in', value: [2001, 2002] }),
  c('int not_in', { field: 'company_founded_year', op: 'not_in', value: [2001, 2002] }),
  c('int exists false', { field: 'company_total_funding_usd', op: 'exists', value: false }),
  c('double gte', { field: 'company_employee_growth_pct', op: 'gte', value: 12.5 }),
  c('bool eq', { field: 'has_phone', op: 'eq', value: true }),
  c('bool neq', { field: 'company_is_public', op: 'neq', value: true }),
  // lists
  c('list eq', { field: 'skills', op: 'eq', value: 'python' }),
  c('list neq', { field: 'skills', op: 'neq', value: 'python' }),
  c('list in', { field: 'skills', op: 'in', value: ['python', 'sql'] }),
  c('list in empty', { field: 'skills', op: 'in', value: [] }),
  c('list not_in', { field: 'skills', op: 'not_in', value: ['python', 'sql'] }),
  c('list not_in empty', { field: 'skills', op: 'not_in', value: [] }),
  c('list contains', { field: 'company_technologies', op: 'contains', value: 'Sales' }),
  c('list prefix', { field: 'company_naics_codes', op: 'prefix', value: '54' }),
  c('list words', { field: 'secondary_titles', op: 'words', value: 'chief technology officer' }),
  c('list exists', { field: 'languages', op: 'exists' }),
  c('list exists false', { field: 'languages', op: 'exists', value: false }),
  // records
  c('record contains', { field: 'experience', op: 'contains', value: 'Acme "Labs"' }),
  c('record exists', { field: 'education', op: 'exists' }),
  // companies
  c('company contact_count gte', { field: 'contact_count', op: 'gte', value: 3 }, 'company'),
  c(
    'company lookup',
    {
      or: [
        { field: 'domain', op: 'in', value: ['acme.com'] },
        { field: 'name_norm', op: 'eq', value: 'acme' },
      ],
    },
    'company',
  ),
];

const A = (body: Record<string, unknown>) => parseContactFilter({ filter: body }).ir;
const B = (body: Record<string, unknown>) => parseFamilyBFilters(body, { networkHost: 'network.com' }).ir;

/** Filter shapes whose trees matter: each compiled from its filter language by the domain parsers. */
export const FILTER_CASES: readonly IrCase[] = [
  c('A exclude_countries (keeps empty countries)', A({ exclude_countries: ['us'] })),
  c('A include_secondary_roles', A({ title_query: 'cto', seniority: ['c_level'], include_secondary_roles: true })),
  c('A title_query phrases', A({ title_query: ['head of growth', 'vp sales'] })),
  c('A has_phone false', A({ has_phone: false })),
  c('A has_work_email true', A({ has_work_email: true })),
  c('A last_round_after (month range)', A({ last_round_after: '2025-01' })),
  c('A exclude_ids', parseContactFilter({ filter: {}, exclude_ids: ['per_1', 'per_2'] }).ir),
  c('A company filter', parseCompanyFilter({ filter: { hq_countries: ['de'], employee_count_min: 10 } }).ir, 'company'),
  c('B naics prefix', B({ naics_codes: ['54', '5112'] })),
  c('B regions from countries', B({ regions: ['NORAM'] })),
  c('B job_titles and exclude_job_titles', B({ job_titles: ['head of'], exclude_job_titles: ['assistant'] })),
  c('B keywords contains', B({ skills: 'python' })),
  c('B cities substring', B({ cities: ['berlin'] })),
];

/** bench/query-bench's fixed queries (family B ones by their family A twin: where_sql needs the DuckDB parser). */
export const BENCH_CASES: readonly IrCase[] = FIXED_QUERIES.map((q) => c(q.name, A(q.filter)));

/** What the golden files hold per case: the query, and the count and page requests built on it. */
export function compiled(k: IrCase): {
  query: estypes.QueryDslQueryContainer;
  count: estypes.SearchRequest;
  page: estypes.SearchRequest;
} {
  const query = visibleQuery(k.entity, k.where, null);
  return {
    query,
    count: countRequest(`contacts-r1`, query, 3000) satisfies estypes.SearchRequest,
    page: pageRequest('contacts-r1', query, ['id', 'name'], null, 25, 0, 10_000) satisfies estypes.SearchRequest,
  };
}

/** A suppression list's query (every identifier type). */
export const SUPPRESSION_QUERY = hiddenQuery({
  ids: ['per_1'],
  emails: ['a@b.com'],
  phones: ['+15550100'],
  slugs: ['ada'],
  sha256: ['0'.repeat(64)],
});
