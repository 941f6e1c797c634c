import { copyFile, link, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, hostname, totalmem } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance, VARCHAR } from '@duckdb/node-api';
import Database from 'better-sqlite3';
import { COMPANY_ROW_COLUMNS, EMPLOYER_COLUMNS, PERSON_COLUMNS } from '../../../domain/catalog/employer-columns.js';
import { COMPANY_COLUMNS, CONTACT_CARD_COLUMNS, CONTACT_COLUMNS } from '../../../domain/catalog/index.js';
import type { OptOutType } from '../../../domain/optouts.js';
import {
  EMPTY_SUPPRESSION,
  SUPPRESSION_COLUMNS,
  SUPPRESSION_FIELD,
  SUPPRESSION_TYPES,
  type Suppression,
} from '../../../domain/suppression.js';
import {
  type DeltaBase,
  DeltaRefused,
  type Duplicate,
  type PatchedDelta,
  type ReleaseSource,
  type ReleaseWriter,
  type ReleaseWriterOptions,
  type StepFn,
  type SuppressedPeople,
} from '../../release-writer.js';
import { buildBitmapIndex } from '../bitmap-index/build.js';
import { indexFile } from '../bitmap-index/format.js';
import { ParentIndexUnreadable, patchBitmapIndex } from '../bitmap-index/patch.js';
import { attachBase } from '../point-store/point-store.js';
import {
  FULL_CARD_COLUMNS,
  POINT_META,
  POINT_META_TABLE,
  pointStoreBaseFile,
  pointStoreFile,
} from '../point-store/schema.js';
import {
  loadingMarker,
  nextReleaseId,
  pruneReleases,
  publishCurrent,
  readCurrent,
  rejectsFile,
  releaseFile,
  releasesDir,
  sweepKilledLoads,
} from '../release-store.js';
import { ident, lookupColumnIndexDdl, META_TABLE, releaseDdl, TABLE } from '../schema.js';
import { readColumns, replaceTempTable } from '../suppression/duck-io.js';
import { BASE, hasRoleRefs, openDeltaBase, prepareDelta, ROLE_REFS } from './delta-base.js';
import { PATCH_COMPANIES, PATCH_CONTACTS, PATCHED, type PatchedRows, patchRelease } from './patch-release.js';
import { writePointOverlay, writePointStore } from './point-store-writer.js';
import { StagingTable, stageColumns, stagingDdl } from './staging.js';

/**
 * The embedded engine's ReleaseWriter: builds one release database file. Rows are staged into TEMP tables (never part
 * of the release file;
 * uncompressed, so inserting is cheap: 1M staged people took 6.7 s there against 17.5 s in an attached
 * in-memory database and 25 s in the file itself; past the memory limit they spill to the staging
 * folder). Then two INSERT … SELECT statements write the final tables: companies with their contact
 * counts, and contacts joined to their employer (the denormalization) in id order, so `sort_key` order
 * is also storage order and zone maps make id lookups and cursor pages cheap.
 *
 * The file is written as `<id>.duckdb.tmp` and its point store as `<id>.points.sqlite.tmp`; `publish` renames
 * both into place and only then names them in CURRENT; any failure before that leaves the previous release
 * serving (and a crash between the renames leaves files that pruning removes with their release).
 */

/**
 * Load-time DuckDB settings: every core; DuckDB's memory a quarter of the machine's up to 3 GB while staging (what does
 * not fit is written to the staging folder; the workers normalizing beside it hold the rest) and half of it up to
 * 5 GB for the build's joins and sorts (`memoryLimit`; past 10 M contacts the build grows it, buildMemoryLimitFor). At
 * 8 GB for both, a 10 M load peaked at 11.5 GB while staging; at 6 GB for the build, 8.18 GB in the build; at 5 GB,
 * 6.55 GB there and 7.61 GB overall, while staging, for 4 % more time (bench/results/gen-load-10000000-s31.json,
 * -build-5gb.json).
 */
export function loadSettings(): { threads: number; stagingMemoryLimit: string; memoryLimit: string } {
  return {
    threads: availableParallelism(),
    stagingMemoryLimit: shareMb(totalmem(), 1 / 4, 3072),
    memoryLimit: buildMemoryLimitFor(0),
  };
}

/** A share of the machine's memory in MB, at most `capMb`, as DuckDB's memory_limit writes it. */
function shareMb(machineBytes: number, part: number, capMb: number): string {
  return `${Math.min(capMb, Math.floor((machineBytes * part) / 2 ** 20))}MB`;
}

