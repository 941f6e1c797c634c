import { open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type DuckDBConnection, DuckDBInstance, type DuckDBValue } from '@duckdb/node-api';
import { type ColumnDef, type Entity, findColumn } from '../../domain/catalog/index.js';
import { AppError } from '../../domain/errors/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import { csvField, FORMULA_SPACE, FORMULA_TRIGGER, PLAIN_NUMBER } from '../../domain/text/csv-cell.js';
import type { CsvExportRequest, CsvExportResult, ExportCount } from '../port.js';
import { Params } from './compile/params.js';
import { runInterruptible } from './interruptible.js';
import type { ReleaseSession } from './open-release.js';
import { releaseFile } from './release-store.js';
import { plainRows } from './rows.js';
import { ident, TABLE } from './schema.js';
import { CONTACT_COUNT, keptSql, type Suppressed, visiblePredicate } from './suppression/suppressed.js';

/**
 * CSV exports on the DuckDB engine, written by DuckDB's own CSV writer (`COPY (SELECT …) TO …`).
 *
 * The served release is opened READ_ONLY with external access off, so COPY is refused there. An export
 * therefore opens its own READ_ONLY instance of the same release file, allowed to write into the exports
 * folder only (`allowed_directories`, then external access off and the configuration locked, so no
 * statement can read or write anywhere else), and closes it when done. The rows are copied in slices of
 * `batchRows` in the release's stable order (keyset on sort_key): each slice is one COPY into a part file
 * appended to the export, which gives progress, a safe point between slices and a time budget per slice.
 *
 * Cells: text as is; lists joined with `; `; records as their JSON text; booleans true/false; numbers as
 * DuckDB prints them; nulls empty. Text, list and record cells are neutralized against spreadsheet formulas by the
 * rule of domain/text/csv-cell.ts (read there): a cell that is exactly a plain number (E.164 phones `+1…`, `-12.5`)
 * is written as it is; any other cell whose first character past any space is `=`, `+`, `-` or `@`, or which starts
 * with a tab or CR, gets a leading `'`; and so does such a character at the start of a `;`-separated part (past its
 * spaces) unless the part is a plain number. Text, list and record cells are always quoted, so a `;` never splits
 * one; numbers and booleans are not.
 * Quoting is RFC 4180 (quotes doubled); UTF-8; lines end in CRLF; one header row.
 */

/** First character past the spaces a spreadsheet skips is a formula trigger, or the cell starts with a tab or CR. */
const FORMULA_START = `'^(${FORMULA_SPACE}*${FORMULA_TRIGGER}|[\\t\\r])'`;

function columnOf(entity: Entity, name: string): ColumnDef {
  const col = findColumn(entity, name, true);
  if (!col) throw new Error(`export column ${name} is not a ${entity} column`);
  return col;
}

/**
 * Rule 3 of csv-cell.ts: each `;`-separated part after the first whose first character past its spaces is a formula
 * trigger gets a `'` before that character, unless the part is a plain number. RE2 has no lookahead, so the parts are
 * split, mended one by one and joined again (only in cells holding a `;`).
 */
const afterSemicolons = (v: string) =>
  `CASE WHEN contains(${v}, ';') THEN array_to_string(list_transform(string_split(${v}, ';'), lambda s, i: ` +
  `CASE WHEN i > 1 AND regexp_matches(s, '^${FORMULA_SPACE}*${FORMULA_TRIGGER}') AND NOT regexp_matches(s, ` +
  `'^${FORMULA_SPACE}*${PLAIN_NUMBER}$') THEN regexp_replace(s, '^(${FORMULA_SPACE}*)', '\\1''') ELSE s END), ';') ` +
  `ELSE ${v} END`;

/** The whole cell is a plain number (rule 1 of csv-cell.ts): written as it is. */
const NUMBER_CELL = `'^${PLAIN_NUMBER}$'`;

const neutralized = (v: string) =>
  `CASE WHEN regexp_matches(${v}, ${NUMBER_CELL}) THEN ${v} WHEN regexp_matches(${v}, ${FORMULA_START}) THEN ` +
  `'''' || ${afterSemicolons(v)} ELSE ${afterSemicolons(v)} END`;

/** Whether a column's cells are text (always quoted, neutralized) rather than numbers or booleans. */
export const isTextCell = (col: ColumnDef): boolean =>
  col.storage === 'VARCHAR' || col.storage === 'JSON' || col.storage === 'VARCHAR[]';

/** One output cell as written by COPY: text, list and record cells neutralized; the rest as stored. */
export function cellSql(col: ColumnDef, alias: string): string {
  const c = ident(col.name);
  switch (col.storage) {
    case 'VARCHAR':
    case 'JSON':
      return `${neutralized(c)} AS ${ident(alias)}`;
    case 'VARCHAR[]':
      return `${neutralized(`array_to_string(${c}, '; ')`)} AS ${ident(alias)}`;
    case 'BOOLEAN':
    case 'BIGINT':
    case 'DOUBLE':
      return `${c} AS ${ident(alias)}`;
  }
}

