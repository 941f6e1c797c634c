import type { DuckDBConnection } from '@duckdb/node-api';
import { EMPLOYER_COLUMNS } from '../../../domain/catalog/employer-columns.js';
import { COMPANY_COLUMNS, CONTACT_COLUMNS } from '../../../domain/catalog/index.js';
import { ident, META_TABLE, TABLE } from '../schema.js';
import { BASE, count, stageBasePeople } from './delta-base.js';

/**
 * A delta applied to a copy of the serving release's file (attached as PATCHED and made the connection's default
 * database), instead of staging all its rows again: the rows the delta touches are deleted and written anew, every
 * other row stays where it is. What a full load of the merged dumps would hold, row for row, with one difference in
 * order: a row keeps its parent's position (`sort_key`), a new row takes the next free one after the parent's last,
 * and a deleted row leaves its position empty. Pages follow positions, so people a delta adds come after those of
 * the release it was built on, until a full load numbers every row again in id order.
 *
 * Touched rows: the staged people (replacing a base row or new), the base people whose employer the delta changes
 * (their employer columns are copied again), and the deleted and suppressed base people (only removed). Companies: the
 * staged ones, and every company whose contact count changes (counted again over the patched contacts).
 */

/** The copy of the serving release, attached read-write. */
export const PATCHED = 'patched';

/** TEMP tables the patch leaves for publishing: the touched rows as written, for the point store and the index. */
export const PATCH_CONTACTS = 'patch_contacts';
export const PATCH_COMPANIES = 'patch_companies';

export interface PatchedRows {
  contacts: number;
  companies: number;
  /** Row positions (the largest sort_key) of the patched release. */
  positions: { contact: number; company: number };
  /** Positions (sort_key - 1) of parent rows deleted or rewritten, and of rows written, per entity. */
  removed: { contact: Int32Array; company: Int32Array };
  written: { contact: Int32Array; company: Int32Array };
}

async function keys(conn: DuckDBConnection, sql: string): Promise<Int32Array> {
  const r = await conn.runAndReadAll(sql);
  return Int32Array.from(r.getRows(), (row) => Number(row[0]) - 1);
}

/**
 * Patches the attached copy: expects the staged delta (people without the deleted and suppressed ones), the TEMP
 * tables `delta_deletes` (deleted ids), `delta_restated` (ids the delta's people file holds, suppressed ones
 * included) and `delta_suppressed` (ids of the other base people the suppression list matches), and the serving
 * release attached as BASE.
 */
