import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { ColumnDef, StorageType } from '../../src/domain/catalog/index.js';
import { ident } from '../../src/engine/duckdb/schema.js';

/**
 * Bulk staging of normalized rows: rows are serialized as JSON Lines into files of `rowsPerFile` rows,
 * and each file is inserted with DuckDB's own JSON reader with explicit column types.
 *
 * Why this path (measured on 2 cores, 100k rows of 50 columns): appending value by value through the
 * appender took 14.5 s, data chunks 4.6 s, CSV staging 5.8 s, JSON Lines staging 3.9 s. JSON.stringify
 * is native and handles lists and nested records in one call; DuckDB parses the file on its own threads
 * while JavaScript builds the next file, so the two overlap instead of adding up.
 */

/** Type a staged value has in the JSON file; records stay JSON and are stored as their text. */
const STAGE_TYPE: Readonly<Record<StorageType, string>> = {
  VARCHAR: 'VARCHAR',
  BIGINT: 'BIGINT',
  DOUBLE: 'DOUBLE',
  BOOLEAN: 'BOOLEAN',
  'VARCHAR[]': 'VARCHAR[]',
  JSON: 'JSON',
};

export interface StageColumn {
  name: string;
  storage: StorageType;
}

export function stageColumns(cols: readonly ColumnDef[], extra: StageColumn[] = []): StageColumn[] {
  return [...cols.map((c) => ({ name: c.name, storage: c.storage })), ...extra];
}

export function stagingDdl(table: string, cols: readonly StageColumn[]): string {
  const body = cols.map((c) => `${ident(c.name)} ${c.storage === 'JSON' ? 'VARCHAR' : STAGE_TYPE[c.storage]}`).join(', ');
  return `CREATE TABLE ${table} (${body})`;
}

export class StagingTable {
  private buf: string[] = [];
  private files = 0;
  private pending: Promise<void> = Promise.resolve();
  private readonly columnsSpec: string;
  rows = 0;

  constructor(
    private readonly conn: DuckDBConnection,
    private readonly dir: string,
    /** Qualified table name, e.g. `stg.people`. */
    private readonly table: string,
    cols: readonly StageColumn[],
    private readonly rowsPerFile = 50_000,
  ) {
    this.columnsSpec = `{${cols.map((c) => `'${c.name}': '${STAGE_TYPE[c.storage]}'`).join(', ')}}`;
  }

  /** Buffers one row; resolves at once unless a file is due, then after the previous insert finished. */
  add(row: Record<string, unknown>): Promise<void> | undefined {
    this.buf.push(JSON.stringify(row));
    this.rows++;
    return this.buf.length >= this.rowsPerFile ? this.flush() : undefined;
  }

  private async flush(): Promise<void> {
    if (this.buf.length === 0) return;
    const file = join(this.dir, `${this.table.replace(/\W/g, '_')}-${this.files++}.jsonl`);
    const text = this.buf.join('\n');
    this.buf = [];
    // One insert in flight at a time: bounds memory and keeps the DuckDB threads busy while JS reads on.
    await this.pending;
    await writeFile(file, text);
    this.pending = this.insert(file);
    // Surface an insert failure on the next flush or finish, not as an unhandled rejection.
    this.pending.catch(() => undefined);
  }

  private async insert(file: string): Promise<void> {
    await this.conn.run(
      `INSERT INTO ${this.table} SELECT * FROM read_json('${file.replace(/'/g, "''")}', format = 'newline_delimited', columns = ${this.columnsSpec}, maximum_object_size = 67108864)`,
    );
    await rm(file, { force: true });
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.pending;
  }
}
