import { open, rm } from 'node:fs/promises';
import { findColumn, type ColumnDef, type Entity } from '../../domain/catalog/index.js';
import type { IRNode } from '../../domain/query/ir.js';
import type { CsvExportRequest, CsvExportResult, ExportCount } from '../port.js';
import { compileWhere } from './compile/compile-where.js';
import { Params } from './compile/params.js';
import type { ReleaseSession } from './open-release.js';
import { ident, TABLE } from './schema.js';

/**
 * CSV exports on the DuckDB engine. The served release is opened READ_ONLY with external access off, so
 * `COPY … TO` is refused there ("file system operations are disabled by configuration"); instead DuckDB
 * renders each batch of rows as finished CSV text in SQL (one string per batch, `string_agg`) and Node
 * appends it to the file. Rows never pass through JS objects one by one.
 *
 * Cells: text as is; lists joined with `; `; records as their JSON text; booleans true/false; numbers as
 * DuckDB prints them; nulls empty. Text, list and record cells whose first non-space character is `=`,
 * `+`, `-` or `@`, or which start with a tab or CR, get a leading `'` so spreadsheets do not run them as
 * formulas (OWASP "CSV injection"); E.164 phones (`+1…`) are therefore written as `'+1…`. Quoting follows
 * RFC 4180: a cell holding `"`, `,`, CR or LF is wrapped in quotes with quotes doubled. Lines end in CRLF.
 */

const CRLF = 'chr(13) || chr(10)';
/** First non-space character is a formula trigger, or the cell starts with a tab or CR. */
const FORMULA_START = `'^(\\s*[=+\\-@]|[\\t\\r])'`;

/** Header cells are catalog names or labels; quoted by the same RFC 4180 rule as the data. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function columnOf(entity: Entity, name: string): ColumnDef {
  const col = findColumn(entity, name, true);
  if (!col) throw new Error(`export column ${name} is not a ${entity} column`);
  return col;
}

/** Stage 1: the cell as text (null stays null), before neutralizing and quoting. */
function asText(col: ColumnDef): string {
  const c = ident(col.name);
  switch (col.storage) {
    case 'VARCHAR':
    case 'JSON':
      return c;
    case 'VARCHAR[]':
      return `array_to_string(${c}, '; ')`;
    case 'BOOLEAN':
      return `CASE WHEN ${c} THEN 'true' WHEN NOT ${c} THEN 'false' END`;
    case 'BIGINT':
    case 'DOUBLE':
      return `CAST(${c} AS VARCHAR)`;
  }
}

const isTextual = (col: ColumnDef) => col.storage === 'VARCHAR' || col.storage === 'JSON' || col.storage === 'VARCHAR[]';

/** Stage 2 (text, list, record cells): a leading `'` before a formula trigger. */
const neutralized = (v: string) => `CASE WHEN regexp_matches(${v}, ${FORMULA_START}) THEN '''' || ${v} ELSE ${v} END`;

/** Stage 3: the RFC 4180 field; null becomes the empty field. Numbers and booleans never need quotes. */
function quoted(v: string, textual: boolean): string {
  if (!textual) return `coalesce(${v}, '')`;
  const special = `contains(${v}, '"') OR contains(${v}, ',') OR contains(${v}, chr(10)) OR contains(${v}, chr(13))`;
  return `CASE WHEN ${v} IS NULL THEN '' WHEN ${special} THEN '"' || replace(${v}, '"', '""') || '"' ELSE ${v} END`;
}

/**
 * One batch: rows after `$after` in sort_key order, at most `$limit`, rendered as CSV lines joined by CRLF.
 * Without a per-company cap the page is read in physical order (tables are written in sort_key order and
 * DuckDB keeps insertion order, so LIMIT stops the scan early, as the search pages do). With a cap, the
 * qualifying keys are found first on the two narrow columns and the page is then read by those keys.
 */
