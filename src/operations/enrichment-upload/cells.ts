import type { ColumnDef } from '../../domain/catalog/index.js';

/**
 * A contact value as one CSV cell of an enrichment result, as the engine's export writes it: lists joined with
 * `; `, records as their JSON text, numbers and booleans as they print, null empty (the CSV writer neutralizes
 * and quotes the text).
 */
export function contactCell(col: ColumnDef, value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (Array.isArray(value)) return col.storage === 'JSON' ? JSON.stringify(value) : value.map(String).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
