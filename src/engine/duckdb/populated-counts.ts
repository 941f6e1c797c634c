import type { DuckDBValue } from '@duckdb/node-api';
import { type Entity, publicColumns } from '../../domain/catalog/index.js';
import { Params } from './compile/params.js';
import { ident, TABLE } from './schema.js';
import { keptSql, type Suppressed } from './suppression/suppressed.js';

/**
 * One scan counting, for every public column, the rows holding a value (non-null, non-empty text, list or
 * record), with the same notion of "has a value" as the IR's `exists`. Names come from the catalog only. Suppressed
 * contacts are not counted (a company's columns hold a value whatever its contacts: its contact_count is never null).
 */
export function populatedCountsSql(
  entity: Entity,
  sup: Suppressed | null = null,
): { sql: string; params: DuckDBValue[] } {
  const parts = publicColumns(entity).map((c) => {
    const col = ident(c.name);
    const has =
      c.storage === 'VARCHAR[]'
        ? `${col} IS NOT NULL AND len(${col}) > 0`
        : c.storage === 'VARCHAR' || c.storage === 'JSON'
          ? `${col} IS NOT NULL AND ${col} NOT IN ('', '[]', '{}', 'null')`
          : `${col} IS NOT NULL`;
    return `count_if(${has}) AS ${ident(c.name)}`;
  });
  const p = new Params();
  const where = entity === 'contact' && sup ? ` WHERE ${keptSql(sup.contactsBits, p)}` : '';
  return {
    sql: `SELECT count(*) AS __rows, ${parts.join(', ')} FROM ${ident(TABLE[entity])}${where}`,
    params: p.values,
  };
}
