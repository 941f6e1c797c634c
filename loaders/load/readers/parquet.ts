import { basename, join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/** Whether a dump is Parquet (the format vendors and warehouses hand over). */
export const isParquet = (file: string): boolean => /\.parquet$/i.test(file);

/**
 * A Parquet dump as JSON Lines the load pipeline reads (the same validation, normalization, bad-row report and
 * progress as any dump): DuckDB reads the Parquet file and writes one JSON object per row, nested lists and
 * structs as JSON arrays and objects, into `dir` (the load's staging folder). Row N of the Parquet file is line
 * N of the JSON Lines file, so rejects name the row.
 */
export async function parquetAsJsonLines(file: string, dir: string): Promise<string> {
  const out = join(dir, `${basename(file)}.jsonl`);
  const instance = await DuckDBInstance.create(':memory:', { threads: '2' });
  const conn = await instance.connect();
  try {
    await conn.run('COPY (SELECT * FROM read_parquet($1)) TO $2 (FORMAT json)', [file, out]);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
  return out;
}
