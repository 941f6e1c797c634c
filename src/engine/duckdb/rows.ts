import { type DuckDBResultReader, type DuckDBValueConverter, JSDuckDBValueConverter } from '@duckdb/node-api';

/** JS value of a cell as the rest of the service sees it: strings, numbers, booleans, arrays, objects, null. */
export type PlainValue = string | number | boolean | null | PlainValue[] | { [k: string]: PlainValue } | Date;

/**
 * The driver's JS converter, except integers: BIGINT (counts, catalog `int` columns) becomes a number,
 * since every stored integer (counts, USD amounts, years) stays far below 2^53. Nested values recurse
 * through this converter, so list elements get the same rule.
 */
const plainConverter: DuckDBValueConverter<PlainValue> = (value, type, converter) => {
  const v = (JSDuckDBValueConverter as unknown as DuckDBValueConverter<unknown>)(
    value,
    type,
    converter as DuckDBValueConverter<unknown>,
  );
  return (typeof v === 'bigint' ? Number(v) : v) as PlainValue;
};

export function plainRows(reader: DuckDBResultReader): Record<string, unknown>[] {
  return reader.convertRowObjects(plainConverter);
}