/**
 * The build's memory limit for a release of `contacts` rows: loadSettings' limit up to 10 M contacts (the 8 GB target
 * of a 10 M load), then 512 MB more per million, up to half of the machine's memory. At 15 M the fixed 5 GB failed at
 * the end of the point store's phase ("failed to allocate 512 MiB, 4.4 of 4.7 GiB used"): DuckDB spills sorts and
 * joins, not every buffer it holds, so what a build needs grows with its rows.
 */
export function buildMemoryLimitFor(contacts: number, machineBytes: number = totalmem()): string {
  const past = Math.max(0, Math.ceil((contacts - 10_000_000) / 1_000_000)) * 512;
  return shareMb(machineBytes, 1 / 2, 5120 + past);
}

/** Sets the connection's memory limit for a build over `table`'s rows (buildMemoryLimitFor). */
export async function setBuildMemoryLimit(conn: DuckDBConnection, table: string): Promise<void> {
  const rows = await conn.runAndReadAll(`SELECT count(*) FROM ${ident(table)}`);
  await conn.run(`SET memory_limit = '${buildMemoryLimitFor(Number(rows.getRows()[0]![0]))}'`);
}

/** DuckDB's memory limit while a delta patches its copy of the serving release, and while its index is merged. */
const PATCH_MEMORY_LIMIT = '2GB';
const MERGE_MEMORY_LIMIT = '512MB';

const PEOPLE = 'stage_people';
const COMPANIES = 'stage_companies';
/** Company rows carry their line (`seq`) so a replaced duplicate can be dropped. */
const COMPANY_STAGE = stageColumns(COMPANY_ROW_COLUMNS, [{ name: 'seq', storage: 'BIGINT' }]);
/** People rows also carry their line (`seq`) and `updated_at`, for duplicate ids and rejects. */
const PEOPLE_STAGE = stageColumns(PERSON_COLUMNS, [
  { name: 'seq', storage: 'BIGINT' },
  { name: 'updated_at', storage: 'VARCHAR' },
  // Role company ids no company of the release has (loaders/load/role-refs.ts), kept in ROLE_REFS for delta loads.
  { name: 'unresolved_company_ids', storage: 'VARCHAR[]' },
]);

/** Opens a writer for the next release of a data dir (full cards: a point store with every public column too). */
export async function openDuckDBReleaseWriter(
  dataDir: string,
  opts: ReleaseWriterOptions = {},
): Promise<ReleaseWriter> {
  await mkdir(releasesDir(dataDir), { recursive: true });
  const swept = await sweepKilledLoads(dataDir);
  if (swept.length) process.stderr.write(`removed what a killed load left: ${swept.join(', ')}\n`);
  const releaseId = await nextReleaseId(dataDir);
  // Marks this load as live, so a sweep by another process spares its temp files.
  await writeFile(loadingMarker(dataDir, releaseId), `${hostname()} ${process.pid}`);
  const stagingDir = join(releasesDir(dataDir), `${releaseId}.staging`);
  await mkdir(stagingDir, { recursive: true });
  const files = {
    dataDir,
    final: releaseFile(dataDir, releaseId),
    points: pointStoreFile(releaseFile(dataDir, releaseId)),
    pointsBase: pointStoreBaseFile(pointStoreFile(releaseFile(dataDir, releaseId))),
    index: indexFile(releaseFile(dataDir, releaseId)),
    fullCards: opts.fullCards === true,
    patch: join(releasesDir(dataDir), `${releaseId}.patch.duckdb.tmp`),
    deltaIndex: join(releasesDir(dataDir), `${releaseId}.delta.index.tmp`),
    rebuild: opts.rebuild === true,
  };
  try {
    return await DuckDBReleaseWriter.create(releaseId, stagingDir, files);
  } catch (e) {
    await rm(stagingDir, { recursive: true, force: true });
    await rm(loadingMarker(dataDir, releaseId), { force: true });
    throw e;
  }
}

interface ReleaseFiles {
  dataDir: string;
  /** The release file, its point store and its index once published; `.tmp` beside them while being written. */
  final: string;
  points: string;
  /** A delta's point store is an overlay read over this base (a hard link to the last full load's store). */
  pointsBase: string;
  index: string;
  /** Write full cards into the point store too. */
  fullCards: boolean;
  /** A delta's copy of the serving release while it is patched, and the index of its written rows. */
  patch: string;
  deltaIndex: string;
  /** Build a delta's release from all rows instead of patching its base. */
  rebuild: boolean;
}

