import { COMPANY_COLUMNS } from './company-columns.js';
import { COMPANY_FILTER_KEYS } from './company-filter-keys.js';
import { CONTACT_COLUMNS } from './contact-columns.js';
import { BIG_LIST_MAX, CONTACT_FILTER_KEYS, LIST_MAX } from './contact-filter-keys.js';
import {
  COMPANY_REVENUE,
  COMPANY_SIZES,
  ENTITY_TYPES,
  FUNDING_ROUND_TYPES,
  REVENUE_BANDS,
  SIZE_BANDS,
} from './lists/company.js';
import { EMAIL_STATUS, LANGUAGES, PERSONAS, SIGNALS, SKILLS, TECHNOLOGIES } from './lists/contact.js';
import { COUNTRIES } from './lists/countries.js';
import { INDUSTRIES } from './lists/industries.js';
import { JOB_FUNCTIONS } from './lists/job-functions.js';
import { SENIORITY } from './lists/seniority.js';
import type { ClosedList, ColumnDef, Entity, FilterKeyDef, ListValue } from './types.js';

export { CONTACT_POINT_COLUMNS, isContactPoint } from './contact-points.js';
export {
  FAMILY_B_EMAIL_STATUSES,
  FAMILY_B_MATCH_SEMANTICS,
  FAMILY_B_NON_FILTER_MEMBERS,
  FAMILY_B_PARAMS,
  FAMILY_B_SENIORITY,
  type FamilyBMatch,
  type FamilyBParamDef,
  type FamilyBType,
  type FamilyBValue,
  findFamilyBParam,
} from './family-b-params.js';
export type {
  ClosedList,
  ColumnDef,
  ColumnKind,
  ColumnType,
  Entity,
  FilterGroup,
  FilterKeyDef,
  FilterKeyType,
  FilterMatch,
  ListValue,
  StorageType,
} from './types.js';
export {
  BIG_LIST_MAX,
  COMPANY_COLUMNS,
  COMPANY_FILTER_KEYS,
  CONTACT_COLUMNS,
  CONTACT_FILTER_KEYS,
  LIST_MAX,
  REVENUE_BANDS,
  SIZE_BANDS,
};

/** Every closed list by name. */
export const LISTS: Readonly<Record<string, ClosedList>> = Object.fromEntries(
  [
    SENIORITY,
    JOB_FUNCTIONS,
    COMPANY_SIZES,
    COMPANY_REVENUE,
    FUNDING_ROUND_TYPES,
    ENTITY_TYPES,
    SIGNALS,
    EMAIL_STATUS,
    COUNTRIES,
    INDUSTRIES,
    SKILLS,
    LANGUAGES,
    TECHNOLOGIES,
    PERSONAS,
  ].map((l) => [l.name, l]),
);

export function columnsOf(entity: Entity): readonly ColumnDef[] {
  return entity === 'contact' ? CONTACT_COLUMNS : COMPANY_COLUMNS;
}

export function publicColumns(entity: Entity): readonly ColumnDef[] {
  return columnsOf(entity).filter((c) => c.visibility === 'public');
}

const columnIndex = new Map<string, ColumnDef>();
for (const col of [...CONTACT_COLUMNS, ...COMPANY_COLUMNS]) columnIndex.set(`${col.entity}:${col.name}`, col);

/** A column by its name, case-insensitively; `includeInternal` also finds engine-only fields. */
export function findColumn(entity: Entity, name: string, includeInternal = false): ColumnDef | undefined {
  const col = columnIndex.get(`${entity}:${name.trim().toLowerCase()}`);
  if (!col || (!includeInternal && col.visibility !== 'public')) return undefined;
  return col;
}

export function filterKeysOf(entity: Entity): readonly FilterKeyDef[] {
  return entity === 'contact' ? CONTACT_FILTER_KEYS : COMPANY_FILTER_KEYS;
}

export function findList(name: string): ClosedList | undefined {
  return LISTS[name];
}

const foldIndex = new Map<string, Map<string, string>>();
function foldMap(list: ClosedList): Map<string, string> {
  let m = foldIndex.get(list.name);
  if (!m) {
    m = new Map();
    for (const v of list.values) {
      for (const form of [v.slug, v.label, ...(v.aliases ?? [])]) m.set(foldKey(form), v.slug);
    }
    foldIndex.set(list.name, m);
  }
  return m;
}

/** Case, spacing, hyphen and underscore insensitive key used to fold labels and aliases to slugs. */
export function foldKey(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ');
}

/** Folds a value, label or alias of a static closed list to its slug; undefined when unknown. */
export function foldListValue(listName: string, input: string): string | undefined {
  const list = LISTS[listName];
  if (!list) return undefined;
  return foldMap(list).get(foldKey(input));
}

export function listValues(listName: string): readonly ListValue[] {
  return LISTS[listName]?.values ?? [];
}

/** The enrichment default column set, `id` first (spec "Contact (row)"). */
export const DEFAULT_CONTACT_COLUMNS: readonly string[] = CONTACT_COLUMNS.filter((c) => c.defaultSet).map(
  (c) => c.name,
);
/**
 * The columns of a contact card, in catalog order: the enrichment default set, the lookup columns, the columns
 * flagged `card` (first and last name, normalized company name: what the family B enrichments match on and
 * answer with) and sort_key. Each release's point store holds one card per contact, so a point read
 * (enrichment, the family B enrichments, the phone lookups) or an index page that asks only for these columns
 * reads one row of a row store instead of twenty columns of the columnar release (engine/duckdb/point-store).
 * Not every public column: `columns: ["*"]` would make a card about 4 times as big (1,676 bytes against 422 on
 * average at 1 M contacts), so those reads use the release's columns. A store records the layout it was written
 * with, so a change here never misreads an older release: reads its cards lack go to the release's columns.
 */
export const CONTACT_CARD_COLUMNS: readonly string[] = CONTACT_COLUMNS.filter(
  (c) => c.defaultSet || c.lookup || c.card || c.name === 'sort_key',
).map((c) => c.name);
/** The default columns of company search and lookup, `id` first. */
export const DEFAULT_COMPANY_COLUMNS: readonly string[] = COMPANY_COLUMNS.filter((c) => c.defaultSet).map(
  (c) => c.name,
);

/** The values route of a column with a list, or null. */
export function valuesRoute(col: ColumnDef): string | null {
  if (!col.list) return null;
  const list = LISTS[col.list];
  const name = col.entity === 'contact' && list?.routeName ? list.routeName : col.name;
  return `/v1/${col.entity === 'contact' ? 'contacts' : 'companies'}/schema/${name}/values`;
}

/** Resolves the `{column}` of a values route: a public column name, or a list's route name (industries). */
export function columnForValuesRoute(entity: Entity, name: string): ColumnDef | undefined {
  const direct = findColumn(entity, name);
  if (direct) return direct;
  const key = name.trim().toLowerCase();
  return publicColumns(entity).find((c) => c.list !== undefined && LISTS[c.list]?.routeName === key);
}