export function batchSql(entity: Entity, where: IRNode, columns: readonly ColumnDef[], maxPerCompany: number | null): { sql: string; params: Params; after: string; limit: string } {
  const p = new Params();
  const table = ident(TABLE[entity]);
  const pred = compileWhere(entity, where, p);
  const after = p.add(0);
  const limit = p.add(1);
  const cols = columns.map((c) => ident(c.name)).join(', ');
  if (maxPerCompany === null) {
    const page = `SELECT sort_key, ${cols} FROM ${table} WHERE ${pred} AND sort_key > ${after} LIMIT ${limit}`;
    return { sql: `WITH page AS (${page}), ${stages(columns)}`, params: p, after, limit };
  }
  if (entity !== 'contact') throw new Error('a per-company cap applies to contact exports only');
  const k = p.add(maxPerCompany);
  const capped = `SELECT sort_key, company_domain FROM ${table} WHERE ${pred} QUALIFY company_domain IS NULL OR row_number() OVER (PARTITION BY company_domain ORDER BY sort_key) <= ${k}`;
  const keys = `SELECT sort_key FROM (${capped}) WHERE sort_key > ${after} ORDER BY sort_key LIMIT ${limit}`;
  const page = `SELECT sort_key, ${cols} FROM ${table} WHERE sort_key > ${after} AND sort_key <= (SELECT max(sort_key) FROM page_keys) AND sort_key IN (SELECT sort_key FROM page_keys)`;
  return { sql: `WITH page_keys AS (${keys}), page AS (${page}), ${stages(columns)}`, params: p, after, limit };
}

/** The three projection stages over `page` and the aggregate that returns one CSV chunk per batch. */
function stages(columns: readonly ColumnDef[]): string {
  const t = columns.map((c, i) => `${asText(c)} AS t${i}`).join(', ');
  const n = columns.map((c, i) => (isTextual(c) ? `${neutralized(`t${i}`)} AS n${i}` : `t${i} AS n${i}`)).join(', ');
  const line = columns.map((c, i) => quoted(`n${i}`, isTextual(c))).join(`, ',', `);
  return `texts AS (SELECT sort_key, ${t} FROM page), cells AS (SELECT sort_key, ${n} FROM texts)
    SELECT string_agg(concat(${line}), ${CRLF} ORDER BY sort_key) AS chunk, count(*) AS n, max(sort_key) AS last FROM cells`;
}

export async function exportCount(session: ReleaseSession, entity: Entity, where: IRNode, req: { maxPerCompany: number | null; budgetMs: number }): Promise<ExportCount> {
  const p = new Params();
  const table = ident(TABLE[entity]);
  const pred = compileWhere(entity, where, p);
  let sql: string;
  if (req.maxPerCompany === null) {
    sql = `SELECT count(*) AS n, count(*) AS capped FROM ${table} WHERE ${pred}`;
  } else {
    if (entity !== 'contact') throw new Error('a per-company cap applies to contact exports only');
    const k = p.add(req.maxPerCompany);
    sql = `SELECT count(*) AS n, count(*) FILTER (WHERE company_domain IS NULL OR rn <= ${k}) AS capped FROM (SELECT company_domain, row_number() OVER (PARTITION BY company_domain ORDER BY sort_key) AS rn FROM ${table} WHERE ${pred})`;
  }
  const rows = await session.run(sql, p.values, { budgetMs: req.budgetMs });
  return { releaseId: session.info.id, matches: Number(rows[0]!.n), capped: Number(rows[0]!.capped) };
}

export async function exportCsv(session: ReleaseSession, entity: Entity, where: IRNode, req: CsvExportRequest): Promise<CsvExportResult> {
  if (!Number.isSafeInteger(req.batchRows) || req.batchRows < 1) throw new RangeError(`batchRows must be >= 1, got ${req.batchRows}`);
  const columns = req.columns.map((c) => columnOf(entity, c.name));
  const q = batchSql(entity, where, columns, req.maxPerCompany);
  const afterAt = Number(q.after.slice(1)) - 1;
  const limitAt = Number(q.limit.slice(1)) - 1;
  const fh = await open(req.file, 'w');
  let ok = false;
  let rows = 0;
  let bytes = 0;
  try {
    const write = async (text: string) => {
      const buf = Buffer.from(text, 'utf8');
      await fh.write(buf);
      bytes += buf.length;
    };
    await write(`${req.columns.map((c) => csvField(c.header)).join(',')}\r\n`);
    let after = -1;
    while (rows < req.maxRows) {
      const want = Math.min(req.batchRows, req.maxRows - rows);
      const params = [...q.params.values];
      params[afterAt] = after;
      params[limitAt] = want;
      const [res] = await session.run(q.sql, params, { budgetMs: req.budgetMs });
      const n = Number(res?.n ?? 0);
      if (n > 0) {
        await write(`${String(res!.chunk)}\r\n`);
        rows += n;
        after = Number(res!.last);
      }
      await req.onBatch?.(rows);
      if (n < want) break;
    }
    await fh.sync();
    ok = true;
  } finally {
    await fh.close();
    if (!ok) await rm(req.file, { force: true });
  }
  return { releaseId: session.info.id, rows, bytes };
}