class DuckDBReleaseWriter implements ReleaseWriter {
  readonly people: StagingTable;
  readonly companies: StagingTable;
  readonly rejectsFile: string;
  private closed = false;

  private constructor(
    readonly releaseId: string,
    readonly stagingDir: string,
    private readonly files: ReleaseFiles,
    private readonly instance: DuckDBInstance,
    private readonly threads: number,
    private readonly conn: DuckDBConnection,
  ) {
    this.companies = new StagingTable(conn, COMPANIES, COMPANY_STAGE);
    this.people = new StagingTable(conn, PEOPLE, PEOPLE_STAGE);
    this.rejectsFile = rejectsFile(files.dataDir, releaseId);
  }

  static async create(releaseId: string, stagingDir: string, files: ReleaseFiles): Promise<DuckDBReleaseWriter> {
    const { threads, stagingMemoryLimit } = loadSettings();
    // One thread while staging: the worker threads normalize on the cores meanwhile, and more DuckDB
    // threads there only slowed both sides (measured). The build then uses every core.
    const instance = await DuckDBInstance.create(`${files.final}.tmp`, {
      threads: '1',
      memory_limit: stagingMemoryLimit,
      temp_directory: join(stagingDir, 'spill'),
    });
    const conn = await instance.connect();
    for (const sql of releaseDdl()) await conn.run(sql);
    await conn.run(stagingDdl(COMPANIES, COMPANY_STAGE));
    await conn.run(stagingDdl(PEOPLE, PEOPLE_STAGE));
    return new DuckDBReleaseWriter(releaseId, stagingDir, files, instance, threads, conn);
  }

  /**
   * Staged people whose id appears again with a later `updated_at` (a tie goes to the later line); the
   * winner stays. Found in SQL after staging: ids are only comparable once every row is in.
   */
  async duplicatePeople(): Promise<Duplicate[]> {
    const r = await this.conn.runAndReadAll(
      `SELECT seq, id, winner FROM (
         SELECT p.seq, p.id, first_value(p.seq) OVER w AS winner, row_number() OVER w AS rn
         FROM ${PEOPLE} p
         WHERE p.id IN (SELECT id FROM ${PEOPLE} GROUP BY id HAVING count(*) > 1)
         WINDOW w AS (PARTITION BY p.id ORDER BY p.updated_at DESC, p.seq DESC)
       ) WHERE rn > 1 ORDER BY seq`,
    );
    return r.getRows().map(([seq, id, winner]) => ({ line: Number(seq), id: String(id), winnerLine: Number(winner) }));
  }

  /** Removes staged rows by staging sequence number (their line). */
  async drop(kind: 'people' | 'companies', seqs: readonly number[]): Promise<void> {
    const table = kind === 'people' ? PEOPLE : COMPANIES;
    for (let i = 0; i < seqs.length; i += 10_000) {
      const part = seqs.slice(i, i + 10_000).map((n) => Math.trunc(n));
      await this.conn.run(`DELETE FROM ${table} WHERE seq IN (${part.join(',')})`);
    }
  }

  /**
   * Drops the staged people a suppression list matches (suppressionMatches), each counted under the first type that
   * matched.
   */
  async suppress(list: Suppression): Promise<SuppressedPeople> {
    const found = await this.suppressionMatches(list, PEOPLE, 'seq', 'stage_suppressed');
    if (found.people > 0) await this.conn.run(`DELETE FROM ${PEOPLE} WHERE seq IN (SELECT k FROM stage_suppressed)`);
    await this.conn.run('DROP TABLE IF EXISTS stage_suppressed');
    return found;
  }

