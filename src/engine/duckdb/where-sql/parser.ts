import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import type { WhereSqlParser } from '../../../domain/family-b/where-sql.js';
import type { IRNode } from '../../../domain/query/ir.js';
import { plainRows } from '../rows.js';
import { parseWhereSql } from './parse-where-sql.js';

const PARSED_MAX = 1000;

/**
 * The WhereSqlParser of the embedded engine: DuckDB's own SQL parser on an in-memory instance with no tables and
 * external access off, used only to run `json_serialize_sql` on a bound string. Client text is a parameter here,
 * never a statement.
 */
export class DuckDBWhereSqlParser implements WhereSqlParser {
  private conn: Promise<DuckDBConnection> | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  private connection(): Promise<DuckDBConnection> {
    this.conn ??= (async () => {
      const inst = await DuckDBInstance.create(':memory:', {
        threads: '1',
        enable_external_access: 'false',
        lock_configuration: 'true',
      });
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

  /** Parsed conditions by text: a dashboard repeats the same where_sql, and parsing costs a DuckDB round trip. */
  private readonly parsed = new Map<string, IRNode>();

  async parse(text: string): Promise<IRNode> {
    const hit = this.parsed.get(text);
    if (hit) return structuredClone(hit);
    const ir = await parseWhereSql(text, this.run);
    if (this.parsed.size >= PARSED_MAX) this.parsed.delete(this.parsed.keys().next().value as string);
    this.parsed.set(text, structuredClone(ir));
    return ir;
  }

  async close(): Promise<void> {
    if (this.conn) (await this.conn).closeSync();
    this.conn = null;
  }
}
