import { type ColumnDef, columnsOf, type Entity, type StorageType } from '../../domain/catalog/index.js';

/**
 * DuckDB tables, generated from the catalog (ARCHITECTURE rule 1): adding a column to the catalog adds
 * it here. Record columns (`JSON` storage) are VARCHAR holding JSON text, so no extension is needed to
 * read them and `contains` on the text works directly.
 */

export const TABLE: Readonly<Record<Entity, string>> = { contact: 'contacts', company: 'companies' };

const DUCKDB_TYPE: Readonly<Record<StorageType, string>> = {
  VARCHAR: 'VARCHAR',
  BIGINT: 'BIGINT',
  DOUBLE: 'DOUBLE',
  BOOLEAN: 'BOOLEAN',
  'VARCHAR[]': 'VARCHAR[]',
  JSON: 'VARCHAR',
};

export function duckdbType(storage: StorageType): string {
  return DUCKDB_TYPE[storage];
}

/** Double-quoted identifier; catalog names are plain snake_case but `function` is a keyword. */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function columnDdl(col: ColumnDef): string {
  return `${ident(col.name)} ${duckdbType(col.storage)}${col.nullable ? '' : ' NOT NULL'}`;
}

export function createTableSql(entity: Entity, table: string = TABLE[entity]): string {
  return `CREATE TABLE ${ident(table)} (\n  ${columnsOf(entity).map(columnDdl).join(',\n  ')}\n)`;
}

export const META_TABLE = 'meta';

export function createMetaSql(): string {
  return `CREATE TABLE ${META_TABLE} (key VARCHAR PRIMARY KEY, value VARCHAR NOT NULL)`;
}

/** Every statement that creates an empty release database. */
export function releaseDdl(): string[] {
  return [createTableSql('company'), createTableSql('contact'), createMetaSql()];
}

/** ART indexes on the catalog's lookup columns, built once a release's tables are written. */
export function lookupColumnIndexDdl(): string[] {
  return (['contact', 'company'] as const).flatMap((entity) =>
    columnsOf(entity)
      .filter((c) => c.lookup)
      .map(
        (c) => `CREATE INDEX ${ident(`${TABLE[entity]}_${c.name}_idx`)} ON ${ident(TABLE[entity])} (${ident(c.name)})`,
      ),
  );
}