  /**
   * The rows of `from` (people rows, aliased p; `where` narrows them) a suppression list matches, into the TEMP table
   * `into` (k: the row's `key` column, r: the rank of the first type that matched), counted per type: its values are
   * appended to a TEMP table and joined with each identifier column (SHA-256 entries with DuckDB's `sha256` of each
   * email and phone value, computed only when the list holds some).
   */
  private async suppressionMatches(
    list: Suppression,
    from: string,
    key: string,
    into: string,
    where = 'true',
  ): Promise<SuppressedPeople> {
    const byType = Object.fromEntries(SUPPRESSION_TYPES.map((t) => [t, 0])) as Record<OptOutType, number>;
    const types = SUPPRESSION_TYPES.filter((t) => list[SUPPRESSION_FIELD[t]].length > 0);
    await this.conn.run(`CREATE OR REPLACE TEMP TABLE ${into} (k ${key === 'seq' ? 'BIGINT' : 'VARCHAR'}, r INTEGER)`);
    if (types.length === 0) return { people: 0, byType };
    await this.conn.run(`SET threads = ${this.threads}`);
    await replaceTempTable(this.conn, 'stage_suppress_values', [
      {
        name: 't',
        type: VARCHAR,
        sql: 'VARCHAR',
        values: types.flatMap((t) => list[SUPPRESSION_FIELD[t]].map(() => t)),
      },
      { name: 'v', type: VARCHAR, sql: 'VARCHAR', values: types.flatMap((t) => [...list[SUPPRESSION_FIELD[t]]]) },
    ]);
    const branches = types.flatMap((t) =>
      SUPPRESSION_COLUMNS[t].map((c) => {
        const value = t === 'sha256' ? `sha256(p.${ident(c)})` : `p.${ident(c)}`;
        return (
          `SELECT p.${ident(key)} AS k, ${SUPPRESSION_TYPES.indexOf(t)} AS r FROM ${from} p JOIN stage_suppress_values ` +
          `s ON s.v = ${value} WHERE s.t = '${t}' AND (${where})`
        );
      }),
    );
    await this.conn.run(`INSERT INTO ${into} SELECT k, min(r) AS r FROM (${branches.join(' UNION ALL ')}) GROUP BY k`);
    const [rank, n] = await readColumns(
      this.conn,
      `SELECT r::INTEGER AS r, count(*)::INTEGER AS n FROM ${into} GROUP BY r`,
    );
    let people = 0;
    for (let i = 0; i < (rank?.length ?? 0); i++) {
      byType[SUPPRESSION_TYPES[rank![i] as number]!] = n![i] as number;
      people += n![i] as number;
    }
    await this.conn.run('DROP TABLE stage_suppress_values');
    await this.conn.run('SET threads = 1');
    return { people, byType };
  }

  /**
   * Writes the final `companies` and `contacts` tables from the staged rows; returns their row counts.
   * Sort keys are ranked on a narrow (seq, id) table and joined back: a window over the wide rows would
   * materialize every column twice (measured 13 s vs 5.4 s for 1M contacts).
   */
  async build(onStep: StepFn = () => undefined): Promise<{ contacts: number; companies: number }> {
    await this.conn.run(`SET threads = ${this.threads}`);
    await setBuildMemoryLimit(this.conn, PEOPLE);
    onStep(0, 3);
    await this.conn.run(
      `CREATE TEMP TABLE stage_company_order AS SELECT id, row_number() OVER (ORDER BY id) AS sort_key FROM ` +
        `${COMPANIES}`,
    );
    const companySelect = COMPANY_COLUMNS.map((c) => {
      if (c.name === 'contact_count') return 'coalesce(n.cnt, 0)';
      if (c.name === 'sort_key') return 'o.sort_key';
      return `c.${ident(c.name)}`;
    });
    await this.conn.run(
      `INSERT INTO ${TABLE.company} (${COMPANY_COLUMNS.map((c) => ident(c.name)).join(', ')})
       SELECT ${companySelect.join(', ')}
       FROM ${COMPANIES} c
       JOIN stage_company_order o ON o.id = c.id
       LEFT JOIN (SELECT company_id, count(*) AS cnt FROM ${PEOPLE} WHERE company_id IS NOT NULL GROUP BY company_id) n ON n.company_id = c.id
       ORDER BY o.sort_key`,
    );
    onStep(1, 3);
    await this.conn.run(
      `CREATE TEMP TABLE stage_person_order AS SELECT seq, row_number() OVER (ORDER BY id) AS sort_key FROM ${PEOPLE}`,
    );
    const source = (name: string): string => {
      if (name === 'sort_key') return 'o.sort_key';
      const fromEmployer = EMPLOYER_COLUMNS.get(name);
      return fromEmployer ? `e.${ident(fromEmployer)}` : `p.${ident(name)}`;
    };
    await this.conn.run(
      `INSERT INTO ${TABLE.contact} (${CONTACT_COLUMNS.map((c) => ident(c.name)).join(', ')})
       SELECT ${CONTACT_COLUMNS.map((c) => source(c.name)).join(', ')}
       FROM ${PEOPLE} p
       JOIN stage_person_order o ON o.seq = p.seq
       LEFT JOIN ${TABLE.company} e ON e.id = p.company_id
       ORDER BY o.sort_key`,
    );
    await this.conn.run(
      `CREATE TABLE ${ROLE_REFS} AS SELECT id AS person_id, unnest(unresolved_company_ids) AS company_id FROM ` +
        `${PEOPLE} WHERE unresolved_company_ids IS NOT NULL ORDER BY id`,
    );
    onStep(2, 3);
    const counts = await this.conn.runAndReadAll(
      `SELECT (SELECT count(*) FROM ${TABLE.contact}) AS contacts, (SELECT count(*) FROM ${TABLE.company}) AS ` +
        `companies`,
    );
    const [contacts, companies] = counts.getRows()[0]!.map(Number) as [number, number];
    this.counts = { contacts, companies };
    return this.counts;
  }