export async function patchRelease(
  conn: DuckDBConnection,
  t: { people: string; companies: string },
  roleRefs: string,
): Promise<PatchedRows> {
  const base = `${BASE}.${TABLE.contact}`;
  const contacts = ident(TABLE.contact);
  const companies = ident(TABLE.company);
  // The contacts' lookup indexes go: deleting and inserting rows would load and rewrite them whole (at 1 M contacts
  // 9 of the patch's 10 s); the point store's key tables answer those lookups (queries.ts, OpenRelease.pointKeys).
  const indexes = await conn.runAndReadAll(
    `SELECT index_name FROM duckdb_indexes() WHERE database_name = '${PATCHED}' AND table_name = '${TABLE.contact}'`,
  );
  for (const [name] of indexes.getRows()) await conn.run(`DROP INDEX ${ident(String(name))}`);
  // Base people whose employer the delta changes: staged again from their rows, to copy the new employer columns.
  await stageBasePeople(
    conn,
    t.people,
    `p.company_id IN (SELECT id FROM ${t.companies}) AND p.id NOT IN (SELECT id FROM ${t.people}) AND p.id NOT IN ` +
      '(SELECT id FROM delta_deletes) AND p.id NOT IN (SELECT k FROM delta_suppressed)',
  );
  // Positions: a row the parent has keeps its own; new rows follow the parent's last, in id order.
  const top = async (table: string) => count(conn, `SELECT coalesce(max(sort_key), 0) FROM ${BASE}.${table}`);
  const lastContact = await top(TABLE.contact);
  const lastCompany = await top(TABLE.company);
  await conn.run(
    `CREATE TEMP TABLE patch_person_pos AS
     SELECT p.seq, coalesce(b.sort_key, ${lastContact} + row_number() OVER (PARTITION BY b.sort_key IS NULL ORDER BY p.id))
       AS sort_key
     FROM ${t.people} p LEFT JOIN ${base} b ON b.id = p.id`,
  );
  await conn.run(
    `CREATE TEMP TABLE patch_company_pos AS
     SELECT c.id, coalesce(b.sort_key, ${lastCompany} + row_number() OVER (PARTITION BY b.sort_key IS NULL ORDER BY c.id))
       AS sort_key
     FROM ${t.companies} c LEFT JOIN ${BASE}.${TABLE.company} b ON b.id = c.id`,
  );
  // The base people who go or are written again, and the companies whose contacts change.
  await conn.run(
    `CREATE TEMP TABLE patch_gone AS SELECT sort_key, company_id FROM ${base}
     WHERE id IN (SELECT id FROM ${t.people}) OR id IN (SELECT id FROM delta_restated) OR id IN (SELECT id FROM delta_deletes)
       OR id IN (SELECT k FROM delta_suppressed)`,
  );
  await conn.run(
    `CREATE TEMP TABLE patch_affected AS
     SELECT company_id AS id FROM patch_gone WHERE company_id IS NOT NULL
     UNION SELECT company_id FROM ${t.people} WHERE company_id IS NOT NULL
     UNION SELECT id FROM ${t.companies}`,
  );

  const companyCols = COMPANY_COLUMNS.map((c) => ident(c.name));
  const companySelect = COMPANY_COLUMNS.map((c) => {
    if (c.name === 'contact_count') return '0';
    if (c.name === 'sort_key') return 'o.sort_key';
    return `c.${ident(c.name)}`;
  });
  await conn.run(`DELETE FROM ${companies} WHERE id IN (SELECT id FROM ${t.companies})`);
  await conn.run(
    `INSERT INTO ${companies} (${companyCols.join(', ')})
     SELECT ${companySelect.join(', ')} FROM ${t.companies} c JOIN patch_company_pos o ON o.id = c.id ORDER BY o.sort_key`,
  );
  await conn.run(`DELETE FROM ${contacts} WHERE sort_key IN (SELECT sort_key FROM patch_gone)`);
  const source = (name: string): string => {
    if (name === 'sort_key') return 'o.sort_key';
    const fromEmployer = EMPLOYER_COLUMNS.get(name);
    return fromEmployer ? `e.${ident(fromEmployer)}` : `p.${ident(name)}`;
  };
  // The rows written, as stored: kept for the point store and the index, then appended.
  const cols = CONTACT_COLUMNS.map((c) => ident(c.name)).join(', ');
  await conn.run(
    `CREATE TEMP TABLE ${PATCH_CONTACTS} AS
     SELECT ${CONTACT_COLUMNS.map((c) => `${source(c.name)} AS ${ident(c.name)}`).join(', ')}
     FROM ${t.people} p
     JOIN patch_person_pos o ON o.seq = p.seq
     LEFT JOIN ${companies} e ON e.id = p.company_id
     ORDER BY o.sort_key`,
  );
  await conn.run(`INSERT INTO ${contacts} (${cols}) SELECT ${cols} FROM ${PATCH_CONTACTS}`);
  // Contact counts of the affected companies, counted over the patched contacts as a full build counts them.
  await conn.run(
    `UPDATE ${companies} SET contact_count = n.cnt FROM (
       SELECT a.id, count(x.company_id) AS cnt FROM patch_affected a LEFT JOIN ${contacts} x ON x.company_id = a.id
       GROUP BY a.id) n
     WHERE ${companies}.id = n.id AND ${companies}.contact_count IS DISTINCT FROM n.cnt`,
  );
  await conn.run(
    `DELETE FROM ${ident(roleRefs)} WHERE person_id IN (SELECT id FROM ${base} WHERE sort_key IN (SELECT sort_key FROM patch_gone))`,
  );
  await conn.run(
    `INSERT INTO ${ident(roleRefs)} SELECT id AS person_id, unnest(unresolved_company_ids) AS company_id FROM ${t.people}
     WHERE unresolved_company_ids IS NOT NULL`,
  );
  await conn.run(`DELETE FROM ${META_TABLE}`);

  // Companies rewritten: the staged ones and those whose count changed (their index postings change).
  await conn.run(
    `CREATE TEMP TABLE ${PATCH_COMPANIES} AS SELECT c.* FROM ${companies} c
     LEFT JOIN ${BASE}.${TABLE.company} b ON b.id = c.id
     WHERE c.id IN (SELECT id FROM ${t.companies}) OR (c.id IN (SELECT id FROM patch_affected) AND
       c.contact_count IS DISTINCT FROM b.contact_count)`,
  );
  const removedContacts = await keys(conn, 'SELECT sort_key FROM patch_gone');
  const writtenContacts = await keys(conn, `SELECT sort_key FROM ${PATCH_CONTACTS}`);
  const writtenCompanies = await keys(conn, `SELECT sort_key FROM ${PATCH_COMPANIES}`);
  const removedCompanies = await keys(
    conn,
    `SELECT b.sort_key FROM ${BASE}.${TABLE.company} b WHERE b.id IN (SELECT id FROM ${PATCH_COMPANIES})`,
  );
  return {
    contacts: await count(conn, `SELECT count(*) FROM ${contacts}`),
    companies: await count(conn, `SELECT count(*) FROM ${companies}`),
    positions: {
      contact: await count(conn, `SELECT coalesce(max(sort_key), 0) FROM ${contacts}`),
      company: await count(conn, `SELECT coalesce(max(sort_key), 0) FROM ${companies}`),
    },
    removed: { contact: removedContacts, company: removedCompanies },
    written: { contact: writtenContacts, company: writtenCompanies },
  };
}
