import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { plainRows } from './rows.js';

/**
 * DuckDB's own SQL parser for family B `where_sql` (ARCHITECTURE rule 2): an in-memory instance with no
 * tables, external access off, used only to run `json_serialize_sql` on a bound string. Client text is a
 * parameter here, never a statement.
 */
export class SqlParser {
  private conn: Promise<DuckDBConnection> | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  private connection(): Promise<DuckDBConnection> {
    this.conn ??= (async () => {
      const inst = await DuckDBInstance.create(':memory:', { threads: '1', enable_external_access: 'false', lock_configuration: 'true' });
      return inst.connect();
    })();
    return this.conn;
  }

  /** Runs one parser query at a time on the one connection. */
  run = (sql: string, params: unknown[]): Promise<Record<string, unknown>[]> => {
    const next = this.chain.then(async () => {
      const c = await this.connection();
      return plainRows(await c.runAndReadAll(sql, params as never));
    });
    this.chain = next.catch(() => undefined);
    return next;
  };

  async close(): Promise<void> {
    if (this.conn) (await this.conn).closeSync();
    this.conn = null;
  }
}
