import type { FieldKind } from '../source-fields.js';

/**
 * Turns a CSV row into a source record: cells are typed by the field kinds of the dump format. Lists
 * come as JSON text or `a;b;c`; objects as JSON text; a dotted header (`job_location.city`) builds a
 * nested object. An empty cell is an absent value. A cell that does not fit its kind stays a string,
 * so validation reports it with the field name.
 */

const TRUE = new Set(['true', '1', 'yes', 'y', 't']);
const FALSE = new Set(['false', '0', 'no', 'n', 'f']);

function typedCell(cell: string, kind: FieldKind | undefined): unknown {
  switch (kind) {
    case 'number': {
      const n = Number(cell.trim());
      return cell.trim() !== '' && Number.isFinite(n) ? n : cell;
    }
    case 'boolean': {
      const b = cell.trim().toLowerCase();
      return TRUE.has(b) ? true : FALSE.has(b) ? false : cell;
    }
    case 'strings': {
      const t = cell.trim();
      if (t.startsWith('[')) return parseJsonCell(t);
      return t
        .split(';')
        .map((s) => s.trim())
        .filter((s) => s !== '');
    }
    case 'object':
    case 'objects':
      return parseJsonCell(cell.trim());
    default:
      return cell;
  }
}

class CellError extends Error {}

function parseJsonCell(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CellError('invalid JSON');
  }
}

export function csvRowToRecord(
  header: readonly string[],
  cells: readonly string[],
  fields: Readonly<Record<string, FieldKind>>,
): { record: Record<string, unknown> } | { error: string } {
  if (cells.length !== header.length) {
    return { error: `expected ${header.length} cells, found ${cells.length}` };
  }
  const record: Record<string, unknown> = {};
  for (let i = 0; i < header.length; i++) {
    const cell = cells[i]!;
    if (cell === '') continue;
    const name = header[i]!;
    const dot = name.indexOf('.');
    try {
      if (dot > 0) {
        const parent = name.slice(0, dot);
        record[parent] ??= {};
        const nested = record[parent] as Record<string, unknown>;
        if (typeof nested === 'object' && nested !== null && !Array.isArray(nested)) nested[name.slice(dot + 1)] = cell;
      } else {
        record[name] = typedCell(cell, fields[name]);
      }
    } catch (e) {
      if (e instanceof CellError) return { error: `${name}: ${e.message}` };
      throw e;
    }
  }
  return { record };
}
