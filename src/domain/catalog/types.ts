/** Catalog types: every column, filter key and closed list is declared once with these shapes. */

/** Frozen schema-descriptor column types (spec "Schema descriptors"). */
export type ColumnType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'month' | 'array' | 'object';
/** Frozen schema-descriptor filter-key types. */
export type FilterKeyType = 'list' | 'string' | 'boolean' | 'integer' | 'month';
/** Which `where` operators a column takes (spec "Operator rules by column kind"). */
export type ColumnKind = 'text' | 'date' | 'number' | 'bool' | 'list' | 'record';
/** How the engine stores the column. */
export type StorageType = 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN' | 'VARCHAR[]' | 'JSON';

export type Entity = 'contact' | 'company';

export interface ListValue {
  slug: string;
  label: string;
  /** Extra accepted spellings, folded to `slug` case-insensitively. */
  aliases?: readonly string[];
}

export interface ClosedList {
  name: string;
  description: string;
  /** Values known up front; data-derived lists (skills, languages, technologies) have none and read the release. */
  values: readonly ListValue[];
  /** true: values come from the data release, any stored value is valid. */
  fromData?: boolean;
  /** Name used in the contacts values route when it differs from the column name (industries). */
  routeName?: string;
}

export interface ColumnDef {
  /** Internal and family A name; also the engine field. */
  name: string;
  entity: Entity;
  type: ColumnType;
  kind: ColumnKind;
  storage: StorageType;
  /** Display label (MCP answers, family B CSV headers, family B `columns`). */
  label: string;
  description: string;
  format?: string;
  nullable: boolean;
  /** Closed list this column's values come from. */
  list?: string;
  /** public: listed by the schema routes; internal: engine-only helper field. */
  visibility: 'public' | 'internal';
  /** Member of the enrichment default column set (contacts). */
  defaultSet?: boolean;
  /** Expected share of rows with a value in the synthetic data (for demos and fill_share checks). */
  fill: number;
  /** Lookup column: an identifier point reads ask by (enrichment, the lookup routes); engines index it. */
  lookup?: boolean;
  /**
   * Kept on the contact card (CONTACT_CARD_COLUMNS) beyond the default set and the lookup columns: a column point
   * reads match on or answer with (the family B enrichments' names and normalized company name).
   */
  card?: boolean;
  /** What credits buy (work email, phones): filters take presence and exact-set membership only (contact-points.ts). */
  contactPoint?: boolean;
  /** Internal column holding this column's words key (domain/text/words), for whole-word matching. */
  words?: string;
  /**
   * Substring search (`contains`) on it is common and engines index it for that: true, by the three-character
   * substrings of every row's value and by its distinct values (names); 'values', by its distinct values only (few
   * of them for the rows: locations, employer names), each tested for the substring.
   */
  substrings?: boolean | 'values';
}

/** How a flat filter key compiles into the Query IR. */
export type FilterMatch =
  | 'any_of' // column value (or list element) in values
  | 'none_of' // NOT any_of
  | 'min' // column >= value
  | 'max' // column <= value
  | 'after' // column > value
  | 'before' // column < value
  | 'present' // boolean: true -> column not empty, false -> empty
  | 'phrase' // whole-word phrase match (title_query)
  | 'option'; // modifies other keys (include_secondary_roles)

/**
 * Where a filter key sits in a filter form (the console's audience builder groups by it). The groups' titles and help
 * are presentation and live in web/filter-labels.js; which group a key belongs to is the catalog's.
 */
export type FilterGroup = 'person' | 'job' | 'company' | 'contact' | 'signals' | 'exclusions';

export interface FilterKeyDef {
  key: string;
  entity: Entity;
  type: FilterKeyType;
  description: string;
  /** Column the key reads; null for a derived key. */
  column: string | null;
  match: FilterMatch;
  /** The `exclude_*` twin of an include key. */
  excludes: string | null;
  /** Closed list the values belong to. */
  list?: string;
  aliases: readonly string[];
  /** Maximum number of values (lists). */
  maxValues?: number;
  /** Input normalization applied to every value before matching. */
  normalize?: 'country' | 'domain' | 'company_name' | 'industry' | 'lowercase' | 'company_id' | 'none';
  /** Display label: the plain words a person reads for the key (never the API key). */
  label: string;
  group: FilterGroup;
  /** A short help line under the label (the description stays the longer, API-facing text). */
  help?: string;
  /** The exclude_* key a form shows beside this include key (in the same group). */
  pair?: string;
  /** The key holding the upper bound of the range this key starts (a _min or _after key): one field in a form. */
  rangeEnd?: string;
}