  private counts: { contacts: number; companies: number } | null = null;
  /** The release a delta builds on: publish refuses to swap it out if another release serves by then. */
  private parent: string | null = null;

  /** The serving release of the data dir as the base of a delta load (delta-base.ts), or null when none serves. */
  async deltaBase(): Promise<DeltaBase | null> {
    const base = await openDeltaBase(this.conn, this.files.dataDir, { people: PEOPLE, companies: COMPANIES });
    if (!base) return null;
    this.parent = base.id;
    await this.startCopies(base.id);
    return {
      ...base,
      patch: (deletes, suppression, onStep) => this.patch(base.id, deletes, suppression, onStep),
      // Copying the base rows is one bulk step: every core, then back to one for what follows.
      stageRest: async (deletes) => {
        await this.conn.run(`SET threads = ${this.threads}`);
        try {
          return await base.stageRest(deletes);
        } finally {
          await this.conn.run('SET threads = 1');
        }
      },
    };
  }

  /**
   * What a patch works on, started as soon as the delta's base is known: a copy of the serving release's file, and its
   * point store's base linked and overlay copied (the overlay is small; a full store is not copied, the delta writes an
   * overlay over it, point-store/schema.ts). The files never change, and copying (6 GB at 10 M contacts, bound by the
   * disk) runs on libuv's threads while the delta's rows are read, normalized and staged on the cores. Null when the
   * base cannot be patched (see patch()).
   */
  private copies: { release: Promise<void>; points: Promise<void>; pointsBase: string; overlay: boolean } | null = null;

  private async startCopies(parentId: string): Promise<void> {
    const parentFile = releaseFile(this.files.dataDir, parentId);
    if (this.files.rebuild || !(await hasRoleRefs(this.conn))) return;
    const store = this.parentPointStore(parentId, parentFile);
    if (!store) return;
    const parentPoints = pointStoreFile(parentFile);
    const baseTmp = `${this.files.pointsBase}.tmp`;
    const copies = {
      release: copyFile(parentFile, this.files.patch),
      points: store.overlay
        ? bothSettled(
            linkOrCopy(pointStoreBaseFile(parentPoints), baseTmp),
            copyFile(parentPoints, `${this.files.points}.tmp`),
          ).then(() => undefined)
        : linkOrCopy(parentPoints, baseTmp),
      pointsBase: store.baseReleaseId,
      overlay: store.overlay,
    };
    // Awaited where the copies are used, and by abort(); until then a failure must not count as unhandled.
    copies.release.catch(() => undefined);
    copies.points.catch(() => undefined);
    this.copies = copies;
  }

  /** What the patch of a delta wrote (patch-release.ts), for publish; null when the release is built in full. */
  private patched: (PatchedRows & { parentId: string; mainDb: string }) | null = null;

