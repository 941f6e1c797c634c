import { closeSync, openSync, writeSync } from 'node:fs';
import type { DuckDBConnection, DuckDBListVector } from '@duckdb/node-api';
import { columnsOf, type Entity, findColumn } from '../../../domain/catalog/index.js';
import { compileWhere } from '../compile/compile-where.js';
import { Params } from '../compile/params.js';
import { ident, TABLE } from '../schema.js';
import { emptyBitset, setRows } from './bitset.js';
import {
  type ColumnHeader,
  compareTerms,
  type EntityHeader,
  encodingOf,
  INDEX_MAGIC,
  INDEX_VERSION,
  type IndexHeader,
  NGRAM_MAX,
  type PostingRef,
  type Term,
  type TermsHeader,
  termColumns,
} from './format.js';

const PREAMBLE = 16;

/** Appends postings to the index file, each 4-byte aligned, in the encoding format.ts describes. */
class PostingWriter {
  private pos = PREAMBLE;
  constructor(private readonly fd: number) {}

  write(rows: Uint32Array, total: number): PostingRef {
    const at = this.pos;
    const enc = encodingOf(rows.length, total);
    if (enc === 'sparse') this.append(rows);
    else if (enc === 'dense') {
      const bits = emptyBitset(total);
      setRows(bits, rows);
      this.append(bits);
    }
    return [at, rows.length];
  }

  private append(words: Uint32Array): void {
    const buf = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
    let done = 0;
    while (done < buf.length) done += writeSync(this.fd, buf, done, buf.length - done, this.pos + done);
    this.pos += buf.length;
  }

  /** Writes the header after the postings and the preamble naming its offset. */
  finish(header: IndexHeader): void {
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    writeSync(this.fd, json, 0, json.length, this.pos);
    const pre = Buffer.alloc(PREAMBLE);
    pre.write(INDEX_MAGIC, 0, 'latin1');
    pre.writeDoubleLE(this.pos, 8);
    writeSync(this.fd, pre, 0, PREAMBLE, 0);
  }
}

/** Runs a `value, list(row ids)` query and writes one posting per row of its answer. */
async function postingsOf(
  conn: DuckDBConnection,
  sql: string,
  total: number,
  out: PostingWriter,
  onTerm: (value: Term | null, ref: PostingRef) => void,
): Promise<void> {
  const result = await conn.stream(sql);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const values = chunk.getColumnVector(0);
    const lists = chunk.getColumnVector(1) as DuckDBListVector;
    const child = lists.childVector;
    for (let i = 0; i < chunk.rowCount; i++) {
      const len = lists.getItem(i) === null ? 0 : lists.getEntryLength(i);
      const start = len ? lists.getEntryOffset(i) : 0;
      const rows = new Uint32Array(len);
      for (let j = 0; j < len; j++) rows[j] = Number(child.getItem(start + j));
      const v = values.getItem(i) as unknown;
      onTerm(v === null ? null : typeof v === 'bigint' ? Number(v) : (v as Term), out.write(rows, total));
    }
  }
}

const ROW_IDS = 'list(sort_key - 1 ORDER BY sort_key)::UINTEGER[]';

/** The word n-grams (1..NGRAM_MAX words) of a words key `t` split into its words, as one DuckDB list. */
function ngramsSql(t: string): string {
  const parts = [t];
  for (let n = 2; n <= NGRAM_MAX; n++) {
    const words = Array.from({ length: n }, (_, j) => `${t}[i + ${j}]`).join(` || ' ' || `);
    parts.push(`list_transform(range(1, len(${t}) - ${n - 2}), i -> ${words})`);
  }
  return `list_concat(${parts.join(', ')})`;
}

