import type { ColumnDef } from '../../domain/catalog/index.js';

/**
 * CSV cells exactly as the DuckDB engine's export writes them (engine/duckdb/export-csv.ts, DuckDB's COPY): text,
 * list (elements joined with `; `) and record (JSON text) cells always quoted (RFC 4180, quotes doubled) and
 * neutralized against formula injection (a leading `'` when the first non-space character is `=`, `+`, `-` or `@`, or
 * the cell starts with a tab or CR, and before such a character after a `;`); numbers and booleans as printed, never
 * quoted; null empty.
 */

/** RE2's `\s`, which DuckDB's regular expressions use: tab, newline, form feed, CR, space. */
const FORMULA_START = /^([\t\n\f\r ]*[=+\-@]|[\t\r])/;
const AFTER_SEMICOLON = /;([\t\n\f\r ]*)([=+\-@])/g;

export function neutralize(text: string): string {
  const inner = text.replace(AFTER_SEMICOLON, ";$1'$2");
  return FORMULA_START.test(text) ? `'${inner}` : inner;
}

/** Header cells are quoted only when they must be. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

export function csvCell(col: ColumnDef, v: unknown): string {
  if (v === null || v === undefined) return '';
  switch (col.storage) {
    case 'VARCHAR':
    case 'JSON':
      return quoted(neutralize(typeof v === 'string' ? v : JSON.stringify(v)));
    case 'VARCHAR[]':
      return quoted(
        neutralize(
          (Array.isArray(v) ? v : [v])
            .filter((x) => x !== null && x !== undefined)
            .map(String)
            .join('; '),
        ),
      );
    case 'DOUBLE':
      return typeof v === 'number' && Number.isInteger(v) ? v.toFixed(1) : String(v);
    case 'BIGINT':
    case 'BOOLEAN':
      return String(v);
  }
}
