import type { estypes } from '@elastic/elasticsearch';
import { type ColumnDef, columnsOf, type Entity } from '../../domain/catalog/index.js';
import { DATE, IGNORE_ABOVE, LOWER, SHA256_FIELD, WORDS } from './schema.js';

/**
 * The index mappings and settings of a release, generated from the catalog (the single source of columns); the
 * checked-in `index-mappings/*.json` are this output, and test/engine/search-cluster/mappings.test.ts fails when they
 * drift or when a catalog column has no field of its storage's type.
 *
 * Per storage (src/domain/catalog/define.ts SHAPES):
 * - VARCHAR text: `keyword` (exact, case-sensitive, as DuckDB's `=`), with `.lower` (keyword, lowercase
 *   normalizer: `contains` and `prefix` are case-insensitive) and, on the columns marked for whole-word matching
 *   (hasWordsField), `.words` (text, the `cds_words` analyzer: runs of letters and digits, lowercased, so
 *   `match_phrase` is the IR's whole-word `words`, punctuation between words allowed). A `date` column (YYYY-MM-DD) also has `.date` (`date`, strict_date) for ranges; a month
 *   (YYYY-MM) stays a keyword, whose range is lexicographic, as DuckDB compares the text.
 * - VARCHAR[] lists: `keyword` arrays with the same `.lower` (and `.words`); `position_increment_gap` keeps a phrase
 *   inside one element.
 * - JSON records: the JSON text as a `keyword` (not indexed as an object, so `dynamic: strict` holds) with `.lower`
 *   for `contains` on the text, as DuckDB reads it.
 * - BIGINT `long`, DOUBLE `double`, BOOLEAN `boolean`; `sort_key` (long) is the index sort.
 */

export type FieldType = 'keyword' | 'text' | 'long' | 'double' | 'boolean' | 'date';

/** The type of a catalog column's main field. */
export function mainFieldType(col: ColumnDef): FieldType {
  switch (col.storage) {
    case 'BIGINT':
      return 'long';
    case 'DOUBLE':
      return 'double';
    case 'BOOLEAN':
      return 'boolean';
    default:
      return 'keyword';
  }
}

/**
 * Whether a column has the `.words` sub-field: the columns the catalog marks for whole-word matching (a `words`
 * companion: the title and the secondary titles), the only ones the filter languages send `words` leaves to. Analyzing
 * every text column (descriptions included) would roughly double the index for no query.
 */
export const hasWordsField = (col: ColumnDef): boolean =>
  col.words !== undefined && (col.storage === 'VARCHAR' || col.storage === 'VARCHAR[]');

/** Whether the column's text is indexed for `contains` and `prefix` (every text, list and record column). */
export const isTextual = (col: ColumnDef): boolean =>
  col.storage === 'VARCHAR' || col.storage === 'VARCHAR[]' || col.storage === 'JSON';

function property(col: ColumnDef): estypes.MappingProperty {
  const type = mainFieldType(col);
  if (type !== 'keyword') return { type } as estypes.MappingProperty;
  const fields: Record<string, estypes.MappingProperty> = {
    [LOWER]: { type: 'keyword', normalizer: 'cds_lowercase', ignore_above: IGNORE_ABOVE },
  };
  if (hasWordsField(col)) fields[WORDS] = { type: 'text', analyzer: 'cds_words', position_increment_gap: 100 };
  if (col.kind === 'date') fields[DATE] = { type: 'date', format: 'strict_date' };
  return {
    type: 'keyword',
    ignore_above: IGNORE_ABOVE,
    ...(col.storage === 'JSON' ? { doc_values: false } : {}),
    fields,
  };
}

/** Analysis shared by both indices. */
export const ANALYSIS: estypes.IndicesIndexSettingsAnalysis = {
  normalizer: { cds_lowercase: { type: 'custom', filter: ['lowercase'] } },
  tokenizer: { cds_words: { type: 'pattern', pattern: '[^\\p{L}\\p{N}]+' } },
  analyzer: { cds_words: { type: 'custom', tokenizer: 'cds_words', filter: ['lowercase'] } },
};

/**
 * `from + size` a search may reach: family B pages walk the first 50,000 matches by offset and ask one row more than
 * they return (whether more rows follow), so a last page reaches row 50,001.
 */
export const MAX_RESULT_WINDOW = 50_001;

/** An index's mappings: every catalog column (internal ones included) and the engine-only fields. */
export function indexMappings(entity: Entity): estypes.MappingTypeMapping {
  const properties: Record<string, estypes.MappingProperty> = {};
  for (const col of columnsOf(entity)) properties[col.name] = property(col);
  if (entity === 'contact') properties[SHA256_FIELD] = { type: 'keyword' };
  return { dynamic: 'strict', properties };
}

/** Settings of a release index; `shards` and `replicas` come from configuration when created. */
export function indexSettings(shards = 1, replicas = 1): estypes.IndicesIndexSettings {
  return {
    number_of_shards: shards,
    number_of_replicas: replicas,
    max_result_window: MAX_RESULT_WINDOW,
    sort: { field: 'sort_key', order: 'asc' },
    analysis: ANALYSIS,
  };
}

/** What `index-mappings/<name>.json` holds for an entity. */
export function indexDefinition(entity: Entity): {
  settings: estypes.IndicesIndexSettings;
  mappings: estypes.MappingTypeMapping;
} {
  return { settings: indexSettings(), mappings: indexMappings(entity) };
}

/** The field a mapping gives a path (`title`, `title.words`, `role_since.date`), or undefined. */
export function mappedField(mappings: estypes.MappingTypeMapping, path: string): { type: string } | undefined {
  const [head, sub] = path.split('.', 2) as [string, string | undefined];
  const prop = mappings.properties?.[head] as { type?: string; fields?: Record<string, { type?: string }> } | undefined;
  if (!prop?.type) return undefined;
  if (sub === undefined) return { type: prop.type };
  const f = prop.fields?.[sub];
  return f?.type ? { type: f.type } : undefined;
}
