import { DuckDBInstance } from '@duckdb/node-api';
import { plainRows } from '../../src/engine/duckdb/rows.js';

/**
 * The rows of a built DuckDB release file, table by table in sort_key order, in batches (keyset on sort_key): what
 * the Elasticsearch writer indexes, so both engines serve the same rows (one build: duplicates, suppression,
 * employer join, sort keys, contact counts).
 */
export async function* releaseRows(
  file: string,
  table: 'contacts' | 'companies',
  batch = 5_000,
): AsyncGenerator<Record<string, unknown>[]> {
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    let after = 0;
    for (;;) {
      const rows = plainRows(
        await conn.runAndReadAll(`SELECT * FROM ${table} WHERE sort_key > $1 ORDER BY sort_key LIMIT $2`, [
          after,
          batch,
        ]),
      );
      if (rows.length === 0) return;
      yield rows;
      after = Number(rows[rows.length - 1]!.sort_key);
      if (rows.length < batch) return;
    }
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}

/** Rows of a table. */
export async function tableRows(file: string, table: 'contacts' | 'companies'): Promise<number> {
  const inst = await DuckDBInstance.create(file, { access_mode: 'READ_ONLY' });
  const conn = await inst.connect();
  try {
    return Number(plainRows(await conn.runAndReadAll(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
  } finally {
    conn.closeSync();
    inst.closeSync();
  }
}
