import { type Entity, publicColumns } from '../../domain/catalog/index.js';
import { ident, TABLE } from './schema.js';

/**
 * One scan counting, for every public column, the rows holding a value (non-null, non-empty text, list or
 * record), with the same notion of "has a value" as the IR's `exists`. Names come from the catalog only.
 */
export function populatedCountsSql(entity: Entity): string {
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
  return `SELECT count(*) AS __rows, ${parts.join(', ')} FROM ${ident(TABLE[entity])}`;
}
