import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { COMPANY_COLUMNS, CONTACT_COLUMNS } from '../../src/domain/catalog/index.js';
import { ident, META_TABLE, releaseDdl, TABLE } from '../../src/engine/duckdb/schema.js';
import { COMPANY_ROW_COLUMNS, EMPLOYER_COLUMNS, PERSON_COLUMNS } from './employer-columns.js';
import { stageColumns, stagingDdl, StagingTable } from './staging.js';

/**
 * Builds one release database file. Rows are staged into an in-memory attached database (never part of
 * the release file; it spills to the staging folder past the memory limit), then two INSERT … SELECT
 * statements write the final tables: companies with their contact counts, and contacts joined to their
 * employer (the denormalization) in id order, so `sort_key` order is also storage order and zone maps
 * make id lookups and cursor pages cheap.
 */

/** Load-time DuckDB settings: every core, and half the memory up to 8 GB (the rest is Node's). */
export function loadSettings(): { threads: number; memoryLimit: string } {
  const mb = Math.min(8192, Math.floor(totalmem() / 2 / 2 ** 20));
  return { threads: availableParallelism(), memoryLimit: `${mb}MB` };
}

const PEOPLE = 'stg.people';
const COMPANIES = 'stg.companies';

export class ReleaseWriter {
  readonly people: StagingTable;
  readonly companies: StagingTable;

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
    stagingDir: string,
  ) {
    this.companies = new StagingTable(conn, stagingDir, COMPANIES, stageColumns(COMPANY_ROW_COLUMNS), 20_000);
    this.people = new StagingTable(conn, stagingDir, PEOPLE, stageColumns(PERSON_COLUMNS, [{ name: 'seq', storage: 'BIGINT' }]));
  }

  static async create(file: string, stagingDir: string): Promise<ReleaseWriter> {
    const { threads, memoryLimit } = loadSettings();
    const instance = await DuckDBInstance.create(file, {
      threads: String(threads),
      memory_limit: memoryLimit,
      temp_directory: join(stagingDir, 'spill'),
    });
    const conn = await instance.connect();
    for (const sql of releaseDdl()) await conn.run(sql);
    await conn.run(`ATTACH ':memory:' AS stg`);
    await conn.run(stagingDdl(COMPANIES, stageColumns(COMPANY_ROW_COLUMNS)));
    await conn.run(stagingDdl(PEOPLE, stageColumns(PERSON_COLUMNS, [{ name: 'seq', storage: 'BIGINT' }])));
    return new ReleaseWriter(instance, conn, stagingDir);
  }

  /** Removes staged people that lost to a later duplicate (staging sequence numbers). */
  async dropPeople(seqs: readonly number[]): Promise<void> {
    for (let i = 0; i < seqs.length; i += 10_000) {
      const part = seqs.slice(i, i + 10_000).map((n) => Math.trunc(n));
      await this.conn.run(`DELETE FROM ${PEOPLE} WHERE seq IN (${part.join(',')})`);
    }
  }

  /** Writes the final `companies` and `contacts` tables from the staged rows; returns their row counts. */
  async build(onStep: (step: number, total: number) => void = () => undefined): Promise<{ contacts: number; companies: number }> {
    const companyCols = COMPANY_COLUMNS.map((c) => ident(c.name));
    const companySelect = COMPANY_COLUMNS.map((c) => {
      if (c.name === 'contact_count') return 'coalesce(n.cnt, 0)';
      if (c.name === 'sort_key') return 'row_number() OVER (ORDER BY c.id)';
      return `c.${ident(c.name)}`;
    });
    onStep(0, 3);
    await this.conn.run(
      `INSERT INTO ${TABLE.company} (${companyCols.join(', ')})
       SELECT ${companySelect.join(', ')}
       FROM ${COMPANIES} c
       LEFT JOIN (SELECT company_id, count(*) AS cnt FROM ${PEOPLE} WHERE company_id IS NOT NULL GROUP BY company_id) n ON n.company_id = c.id
       ORDER BY c.id`,
    );
    onStep(1, 3);
    const contactCols = CONTACT_COLUMNS.map((c) => ident(c.name));
    const contactSelect = CONTACT_COLUMNS.map((c) => {
      if (c.name === 'sort_key') return 'row_number() OVER (ORDER BY p.id)';
      const fromEmployer = EMPLOYER_COLUMNS.get(c.name);
      return fromEmployer ? `e.${ident(fromEmployer)}` : `p.${ident(c.name)}`;
    });
    await this.conn.run(
      `INSERT INTO ${TABLE.contact} (${contactCols.join(', ')})
       SELECT ${contactSelect.join(', ')}
       FROM ${PEOPLE} p LEFT JOIN ${TABLE.company} e ON e.id = p.company_id
       ORDER BY p.id`,
    );
    onStep(2, 3);
    const counts = await this.conn.runAndReadAll(`SELECT (SELECT count(*) FROM ${TABLE.contact}) AS contacts, (SELECT count(*) FROM ${TABLE.company}) AS companies`);
    const [contacts, companies] = counts.getRows()[0]!.map(Number) as [number, number];
    return { contacts, companies };
  }

  async writeMeta(meta: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(meta)) {
      await this.conn.run(`INSERT INTO ${META_TABLE} VALUES ($1, $2)`, [key, value]);
    }
  }

  /** Drops staging, checkpoints and closes: the file is complete and self-contained (no WAL). */
  async finish(): Promise<void> {
    await this.conn.run('DETACH stg');
    await this.conn.run('CHECKPOINT');
    this.close();
  }

  close(): void {
    try {
      this.conn.closeSync();
    } finally {
      this.instance.closeSync();
    }
  }
}
