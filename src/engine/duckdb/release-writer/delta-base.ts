import { type DuckDBConnection, VARCHAR } from '@duckdb/node-api';
import { COMPANY_ROW_COLUMNS, PERSON_COLUMNS } from '../../../domain/catalog/employer-columns.js';
import { type BaseEmployer, type DeltaBase, type DeltaCounts, DeltaRefused } from '../../release-writer.js';
import { currentRelease, releaseFile } from '../release-store.js';
import { ident, TABLE } from '../schema.js';
import { replaceTempTable } from '../suppression/duck-io.js';

/**
 * The serving release as the base of a delta load (ReleaseWriter.deltaBase): its file is attached read-only to the
 * writer's connection, and its rows are copied into the staging tables as they are stored. A contact's row is its
 * staged person row plus the employer's copied columns and `sort_key`, so the person-level columns
 * (employer-columns.ts PERSON_COLUMNS) are exactly what its load staged, and the build re-derives the rest (employer
 * columns, contact counts, sort keys) as a full load does. Base rows carry negative sequence numbers, unique and apart
 * from the delta's lines.
 */

/** The serving release's file, attached read-only. */
export const BASE = 'delta_base';

/**
 * The release's table of role company ids no company of it had (person_id, company_id; loaders/load/role-refs.ts):
 * a delta that adds such a company changes those people's rows. Releases of earlier versions have none.
 */
export const ROLE_REFS = 'role_refs';

/** Person-row fields taken from the employer (company-row.ts EmployerRef): a change to one is in people's rows. */
const CARRIED = `s.name IS DISTINCT FROM c.name OR s.domain IS DISTINCT FROM c.domain OR s.name_norm IS DISTINCT FROM
  c.name_norm OR coalesce(s.is_public, false) <> coalesce(c.is_public, false)`;

export async function openDeltaBase(
  conn: DuckDBConnection,
  dataDir: string,
  tables: { people: string; companies: string },
): Promise<DeltaBase | null> {
  const current = currentRelease(dataDir);
  if (!current) return null;
  const file = releaseFile(dataDir, current.id);
  await conn.run(`ATTACH '${file.replace(/'/g, "''")}' AS ${BASE} (READ_ONLY)`);
  const text = (k: string): string => (typeof current.source[k] === 'string' ? (current.source[k] as string) : '');
  return {
    id: current.id,
    asOf: text('asOf'),
    networkHost: text('networkHost'),
    employers: (companyIds) => baseEmployers(conn, EMPLOYERS_PER_TEXT, companyIds),
    stageRest: (deletes) => stageRest(conn, tables, deletes),
  };
}

/** Employers per JSON text: at a few hundred characters an employer, far below a JS string's 2^29 characters. */
const EMPLOYERS_PER_TEXT = 250_000;

/**
 * The base's employers (the release attached as BASE) as JSON arrays of BaseEmployer of at most `perText` each, written
 * by DuckDB (1 M companies read value by value took 10 s); only those of `companyIds` when given.
 */
export async function baseEmployers(
  conn: DuckDBConnection,
  perText = EMPLOYERS_PER_TEXT,
  companyIds?: readonly string[],
): Promise<string[]> {
  const fields: Record<keyof BaseEmployer, string> = {
    id: 'id',
    name: 'name',
    domain: 'domain',
    nameNorm: 'name_norm',
    isPublic: 'coalesce(is_public, false)',
  };
  const struct = Object.entries(fields)
    .map(([k, sql]) => `'${k}': ${sql}`)
    .join(', ');
  let where = '';
  if (companyIds) {
    await replaceTempTable(conn, 'delta_employer_ids', [
      { name: 'id', type: VARCHAR, sql: 'VARCHAR', values: [...new Set(companyIds)] },
    ]);
    where = 'WHERE id IN (SELECT id FROM delta_employer_ids)';
  }
  const r = await conn.runAndReadAll(
    `SELECT to_json(list({${struct}}))::VARCHAR FROM (SELECT *, (row_number() OVER () - 1) // ${Math.trunc(perText)} ` +
      `AS part FROM ${BASE}.${TABLE.company} ${where}) GROUP BY part ORDER BY part`,
  );
  if (companyIds) await conn.run('DROP TABLE delta_employer_ids');
  return r.getRows().map((row) => String(row[0]));
}

export async function hasRoleRefs(conn: DuckDBConnection): Promise<boolean> {
  const r = await conn.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables() WHERE database_name = '${BASE}' AND table_name = '${ROLE_REFS}'`,
  );
  return Number(r.getRows()[0]?.[0] ?? 0) > 0;
}

/** Refuses the delta when base people not restated carry a company it changes: (company id, contacts) rows. */
function refuseIfAny(rows: unknown[][], what: string): void {
  if (!rows.length) return;
  const list = rows.map(([id, n]) => `${String(id)} (${Number(n)} contacts)`).join(', ');
  throw new DeltaRefused(`${what}: ${list}; add those people's records to --people, or run a full load`);
}

export async function count(conn: DuckDBConnection, sql: string): Promise<number> {
  const r = await conn.runAndReadAll(sql);
  return Number(r.getRows()[0]?.[0] ?? 0);
}

