import type { IRNode } from '../query/ir.js';

/** Spec "Limits": where_sql length. */
export const WHERE_SQL_MAX_CHARS = 4000;
/** Conditions (leaves: comparisons, LIKE, IN, IS NULL, …) in one where_sql; family A's `where` stops at the same. */
export const WHERE_SQL_MAX_CONDITIONS = 25;

/**
 * The family B `where_sql` parser port: the client's condition into the Query IR, checked against an allow-list
 * of columns and operators, never executed. Every refusal is an AppError (400 `request.invalid` on field
 * `where_sql`, or `filter.unknown_value`). The embedded engine's adapter parses with DuckDB's own parser
 * (src/engine/duckdb/where-sql); a deployment on another engine may bring its own.
 */
export interface WhereSqlParser {
  parse(text: string): Promise<IRNode>;
  close(): Promise<void>;
}