  /**
   * A delta written by patching a copy of the base (DeltaBase.patch), or null when the base cannot be patched: its
   * point store is missing or of another layout, it lacks the role references table of current releases, or the
   * load asked for a rebuild. The copy is attached as PATCHED and made the connection's default database, so
   * publish writes the meta, point store and index from it as it does for a built release.
   */
  private async patch(
    parentId: string,
    deletes: readonly string[],
    suppression: Suppression | undefined,
    onStep: (done: number, total: number) => void = () => undefined,
  ): Promise<PatchedDelta | null> {
    const copies = this.copies;
    if (!copies) return null;
    await this.conn.run(`SET threads = ${this.threads}`);
    // A patch touches few rows: DuckDB's buffer pool need not cache the serving release's whole file (at 10 M
    // contacts the copy alone is 6 GB), so its memory stays far below a full load's.
    await this.conn.run(`SET memory_limit = '${PATCH_MEMORY_LIMIT}'`);
    const delta = await prepareDelta(this.conn, { people: PEOPLE, companies: COMPANIES }, deletes);
    await this.conn.run(`CREATE TEMP TABLE delta_restated AS SELECT id FROM ${PEOPLE}`);
    const ofBase = suppression
      ? await this.suppressionMatches(
          suppression,
          `${BASE}.${ident(TABLE.contact)}`,
          'id',
          'delta_suppressed',
          'p.id NOT IN (SELECT id FROM delta_restated) AND p.id NOT IN (SELECT id FROM delta_deletes)',
        )
      : await this.suppressionMatches(EMPTY_SUPPRESSION, PEOPLE, 'id', 'delta_suppressed');
    const ofDelta = suppression ? await this.suppress(suppression) : { people: 0, byType: ofBase.byType };
    const suppressed: SuppressedPeople = {
      people: ofBase.people + ofDelta.people,
      byType: Object.fromEntries(
        SUPPRESSION_TYPES.map((t) => [t, ofBase.byType[t] + ofDelta.byType[t]]),
      ) as SuppressedPeople['byType'],
    };
    await this.conn.run(`SET threads = ${this.threads}`);
    onStep(1, 3);
    await copies.release;
    onStep(2, 3);
    const mainDb = String((await this.conn.runAndReadAll('SELECT current_database()')).getRows()[0]![0]);
    await this.conn.run(`ATTACH '${this.files.patch.replace(/'/g, "''")}' AS ${PATCHED}`);
    await this.conn.run(`USE ${PATCHED}`);
    const rows = await patchRelease(this.conn, { people: PEOPLE, companies: COMPANIES }, ROLE_REFS);
    this.patched = { ...rows, parentId, mainDb };
    this.counts = { contacts: rows.contacts, companies: rows.companies };
    return { delta, suppressed, contacts: rows.contacts, companies: rows.companies };
  }

  /**
   * The parent's point store, when a delta can write an overlay over it: present, of this build's card layout and
   * full-card choice (and, for an overlay, with its base). `overlay`: it is an overlay itself (then its base is the
   * delta's base too).
   */
  private parentPointStore(parentId: string, parentFile: string): { baseReleaseId: string; overlay: boolean } | null {
    let db: Database.Database | null = null;
    try {
      db = new Database(pointStoreFile(parentFile), { readonly: true, fileMustExist: true });
      const meta = new Map(db.prepare(`SELECT key, value FROM ${POINT_META_TABLE}`).raw().all() as [string, string][]);
      const matches =
        meta.get(POINT_META.cardColumns) === JSON.stringify(CONTACT_CARD_COLUMNS) &&
        meta.has(POINT_META.fullCardColumns) === this.files.fullCards &&
        (!this.files.fullCards || meta.get(POINT_META.fullCardColumns) === JSON.stringify(FULL_CARD_COLUMNS));
      const base = meta.get(POINT_META.baseReleaseId);
      const own = meta.get(base === undefined ? POINT_META.releaseId : POINT_META.overlayReleaseId);
      if (!matches || own !== parentId) return null;
      if (base === undefined) return { baseReleaseId: own, overlay: false };
      // An overlay's base must be there and its own (throws otherwise: then the delta is rebuilt, not patched).
      attachBase(db, pointStoreFile(parentFile), meta);
      return { baseReleaseId: base, overlay: true };
    } catch {
      return null;
    } finally {
      db?.close();
    }
  }