/**
 * What both ways of applying a delta do first: the deleted ids (TEMP table `delta_deletes`, kept for the caller), the
 * refusals (companies changed under people the delta does not restate), the deleted people dropped from the staged
 * delta, and the counts of replaced and added rows.
 */
export async function prepareDelta(
  conn: DuckDBConnection,
  t: { people: string; companies: string },
  deletes: readonly string[],
): Promise<DeltaCounts> {
  await replaceTempTable(conn, 'delta_deletes', [
    { name: 'id', type: VARCHAR, sql: 'VARCHAR', values: [...new Set(deletes)] },
  ]);
  const base = `${BASE}.${TABLE.contact}`;
  const refs = await hasRoleRefs(conn);
  const carried = await conn.runAndReadAll(
    `WITH changed AS (SELECT s.id FROM ${t.companies} s JOIN ${BASE}.${TABLE.company} c ON c.id = s.id WHERE ${CARRIED})
     SELECT ch.id, count(*) AS n FROM ${base} p JOIN changed ch
       ON p.company_id = ch.id OR list_contains(p.secondary_company_ids, ch.id)
     WHERE p.id NOT IN (SELECT id FROM ${t.people}) AND p.id NOT IN (SELECT id FROM delta_deletes)
     GROUP BY ch.id ORDER BY ch.id LIMIT 5`,
  );
  refuseIfAny(
    carried.getRows(),
    'the delta changes the name, domain or public status of companies whose contacts carry it in their own fields',
  );
  if (refs) {
    const named = await conn.runAndReadAll(
      `SELECT r.company_id, count(DISTINCT r.person_id) AS n FROM ${BASE}.${ROLE_REFS} r
       WHERE r.company_id IN (SELECT id FROM ${t.companies}) AND r.company_id NOT IN (SELECT id FROM ${BASE}.${TABLE.company})
         AND r.person_id NOT IN (SELECT id FROM ${t.people}) AND r.person_id NOT IN (SELECT id FROM delta_deletes)
       GROUP BY r.company_id ORDER BY r.company_id LIMIT 5`,
    );
    refuseIfAny(
      named.getRows(),
      'the delta adds companies that contacts of the serving release name in their roles, so their own fields change',
    );
  }
  const found = await count(
    conn,
    `SELECT count(*) FROM delta_deletes d WHERE d.id IN (SELECT id FROM ${base}) OR d.id IN (SELECT id FROM ${t.people})`,
  );
  await conn.run(`DELETE FROM ${t.people} WHERE id IN (SELECT id FROM delta_deletes)`);
  const split = async (table: string, baseTable: string) => {
    const all = await count(conn, `SELECT count(*) FROM ${table}`);
    const replaced = await count(conn, `SELECT count(*) FROM ${table} WHERE id IN (SELECT id FROM ${baseTable})`);
    return { replaced, added: all - replaced };
  };
  const people = await split(t.people, base);
  const companies = await split(t.companies, `${BASE}.${TABLE.company}`);
  return { people, companies, deleted: found, notFound: new Set(deletes).size - found };
}

/**
 * Stages base people into the people staging table as their load staged them: the person-level columns of the
 * contact row, `-sort_key` as sequence number, and their unresolved role company ids. `where` picks the rows (SQL
 * over `p`, the base contacts, written by this code).
 */
export async function stageBasePeople(
  conn: DuckDBConnection,
  people: string,
  where: string,
  from: string = `${BASE}.${TABLE.contact}`,
): Promise<void> {
  const refs = await hasRoleRefs(conn);
  const personCols = PERSON_COLUMNS.map((c) => `p.${ident(c.name)}`).join(', ');
  const refsJoin = refs
    ? `LEFT JOIN (SELECT person_id, list(company_id ORDER BY company_id) AS ids FROM ${BASE}.${ROLE_REFS} ` +
      'GROUP BY person_id) r ON r.person_id = p.id'
    : '';
  await conn.run(
    `INSERT INTO ${people} (${PERSON_COLUMNS.map((c) => ident(c.name)).join(', ')}, seq, updated_at,
       unresolved_company_ids)
     SELECT ${personCols}, -p.sort_key, NULL, ${refs ? 'r.ids' : 'NULL'} FROM ${from} p ${refsJoin}
     WHERE ${where}`,
  );
}

async function stageRest(
  conn: DuckDBConnection,
  t: { people: string; companies: string },
  deletes: readonly string[],
): Promise<DeltaCounts> {
  const counts = await prepareDelta(conn, t, deletes);
  const companyCols = COMPANY_ROW_COLUMNS.map((c) => ident(c.name)).join(', ');
  await conn.run(
    `INSERT INTO ${t.companies} (${companyCols}, seq) SELECT ${companyCols}, -sort_key FROM ${BASE}.${TABLE.company}
     WHERE id NOT IN (SELECT id FROM ${t.companies})`,
  );
  await stageBasePeople(
    conn,
    t.people,
    `p.id NOT IN (SELECT id FROM ${t.people}) AND p.id NOT IN (SELECT id FROM delta_deletes)`,
  );
  await conn.run('DROP TABLE delta_deletes');
  await conn.run(`DETACH ${BASE}`);
  return counts;
}
