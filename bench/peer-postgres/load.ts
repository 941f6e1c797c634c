import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import pg from 'pg';
import { servingRelease } from '../lib/release.js';

/**
 * Copies a release's contacts table into PostgreSQL as a self-hoster would: one denormalized table with every
 * column, btree indexes on the closed lists, the numbers and a few composites, GIN on the arrays, pg_trgm on the
 * title's words and the lowercased name, location and employer name, then VACUUM ANALYZE. The table's comment names the release, so a second
 * run over the same release reuses it.
 */
export const TABLE = 'peer_contacts';

const BTREE = [
  ['sort_key'],
  ['id'],
  ['country'],
  ['seniority'],
  ['function'],
  ['company_size'],
  ['company_revenue'],
  ['company_hq_country'],
  ['company_last_round_type'],
  ['company_last_round_date'],
  ['company_domain'],
  ['company_name_norm'],
  ['company_id'],
  ['company_employee_count'],
  ['company_founded_year'],
  ['email_status'],
  ['has_phone'],
  ['has_work_email'],
  ['country', 'seniority', 'function'],
  ['function', 'seniority', 'company_size'],
];
const GIN = [
  'signals',
  'skills',
  'company_industries',
  'company_technologies',
  'secondary_functions',
  'secondary_seniorities',
  'secondary_domains',
  'secondary_company_names',
  'secondary_company_ids',
];
const TRGM = ['title_words', 'lower(name)', 'lower(location)', 'lower(company)'];

const PG_TYPES: Record<string, string> = {
  VARCHAR: 'text',
  BIGINT: 'bigint',
  DOUBLE: 'float8',
  BOOLEAN: 'boolean',
  'VARCHAR[]': 'text[]',
};

/** A list as PostgreSQL's array literal, built in DuckDB so the CSV carries it as one cell. */
const pgArray = (c: string): string =>
  `CASE WHEN "${c}" IS NULL THEN NULL ELSE '{' || array_to_string(list_transform("${c}", ` +
  `e -> '"' || replace(replace(e, '\\', '\\\\'), '"', '\\"') || '"'), ',') || '}' END AS "${c}"`;

export async function loadRelease(client: pg.Client, pgUrl: string, dataDir: string, log: (s: string) => void) {
  const release = servingRelease(dataDir);
  const current = await client.query(`SELECT obj_description(to_regclass($1), 'pg_class') AS release`, [TABLE]);
  if (current.rows[0]?.release === release.id) {
    log(`PostgreSQL already holds release ${release.id}\n`);
    return;
  }
  const db = await DuckDBInstance.create(release.file, { access_mode: 'READ_ONLY' });
  const conn = await db.connect();
  const described = (await conn.runAndReadAll('DESCRIBE contacts')).getRowObjects();
  const columns = described.map((r) => ({ name: String(r.column_name), type: PG_TYPES[String(r.column_type)] }));
  const unknown = columns.filter((c) => !c.type);
  if (unknown.length) throw new Error(`no PostgreSQL type for ${unknown.map((c) => c.name).join(', ')}`);
  const tmp = join(dataDir, 'peer-postgres');
  mkdirSync(tmp, { recursive: true });
  const csv = join(tmp, 'contacts.csv');
  const select = columns.map((c) => (c.type === 'text[]' ? pgArray(c.name) : `"${c.name}"`)).join(', ');
  const t0 = Date.now();
  await conn.run(`COPY (SELECT ${select} FROM contacts ORDER BY sort_key) TO '${csv}' (FORMAT csv, HEADER)`);
  conn.closeSync();
  log(`exported contacts to CSV in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);

  await client.query(`DROP TABLE IF EXISTS ${TABLE}`);
  await client.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
  await client.query(`CREATE TABLE ${TABLE} (${columns.map((c) => `"${c.name}" ${c.type}`).join(', ')})`);
  const t1 = Date.now();
  execFileSync(
    'psql',
    [pgUrl, '-v', 'ON_ERROR_STOP=1', '-c', `\\copy ${TABLE} FROM '${csv}' WITH (FORMAT csv, HEADER)`],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  rmSync(csv);
  log(`copied into PostgreSQL in ${((Date.now() - t1) / 1000).toFixed(1)} s\n`);
  const t2 = Date.now();
  await client.query(`SET maintenance_work_mem = '2GB'`);
  for (const cols of BTREE) {
    const unique = cols.length === 1 && (cols[0] === 'sort_key' || cols[0] === 'id') ? 'UNIQUE ' : '';
    await client.query(`CREATE ${unique}INDEX ON ${TABLE} (${cols.map((c) => `"${c}"`).join(', ')})`);
  }
  for (const c of GIN) await client.query(`CREATE INDEX ON ${TABLE} USING gin ("${c}")`);
  for (const e of TRGM) {
    const expr = e.includes('(') ? `(${e})` : `"${e}"`;
    await client.query(`CREATE INDEX ON ${TABLE} USING gin (${expr} gin_trgm_ops)`);
  }
  await client.query(`VACUUM ANALYZE ${TABLE}`);
  await client.query(`COMMENT ON TABLE ${TABLE} IS '${release.id.replace(/'/g, '')}'`);
  log(`indexed and analyzed in ${((Date.now() - t2) / 1000).toFixed(1)} s\n`);
}

/** A client of the peer's PostgreSQL holding the release of `dataDir` (loaded first when it does not), tuned. */
export async function connectPeer(pgUrl: string, dataDir: string, log: (s: string) => void): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await loadRelease(client, pgUrl, dataDir, log);
    await tuneSession(client);
    return client;
  } catch (e) {
    await client.end();
    throw e;
  }
}

/** Session settings for this machine (24 GB, 2 cores); shared_buffers needs a restart of a shared server. */
export async function tuneSession(client: pg.Client): Promise<void> {
  await client.query(`SET work_mem = '64MB'`);
  await client.query(`SET effective_cache_size = '16GB'`);
  await client.query(`SET random_page_cost = 1.1`);
  await client.query(`SET max_parallel_workers_per_gather = 2`);
  await client.query(`SET jit = off`);
}
