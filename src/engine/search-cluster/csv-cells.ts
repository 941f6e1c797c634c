import type { ColumnDef } from '../../domain/catalog/index.js';
import { textCell } from '../../domain/text/csv-cell.js';

/**
 * CSV cells exactly as the DuckDB engine's export writes them (engine/duckdb/export-csv.ts, DuckDB's COPY): text,
 * list (elements joined with `; `) and record (JSON text) cells always quoted (RFC 4180, quotes doubled) and
 * neutralized against formula injection by the rule of every CSV writer (domain/text/csv-cell.ts); numbers and
 * booleans as printed, never quoted; null empty.
 */

export function csvCell(col: ColumnDef, v: unknown): string {
  if (v === null || v === undefined) return '';
  switch (col.storage) {
    case 'VARCHAR':
    case 'JSON':
      return textCell(typeof v === 'string' ? v : JSON.stringify(v));
    case 'VARCHAR[]':
      return textCell(
        (Array.isArray(v) ? v : [v])
          .filter((x) => x !== null && x !== undefined)
          .map(String)
          .join('; '),
      );
    case 'DOUBLE':
      return typeof v === 'number' && Number.isInteger(v) ? v.toFixed(1) : String(v);
    case 'BIGINT':
    case 'BOOLEAN':
      return String(v);
  }
}
