import {
  type ColumnDef,
  DEFAULT_COMPANY_COLUMNS,
  DEFAULT_CONTACT_COLUMNS,
  type Entity,
  findColumn,
  publicColumns,
} from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';

/**
 * Output columns by name: omitted = the default set (contacts: the enrichment default set of the spec),
 * `["*"]` = every public column; `id` always first. Unknown names answer 400 listing the allowed names.
 */
export function resolveColumns(
  entity: Entity,
  requested: readonly string[] | undefined,
  field = 'columns',
): ColumnDef[] {
  const names =
    requested === undefined || requested.length === 0
      ? entity === 'contact'
        ? DEFAULT_CONTACT_COLUMNS
        : DEFAULT_COMPANY_COLUMNS
      : requested;
  if (names.length === 1 && names[0] === '*') return [...publicColumns(entity)];
  const out: ColumnDef[] = [findColumn(entity, 'id')!];
  names.forEach((name, i) => {
    const col = findColumn(entity, name);
    if (!col) {
      throw new AppError('request.invalid', `Unknown column ${JSON.stringify(name)}.`, {
        field: `${field}[${i}]`,
        hint: `Columns: ${publicColumns(entity)
          .map((c) => c.name)
          .join(', ')}; or ["*"] for all.`,
      });
    }
    if (!out.includes(col)) out.push(col);
  });
  return out;
}

/** True when shapeRow keeps every value of these columns as stored (none is a record column). */
export function shapedAsStored(columns: readonly ColumnDef[]): boolean {
  return columns.every((c) => c.storage !== 'JSON');
}

/** A stored row as the API returns it: record columns parsed from their JSON text, helper fields dropped. */
export function shapeRow(row: Record<string, unknown>, columns: readonly ColumnDef[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const col of columns) {
    const v = row[col.name];
    if (col.storage === 'JSON' && typeof v === 'string') {
      try {
        out[col.name] = JSON.parse(v);
      } catch {
        out[col.name] = v;
      }
    } else out[col.name] = v === undefined ? null : v;
  }
  return out;
}
