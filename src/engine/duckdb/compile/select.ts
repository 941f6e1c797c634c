import type { Entity } from '../../../domain/catalog/index.js';
import type { IRNode } from '../../../domain/query/ir.js';
import { ident, TABLE } from '../schema.js';
import { compileWhere } from './compile-where.js';
import { Params } from './params.js';
import type { DuckDBValue } from '@duckdb/node-api';

export interface CompiledQuery {
  sql: string;
  params: DuckDBValue[];
}

export function countQuery(entity: Entity, where: IRNode): CompiledQuery {
  const p = new Params();
  const pred = compileWhere(entity, where, p);
  return { sql: `SELECT count(*) AS n FROM ${ident(TABLE[entity])} WHERE ${pred}`, params: p.values };
}

/**
 * One page in the stable total order of the release (`sort_key`, ascending contact/company id), by keyset:
 * rows after `afterSortKey`. Tables are written physically in sort_key order and DuckDB preserves insertion
 * order, so LIMIT stops the scan early instead of sorting every match; the outer ORDER BY only orders the page.
 */
export function pageQuery(entity: Entity, where: IRNode, columns: readonly string[], afterSortKey: number | null, limit: number, offset = 0): CompiledQuery {
  const p = new Params();
  const pred = compileWhere(entity, where, p);
  const after = afterSortKey === null ? '' : ` AND sort_key > ${p.add(afterSortKey)}`;
  const cols = [...new Set([...columns, 'sort_key'])].map(ident).join(', ');
  const skip = offset > 0 ? ` OFFSET ${p.add(offset)}` : '';
  const inner = `SELECT ${cols} FROM ${ident(TABLE[entity])} WHERE ${pred}${after} LIMIT ${p.add(limit)}${skip}`;
  return { sql: `SELECT * FROM (${inner}) ORDER BY sort_key`, params: p.values };
}
