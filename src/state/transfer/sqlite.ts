import Database from 'better-sqlite3';
import { type StateRecord, TransferRefused } from './records.js';
import { EXPORTED_TABLES, UNEXPIRED } from './tables.js';

/**
 * The SQLite side of `cds state export|import`: generic, table by table and column by column (the transfer format
 * is the SQLite tables' rows).
 */

const EXPORTED = new Set<string>(EXPORTED_TABLES);

/** Every record of the SQLite state file, table by table; the row counts of skipped tables in `skipped`. */
export function* sqliteRecords(
  file: string,
  skipped: Record<string, number> = {},
  now = new Date(),
): Generator<StateRecord> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const held = db.prepare("SELECT count(*) AS n FROM holds WHERE status = 'held'").get() as { n: number };
    if (held.n > 0)
      throw new TransferRefused(`${held.n} credit holds are held (requests or jobs running): stop the servers first`);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
    for (const { name } of tables) {
      if (EXPORTED.has(name) || name === 'sqlite_sequence' || name === 'schema_version') continue;
      const n = (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
      if (n > 0) skipped[name] = n;
    }
    for (const table of EXPORTED_TABLES) {
      const [where, at] = UNEXPIRED[table]?.(now) ?? ['1 = 1', null];
      const rows = db.prepare(`SELECT * FROM "${table}" WHERE ${where}`);
      for (const row of (at === null ? rows.iterate() : rows.iterate(at)) as Iterable<Record<string, unknown>>)
        yield { entity: table, ...row };
    }
  } finally {
    db.close();
  }
}

/** True when the SQLite store holds accounts, opt-outs or audit records. */
export function sqliteHasState(file: string): boolean {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return ['accounts', 'optouts', 'optout_audit'].some((t) => db.prepare(`SELECT 1 FROM "${t}" LIMIT 1`).get());
  } finally {
    db.close();
  }
}

/**
 * Writes the records into the (migrated) SQLite state file in one transaction. `replace`: deletes every row of every
 * table first (SQLite's bookkeeping excepted). Entities and fields are checked against the file's own tables and
 * columns: nothing from the file is run as SQL.
 */
export async function sqliteImport(
  file: string,
  records: AsyncIterable<StateRecord>,
  replace: boolean,
): Promise<Record<string, number>> {
  const all: StateRecord[] = [];
  for await (const r of records) all.push(r);
  const db = new Database(file, { fileMustExist: true });
  const counts: Record<string, number> = {};
  try {
    db.pragma('foreign_keys = OFF');
    const columns = new Map<string, Set<string>>();
    for (const t of EXPORTED_TABLES)
      columns.set(t, new Set((db.pragma(`table_info("${t}")`) as { name: string }[]).map((c) => c.name)));
    db.transaction(() => {
      if (replace) {
        const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
        for (const { name } of tables)
          if (name !== 'schema_version' && name !== 'sqlite_sequence') db.prepare(`DELETE FROM "${name}"`).run();
        db.prepare('INSERT INTO optout_version (version) VALUES (0)').run();
      }
      for (const r of all) {
        const { entity, ...fields } = r;
        const cols = columns.get(entity);
        if (!cols) throw new TransferRefused(`unknown entity ${JSON.stringify(entity)}`);
        const names = Object.keys(fields);
        for (const n of names)
          if (!cols.has(n)) throw new TransferRefused(`${entity} has no field ${JSON.stringify(n)}`);
        if (entity === 'optout_version') db.prepare('UPDATE optout_version SET version = ?').run(fields.version);
        else
          db.prepare(
            `INSERT INTO "${entity}" (${names.map((n) => `"${n}"`).join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
          ).run(...names.map((n) => fields[n]));
        counts[entity] = (counts[entity] ?? 0) + 1;
      }
    })();
  } finally {
    db.close();
  }
  return counts;
}