export interface Statement {
  sql: string;
  params: DuckDBValue[];
}

export interface Slicing {
  /**
   * count and max(sort_key) of the next slice: at most `limit` rows after `lo`, without the contacts `now`
   * suppresses (the suppression as it is when the slice is cut).
   */
  bounds(lo: number, limit: number, now: Suppressed | null): Statement;
  /** The COPY of the slice (lo, hi] into `file`, in sort_key order, without a header; `now` as for its bounds. */
  copy(lo: number, hi: number, file: string, now: Suppressed | null): Statement;
}

/**
 * The two statements of a slice. The next slice's bounds are the first `limit` kept rows after `lo` in
 * sort_key order: an ORDER BY, as search pages have, since a parallel scan does not keep storage order
 * (a bare LIMIT would pick any rows, and the slice (lo, hi] would then hold more than `n`). With a cap, the
 * rows it keeps are numbered per company_domain over every match (a window) and slices are cut from those.
 * Every value is a bound parameter.
 *
 * Suppression: the matches are those the suppression of the export's start (`start`) leaves (so a cap numbers the
 * same rows at every slice, and never keeps more than its cap of a company), and each slice also leaves out the
 * contacts suppressed since (`now`): a person suppressed while the export runs is in no slice cut after that.
 */
export function slicing(
  entity: Entity,
  where: IRNode,
  columns: readonly ColumnDef[],
  maxPerCompany: number | null,
  start: Suppressed | null = null,
): Slicing {
  if (maxPerCompany !== null && entity !== 'contact')
    throw new Error('a per-company cap applies to contact exports only');
  if (start?.companies && columns.some((c) => c.entity === 'company' && c.name === CONTACT_COUNT))
    // No operation exports companies (exports are of contacts); their contact count would need the cut per row.
    throw new Error('a company export cannot write contact_count while a suppression cuts it');
  const matches = (p: Params) => visiblePredicate(entity, where, p, start);
  /** The contacts suppressed since the start as well (the whole suppression of now: it holds the start's mostly). */
  const notNow = (p: Params, now: Suppressed | null) =>
    entity === 'contact' && now && now !== start ? ` AND ${keptSql(now.contactsBits, p)}` : '';
  const table = ident(TABLE[entity]);
  const cells = columns.map((c, i) => cellSql(c, `c${i}`)).join(', ');
  const quoted = columns.flatMap((c, i) => (isTextCell(c) ? [ident(`c${i}`)] : []));
  const forceQuote = quoted.length ? `, FORCE_QUOTE (${quoted.join(', ')})` : '';
  /** Rows of the export: the matches, or with a cap the sort keys it keeps. */
  const kept = (p: Params) =>
    `SELECT sort_key FROM ${table} WHERE ${matches(p)} QUALIFY company_domain IS NULL OR ` +
    `row_number() OVER (PARTITION BY company_domain ORDER BY sort_key) <= ${p.add(maxPerCompany!)}`;
  return {
    bounds(lo, limit, now) {
      const p = new Params();
      const sql =
        maxPerCompany === null
          ? `SELECT count(*) AS n, max(sort_key) AS hi FROM (SELECT sort_key FROM ${table} WHERE ` +
            `${matches(p)}${notNow(p, now)} AND sort_key > ${p.add(lo)} ORDER BY sort_key LIMIT ${p.add(limit)})`
          : `SELECT count(*) AS n, max(sort_key) AS hi FROM (SELECT sort_key FROM (${kept(p)}) WHERE sort_key > ` +
            `${p.add(lo)}${notNow(p, now)} ORDER BY sort_key LIMIT ${p.add(limit)})`;
      return { sql, params: p.values };
    },
    copy(lo, hi, file, now) {
      const p = new Params();
      const range = `sort_key > ${p.add(lo)} AND sort_key <= ${p.add(hi)}`;
      const rows =
        maxPerCompany === null
          ? `${range} AND ${matches(p)}${notNow(p, now)}`
          : `${range} AND sort_key IN (SELECT sort_key FROM (${kept(p)}) WHERE ${range}${notNow(p, now)})`;
      return {
        sql:
          `COPY (SELECT ${cells} FROM ${table} WHERE ${rows} ORDER BY sort_key) TO ${p.add(file)} (FORMAT csv, ` +
          `HEADER false, NEW_LINE '\\r\\n'${forceQuote})`,
        params: p.values,
      };
    },
  };
}