  /**
   * Publishing a patched delta: the meta, then the point store and the index patched from the parent's (the index
   * built in full when the parent has none this build reads), then the copy checkpointed and detached.
   */
  private async publishPatched(
    patched: PatchedRows & { parentId: string; mainDb: string },
    onStep: StepFn,
  ): Promise<void> {
    const parentFile = releaseFile(this.files.dataDir, patched.parentId);
    const copies = this.copies!;
    await copies.points;
    const points = await writePointOverlay(
      this.conn,
      `${this.files.points}.tmp`,
      this.releaseId,
      {
        gone: patched.removed.contact,
        writtenTable: PATCH_CONTACTS,
        fullCards: this.files.fullCards,
        baseReleaseId: copies.pointsBase,
        fromParent: copies.overlay,
      },
      onStep,
    );
    if (points.cards !== patched.written.contact.length)
      throw new Error(`point store patch wrote ${points.cards} cards for ${patched.written.contact.length} contacts`);
    const step = (d: number, t: number) => onStep(d, t, 'index');
    await buildBitmapIndex(this.conn, this.files.deltaIndex, this.releaseId, step, {
      contact: { table: PATCH_CONTACTS, rows: patched.positions.contact, ranges: false },
      company: { table: PATCH_COMPANIES, rows: patched.positions.company, ranges: false },
    });
    // The merge runs in this process's memory: the written rows (in the point store and the delta's index now) and
    // DuckDB's cached blocks of the copy go first; if DuckDB cannot let go of enough, it keeps them.
    for (const table of [PATCH_CONTACTS, PATCH_COMPANIES, PEOPLE, COMPANIES])
      await this.conn.run(`DROP TABLE IF EXISTS temp.${table}`);
    await this.conn.run(`SET memory_limit = '${MERGE_MEMORY_LIMIT}'`).catch(() => undefined);
    // The copy's changed row groups are written back to its file by DuckDB's threads while the merge runs on this one
    // (its reads and writes on libuv's); the checkpoint settles before anything else uses the connection.
    const checkpoint = this.conn.run(`CHECKPOINT ${PATCHED}`);
    checkpoint.catch(() => undefined);
    try {
      await patchBitmapIndex({
        parentFile: indexFile(parentFile),
        parentId: patched.parentId,
        deltaFile: this.files.deltaIndex,
        outFile: `${this.files.index}.tmp`,
        releaseId: this.releaseId,
        entities: {
          contact: { removed: patched.removed.contact, written: patched.written.contact },
          company: { removed: patched.removed.company, written: patched.written.company },
        },
      });
    } catch (e) {
      await checkpoint.catch(() => undefined);
      if (!(e instanceof ParentIndexUnreadable)) throw e;
      // A parent without an index this build reads: the new release's index is built from its rows.
      process.stderr.write(`the serving release's index cannot be patched (${e.message}): building it in full\n`);
      await this.conn.run(`SET memory_limit = '${PATCH_MEMORY_LIMIT}'`);
      await buildBitmapIndex(this.conn, `${this.files.index}.tmp`, this.releaseId, step);
    }
    await rm(this.files.deltaIndex, { force: true });
    onStep(0, 1, 'checkpoint');
    await checkpoint;
    await this.conn.run(`USE ${ident(patched.mainDb)}`);
    await this.conn.run(`DETACH ${PATCHED}`);
    await this.conn.run(`DETACH ${BASE}`);
    this.close();
    // The writer's own file held only the staging: the patched copy is the release.
    await rm(`${this.files.final}.tmp`, { force: true });
    await rename(this.files.patch, `${this.files.final}.tmp`);
    onStep(1, 1, 'checkpoint');
  }

  async publish(source: ReleaseSource, onStep: StepFn = () => undefined): Promise<{ createdAt: string }> {
    const counts = this.counts;
    if (!counts) throw new Error('publish() before build()');
    const createdAt = new Date().toISOString();
    await this.writeMeta({
      release_id: this.releaseId,
      created_at: createdAt,
      as_of: source.asOf,
      network_host: source.networkHost,
      contacts: String(counts.contacts),
      companies: String(counts.companies),
      source: JSON.stringify(source),
    });
    if (this.patched) await this.publishPatched(this.patched, onStep);
    else {
      const points = await this.writePointReadIndexes(`${this.files.points}.tmp`, this.releaseId, onStep);
      if (points.cards !== counts.contacts)
        throw new Error(`point store holds ${points.cards} cards for ${counts.contacts} contacts`);
      await buildBitmapIndex(this.conn, `${this.files.index}.tmp`, this.releaseId, (d, t) => onStep(d, t, 'index'));
      await this.finish();
    }
    // A delta applies to its parent only: if another release serves now (a load or a rollback meanwhile), publishing
    // would drop that release's changes. Checked just before the swap.
    const serving = this.parent === null ? null : ((await readCurrent(this.files.dataDir))?.id ?? null);
    if (this.parent !== null && serving !== this.parent)
      throw new DeltaRefused(
        `release ${serving ?? '(none)'} serves now, not ${this.parent} this delta was built on; run the delta again`,
      );
    await rename(`${this.files.final}.tmp`, this.files.final);
    if (this.patched) await rename(`${this.files.pointsBase}.tmp`, this.files.pointsBase);
    await rename(`${this.files.points}.tmp`, this.files.points);
    await rename(`${this.files.index}.tmp`, this.files.index);
    const { dataDir } = this.files;
    const file = `${this.releaseId}.duckdb`;
    await publishCurrent(dataDir, { id: this.releaseId, file, createdAt, ...counts, source: { ...source } });
    // Serving from here on: whatever fails after this must not remove the release's files (abort()).
    this.published = true;
    await rm(this.stagingDir, { recursive: true, force: true });
    await rm(loadingMarker(dataDir, this.releaseId), { force: true });
    // Published: a failed prune only leaves older files behind (the next load prunes them), so it must not
    // report this load as failed.
    await pruneReleases(dataDir).catch(() => undefined);
    return { createdAt };
  }

