import { type ColumnDef, DEFAULT_CONTACT_COLUMNS, findColumn, publicColumns } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';

const byLabel = new Map(publicColumns('contact').map((c) => [c.label.toLowerCase(), c]));

/**
 * Family B `columns`: display labels or internal names (case-insensitive); omitted = the default set plus
 * the public columns the filters read. `id` is always first.
 */
export function familyBColumns(requested: unknown, filteredFields: readonly string[]): ColumnDef[] {
  const out: ColumnDef[] = [findColumn('contact', 'id')!];
  const add = (c: ColumnDef | undefined) => {
    if (c && !out.includes(c)) out.push(c);
  };
  if (requested === undefined || requested === null || (Array.isArray(requested) && requested.length === 0)) {
    for (const n of [...DEFAULT_CONTACT_COLUMNS, ...filteredFields]) add(findColumn('contact', n));
    return out;
  }
  const list = typeof requested === 'string' ? requested.split(',') : requested;
  if (!Array.isArray(list))
    throw new AppError('request.invalid', 'columns must be an array of column names or labels.', { field: 'columns' });
  list.forEach((raw, i) => {
    const name = typeof raw === 'string' ? raw.trim() : '';
    const col = findColumn('contact', name) ?? byLabel.get(name.toLowerCase());
    if (!col) {
      throw new AppError('request.invalid', `Unknown column ${JSON.stringify(raw)}.`, {
        field: `columns[${i}]`,
        hint: 'Use a column name or display label from get_available_columns or GET /v1/contacts/schema.',
      });
    }
    add(col);
  });
  return out;
}