export async function exportCount(
  session: ReleaseSession,
  entity: Entity,
  where: IRNode,
  req: { maxPerCompany: number | null; budgetMs: number; tenant?: string },
): Promise<ExportCount> {
  const p = new Params();
  const table = ident(TABLE[entity]);
  const pred = visiblePredicate(entity, where, p, session.suppression());
  let sql: string;
  if (req.maxPerCompany === null) {
    sql = `SELECT count(*) AS n, count(*) AS capped FROM ${table} WHERE ${pred}`;
  } else {
    if (entity !== 'contact') throw new Error('a per-company cap applies to contact exports only');
    const k = p.add(req.maxPerCompany);
    sql =
      `SELECT count(*) AS n, count(*) FILTER (WHERE company_domain IS NULL OR rn <= ${k}) AS capped FROM (SELECT ` +
      `company_domain, row_number() OVER (PARTITION BY company_domain ORDER BY sort_key) AS rn FROM ${table} WHERE ` +
      `${pred})`;
  }
  const rows = await session.run(sql, p.values, {
    budgetMs: req.budgetMs,
    ...(req.tenant ? { tenant: req.tenant } : {}),
  });
  return { releaseId: session.info.id, matches: Number(rows[0]!.n), capped: Number(rows[0]!.capped) };
}

export interface ExportInstanceOptions {
  dataDir: string;
  threads: number;
  memoryLimit: string;
}

/** A READ_ONLY instance of the release that may write into `dir` only (and read nothing else). */
async function openExportInstance(
  file: string,
  dir: string,
  o: ExportInstanceOptions,
): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(file, {
    access_mode: 'READ_ONLY',
    threads: String(o.threads),
    memory_limit: o.memoryLimit,
  });
  let conn: DuckDBConnection | undefined;
  try {
    conn = await instance.connect();
    await conn.run(`SET allowed_directories = ['${`${dir}/`.replace(/'/g, "''")}']`);
    await conn.run('SET enable_external_access = false');
    await conn.run('SET lock_configuration = true');
    return { instance, conn };
  } catch (e) {
    conn?.closeSync();
    instance.closeSync();
    throw e;
  }
}

/**
 * Runs one statement within `budgetMs`; past it the statement is interrupted until it stops (interruptible.ts), and
 * the export answers query.timeout.
 */
async function runWithin(
  conn: DuckDBConnection,
  sql: string,
  params: DuckDBValue[],
  budgetMs: number,
): Promise<Record<string, unknown>[]> {
  const statement = runInterruptible(conn, sql, params, Date.now() + budgetMs);
  try {
    return plainRows(await statement.settled);
  } catch (e) {
    if (statement.timedOut || /interrupt/i.test((e as Error).message))
      throw new AppError('query.timeout', 'An export slice passed its time budget and was stopped.');
    throw e;
  }
}

const COPY_BUFFER = 4 * 1024 * 1024;

export async function exportCsv(
  session: ReleaseSession,
  entity: Entity,
  where: IRNode,
  req: CsvExportRequest,
  o: ExportInstanceOptions,
): Promise<CsvExportResult> {
  if (!Number.isSafeInteger(req.batchRows) || req.batchRows < 1)
    throw new RangeError(`batchRows must be >= 1, got ${req.batchRows}`);
  const columns = req.columns.map((c) => columnOf(entity, c.name));
  const s = slicing(entity, where, columns, req.maxPerCompany, session.suppression());
  const part = `${req.file}.part`;
  const fh = await open(req.file, 'w');
  let ok = false;
  let rows = 0;
  let bytes = 0;
  const db = await openExportInstance(releaseFile(o.dataDir, session.info.id), dirname(req.file), o).catch(
    async (e) => {
      await fh.close();
      await rm(req.file, { force: true });
      throw e;
    },
  );
  try {
    const header = Buffer.from(`${req.columns.map((c) => csvField(c.header)).join(',')}\r\n`, 'utf8');
    await fh.write(header);
    bytes += header.length;
    const buf = Buffer.allocUnsafe(COPY_BUFFER);
    let lo = -1;
    while (rows < req.maxRows) {
      const want = Math.min(req.batchRows, req.maxRows - rows);
      // The suppression is read again at each slice: contacts suppressed since the last one are left out from here.
      const now = session.suppression();
      const bounds = s.bounds(lo, want, now);
      const [b] = await runWithin(db.conn, bounds.sql, bounds.params, req.budgetMs);
      const n = Number(b?.n ?? 0);
      if (n > 0) {
        const hi = Number(b!.hi);
        const copy = s.copy(lo, hi, part, now);
        await runWithin(db.conn, copy.sql, copy.params, req.budgetMs);
        // Append the slice to the export (the part file is the only place COPY may write).
        const src = await open(part, 'r');
        try {
          for (;;) {
            const { bytesRead } = await src.read(buf, 0, buf.length, null);
            if (bytesRead === 0) break;
            await fh.write(buf, 0, bytesRead);
            bytes += bytesRead;
          }
        } finally {
          await src.close();
        }
        rows += n;
        lo = hi;
      }
      await req.onBatch?.(rows);
      if (n < want) break;
    }
    await fh.sync();
    ok = true;
  } finally {
    db.conn.closeSync();
    db.instance.closeSync();
    await fh.close();
    await rm(part, { force: true });
    if (!ok) await rm(req.file, { force: true });
  }
  return { releaseId: session.info.id, rows, bytes };
}