async function buildEntity(
  conn: DuckDBConnection,
  entity: Entity,
  out: PostingWriter,
  onColumn: () => void,
): Promise<EntityHeader> {
  const table = ident(TABLE[entity]);
  const total = Number((await conn.runAndReadAll(`SELECT count(*) FROM ${table}`)).getRows()[0]![0] as bigint | number);
  const single = async (where: string): Promise<PostingRef> => {
    let ref: PostingRef = [0, 0];
    await postingsOf(conn, `SELECT 0 AS v, ${ROW_IDS} FROM ${table} WHERE ${where}`, total, out, (_, r) => {
      ref = r;
    });
    return ref;
  };
  const terms = async (sql: string): Promise<TermsHeader | undefined> => {
    const found: { v: Term; ref: PostingRef }[] = [];
    let finite = true;
    await postingsOf(conn, sql, total, out, (v, ref) => {
      if (v === null) return;
      if (typeof v === 'number' && !Number.isFinite(v)) finite = false;
      found.push({ v, ref });
    });
    // A value JSON cannot carry leaves the column to the scan.
    if (!finite) return undefined;
    found.sort((a, b) => compareTerms(a.v, b.v));
    return { values: found.map((f) => f.v), off: found.map((f) => f.ref[0]), cnt: found.map((f) => f.ref[1]) };
  };
  const termCols = new Set(termColumns(entity).map((c) => c.name));
  const columns: Record<string, ColumnHeader> = {};
  for (const col of columnsOf(entity)) {
    if (col.name === 'sort_key') continue;
    const c = ident(col.name);
    const p = new Params();
    const head: ColumnHeader = {
      present: await single(compileWhere(entity, { field: col.name, op: 'exists' }, p)),
      notnull: await single(`${c} IS NOT NULL`),
    };
    if (termCols.has(col.name)) {
      const v = col.storage === 'BIGINT' ? `CAST(${c} AS DOUBLE)` : c;
      const sql =
        col.storage === 'VARCHAR[]'
          ? `SELECT v, list(k ORDER BY k)::UINTEGER[] FROM (SELECT DISTINCT unnest(${c}) AS v, sort_key - 1 AS k ` +
            `FROM ${table}) WHERE v IS NOT NULL GROUP BY v`
          : `SELECT ${v} AS v, ${ROW_IDS} FROM ${table} WHERE ${c} IS NOT NULL GROUP BY 1`;
      const t = await terms(sql);
      if (t) head.terms = t;
    }
    const companion = col.words ? findColumn(entity, col.words, true) : undefined;
    if (companion) {
      const w = ident(companion.name);
      const keys =
        companion.storage === 'VARCHAR[]'
          ? `SELECT sort_key, unnest(${w}) AS w FROM ${table}`
          : `SELECT sort_key, ${w} AS w FROM ${table}`;
      const ngrams = await terms(
        `WITH toks AS (SELECT sort_key - 1 AS k, string_split(trim(w), ' ') AS t FROM (${keys}) ` +
          `WHERE w IS NOT NULL AND trim(w) <> ''), ` +
          `grams AS (SELECT DISTINCT k, unnest(${ngramsSql('t')}) AS v FROM toks) ` +
          `SELECT v, list(k ORDER BY k)::UINTEGER[] FROM grams GROUP BY v`,
      );
      if (ngrams) head.ngrams = ngrams;
    }
    columns[col.name] = head;
    onColumn();
  }
  return { rows: total, columns };
}

/**
 * Builds the bitmap index of the release open on `conn` into `file` (created or replaced). `onStep` is called
 * after each column with the columns done and the total, for the loader's progress.
 */
export async function buildBitmapIndex(
  conn: DuckDBConnection,
  file: string,
  releaseId: string,
  onStep: (done: number, total: number) => void = () => undefined,
): Promise<void> {
  const fd = openSync(file, 'w');
  try {
    const out = new PostingWriter(fd);
    const totalColumns = columnsOf('contact').length + columnsOf('company').length - 2;
    let done = 0;
    const step = (): void => onStep(++done, totalColumns);
    const contact = await buildEntity(conn, 'contact', out, step);
    const company = await buildEntity(conn, 'company', out, step);
    out.finish({ version: INDEX_VERSION, releaseId, entities: { contact, company } });
  } finally {
    closeSync(fd);
  }
}
