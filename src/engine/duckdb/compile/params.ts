import { type DuckDBValue, listValue } from '@duckdb/node-api';

/** Collects bound parameters; SQL text only ever holds `$n` placeholders, never client values. */
export class Params {
  readonly values: DuckDBValue[] = [];

  add(value: string | number | boolean): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** A value of its own DuckDB type (a BIT set of rows, suppression/suppressed.ts). */
  addValue(value: DuckDBValue): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  addList(
    values: ReadonlyArray<string | number | boolean>,
    elementType: 'VARCHAR' | 'BIGINT' | 'DOUBLE' | 'BOOLEAN',
  ): string {
    this.values.push(listValue([...values]));
    return `$${this.values.length}::${elementType}[]`;
  }
}
