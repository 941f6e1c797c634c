import { renameSync } from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { currentRelease, releaseFile } from '../../src/engine/duckdb/release-store.js';
import { ident, lookupColumnIndexDdl, META_TABLE, releaseDdl, TABLE } from '../../src/engine/duckdb/schema.js';

/**
 * Rewrites the serving release of `dataDir` with row groups of `rows` rows (a multiple of 2,048), same
 * tables, rows, id and indexes. A small seeded release then has the physical shape of a large one (many
 * row groups, scanned in parallel), so tests see what multi-threaded scans do at 1 M contacts.
 */
export async function splitIntoRowGroups(dataDir: string, rows = 2048): Promise<number> {
  const current = currentRelease(dataDir);
  if (!current) throw new Error(`no serving release in ${dataDir}`);
  const file = releaseFile(dataDir, current.id);
  const tmp = `${file}.row-groups`;
  const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
  const c = await inst.connect();
  try {
    await c.run(`ATTACH '${file}' AS src (READ_ONLY)`);
    await c.run(`ATTACH '${tmp}' AS dst (ROW_GROUP_SIZE ${rows})`);
    await c.run('USE dst');
    for (const sql of releaseDdl()) await c.run(sql);
    for (const table of [...Object.values(TABLE), META_TABLE]) {
      const order = table === META_TABLE ? '' : ' ORDER BY sort_key';
      await c.run(`INSERT INTO dst.${ident(table)} SELECT * FROM src.${ident(table)}${order}`);
    }
    for (const sql of lookupColumnIndexDdl()) await c.run(sql);
    const groups = await c.runAndReadAll(
      `SELECT count(DISTINCT row_group_id) AS n FROM pragma_storage_info('dst.contacts')`,
    );
    await c.run('USE memory');
    await c.run('DETACH dst');
    renameSync(tmp, file);
    return Number(groups.getRowObjects()[0]?.n);
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}