  /** Set once CURRENT names this release: abort() then leaves its files alone. */
  private published = false;

  async abort(): Promise<void> {
    try {
      this.close();
    } catch {
      /* already failing; the caller's error matters */
    }
    // A copy still running would write its file again after it is removed.
    if (this.copies) await Promise.allSettled([this.copies.release, this.copies.points]);
    const { final, points, pointsBase, index, patch, deltaIndex } = this.files;
    const temporary = [`${final}.tmp`, `${final}.tmp.wal`, `${points}.tmp`, `${pointsBase}.tmp`, `${index}.tmp`];
    const leftovers = [
      ...temporary,
      // The final names exist between publish's renames and CURRENT naming them: a failure there removes them.
      ...(this.published ? [] : [final, points, pointsBase, index]),
      patch,
      `${patch}.wal`,
      deltaIndex,
    ];
    await Promise.all(leftovers.map((f) => rm(f, { force: true })));
    await rm(this.stagingDir, { recursive: true, force: true });
    await rm(loadingMarker(this.files.dataDir, this.releaseId), { force: true });
  }

  /**
   * What point reads use, written once build() is done: DuckDB's indexes on the lookup columns (reads the
   * point store does not cover) and the point store (point-store-writer.ts). Both at once: the indexes are
   * built by DuckDB's threads while the point store is copied on this one (1 M contacts: 10.5 s together,
   * 13.5 s one after the other). Both settle before an error is reported, so nothing runs on a closed file.
   */
  private async writePointReadIndexes(
    pointsFile: string,
    releaseId: string,
    onTable?: (done: number, total: number) => void,
  ): Promise<{ cards: number; keys: number }> {
    const reader = await this.instance.connect();
    try {
      const indexes = (async () => {
        for (const sql of lookupColumnIndexDdl()) await this.conn.run(sql);
      })();
      const [, points] = await bothSettled(
        indexes,
        writePointStore(reader, pointsFile, releaseId, onTable, { fullCards: this.files.fullCards }),
      );
      return points;
    } finally {
      reader.closeSync();
    }
  }

  private async writeMeta(meta: Record<string, string>): Promise<void> {
    for (const [key, value] of Object.entries(meta)) {
      await this.conn.run(`INSERT INTO ${META_TABLE} VALUES ($1, $2)`, [key, value]);
    }
  }

  /** Checkpoints and closes (temp tables vanish): the file is complete and self-contained (no WAL). */
  private async finish(): Promise<void> {
    await this.conn.run('CHECKPOINT');
    this.close();
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.conn.closeSync();
    } finally {
      this.instance.closeSync();
    }
  }
}

/**
 * A second name for a file that is never written again (a point store's base), so a release keeps it after the one
 * that wrote it is pruned; a copy (said on stderr: 5 GB at 10 M contacts) where the file system has no hard links.
 */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await rm(to, { force: true });
  try {
    await link(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK' && code !== 'ENOSYS') throw e;
    process.stderr.write(`the point store could not be linked (${code}): copying it\n`);
    await copyFile(from, to);
  }
}

/**
 * Both values once both have settled, or the first error only then: nothing of a failed pair is still running when the
 * caller cleans up (a copy would write its file again, a closed file be read).
 */
async function bothSettled<A, B>(a: Promise<A>, b: Promise<B>): Promise<[A, B]> {
  const [x, y] = await Promise.allSettled([a, b]);
  if (x.status === 'rejected') throw x.reason;
  if (y.status === 'rejected') throw y.reason;
  return [x.value, y.value];
}
