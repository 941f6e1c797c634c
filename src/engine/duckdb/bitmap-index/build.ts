import { closeSync, openSync, write, writeSync } from 'node:fs';
import type { DuckDBConnection, DuckDBListVector, DuckDBValue } from '@duckdb/node-api';
import { columnsOf, type Entity, findColumn } from '../../../domain/catalog/index.js';
import { compileWhere } from '../compile/compile-where.js';
import { Params } from '../compile/params.js';
import { ident, TABLE } from '../schema.js';
import { countBits, emptyBitset, setRows, setRowsFrom } from './bitset.js';
import {
  type ArrayRef,
  type ColumnHeader,
  compareTerms,
  type EntityHeader,
  encodingOf,
  INDEX_MAGIC,
  INDEX_VERSION,
  INDEX_VERSION_LIVE,
  type IndexHeader,
  isOrdered,
  NGRAM_MAX,
  type PostingRef,
  RANGE_BLOCKS,
  RANGE_TERMS_MIN,
  type RangesHeader,
  type StoredTerms,
  type Term,
  termColumns,
} from './format.js';

export const PREAMBLE = 16;

/** A dictionary as written, with its row counts at hand (range blocks are cut by them). */
interface BuiltTerms extends StoredTerms {
  counts: number[];
}

const stored = ({ values, off, cnt }: BuiltTerms): StoredTerms => ({ values, off, cnt });
const BUFFER_BYTES = 8 * 2 ** 20;

/**
 * Appends postings to the index file, each 4-byte aligned, in the encoding format.ts describes (buffered). With
 * `background`, a full buffer is written on libuv's threads while the caller fills the next one (a delta's merge,
 * patch.ts, overlaps its writes with its work this way); the caller awaits drain() before finish() and closing.
 */
export class PostingWriter {
  private pos = PREAMBLE;
  private buf: Buffer = Buffer.alloc(BUFFER_BYTES);
  private buf32 = new Int32Array(this.buf.buffer, this.buf.byteOffset, BUFFER_BYTES / 4);
  private used = 0;
  /** Background writes: buffers being written, those free again, and the first error. */
  private writing = 0;
  private readonly spare: Buffer[] = [];
  private failure: Error | null = null;
  private waiters: Array<() => void> = [];
  constructor(
    private readonly fd: number,
    private readonly background = false,
  ) {}

  /** Buffers being written in the background. */
  get pending(): number {
    return this.writing;
  }

  /** Resolves once at most `max` buffers are being written; rejects with a background write's error. */
  async drain(max = 0): Promise<void> {
    while (this.writing > max) await new Promise<void>((r) => this.waiters.push(r));
    if (this.failure) throw this.failure;
  }

  /** Writes the posting of these row ids, given in any order (a sparse posting is sorted here, in place). */
  write(rows: Uint32Array, total: number, sorted = false): PostingRef {
    const at = this.pos;
    const enc = encodingOf(rows.length, total);
    if (enc === 'sparse') this.append(sorted ? rows : rows.sort());
    else if (enc === 'dense') {
      const bits = emptyBitset(total);
      setRows(bits, rows);
      this.append(bits);
    }
    return [at, rows.length];
  }

  /**
   * Writes a posting of `count` rows as stored words copied from `src` (a delta's patch copies its parent's postings
   * the delta left alone), then `zeros` zero words (a dense posting grown to more positions).
   */
  copyWords(src: Int32Array, start: number, words: number, count: number, zeros = 0): PostingRef {
    const at = this.pos;
    if ((words + zeros) * 4 > this.buf.length - this.used) this.flush();
    if ((words + zeros) * 4 > this.buf.length) {
      this.append(src.subarray(start, start + words));
      if (zeros > 0) this.append(new Int32Array(zeros));
      return [at, count];
    }
    const base = this.used >>> 2;
    // A native copy for all but the shortest postings (a view per call costs more than a few words).
    if (words > 32) this.buf32.set(src.subarray(start, start + words), base);
    else for (let i = 0; i < words; i++) this.buf32[base + i] = src[start + i]!;
    this.buf32.fill(0, base + words, base + words + zeros);
    this.used += (words + zeros) * 4;
    this.pos += (words + zeros) * 4;
    return [at, count];
  }

  private append(words: Uint32Array | Int32Array | Float64Array): void {
    const bytes = Buffer.from(words.buffer, words.byteOffset, words.byteLength);
    if (this.used + bytes.length > this.buf.length) this.flush();
    if (bytes.length > this.buf.length) this.writeAt(bytes, this.pos);
    else {
      bytes.copy(this.buf, this.used);
      this.used += bytes.length;
    }
    this.pos += bytes.length;
  }

  private flush(): void {
    if (this.failure) throw this.failure;
    if (!this.background || this.used === 0) {
      this.writeAt(this.buf.subarray(0, this.used), this.pos - this.used);
      this.used = 0;
      return;
    }
    const full = this.buf;
    const length = this.used;
    this.writing++;
    writeAll(this.fd, full, length, this.pos - length, (e) => {
      this.writing--;
      if (e) this.failure ??= e;
      else this.spare.push(full);
      const waiting = this.waiters;
      this.waiters = [];
      for (const w of waiting) w();
    });
    this.buf = this.spare.pop() ?? Buffer.alloc(BUFFER_BYTES);
    this.buf32 = new Int32Array(this.buf.buffer, this.buf.byteOffset, BUFFER_BYTES / 4);
    this.used = 0;
  }

  private writeAt(bytes: Buffer, at: number): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, at + done);
  }

  /** Writes the posting of the rows set in a bitset of `count` rows. */
  writeBits(bits: Int32Array, count: number, total: number): PostingRef {
    const at = this.pos;
    const enc = encodingOf(count, total);
    if (enc === 'dense') this.append(bits);
    else if (enc === 'sparse') this.append(Uint32Array.from(setRowsFrom(bits, 0, 0, count)));
    return [at, count];
  }

  /** Writes an array outside the header (format.ts ArrayRef). */
  writeArray(values: Float64Array | Int32Array): ArrayRef {
    const at = this.pos;
    this.append(values);
    return [at, values.length];
  }

  /** Writes the header after the postings and the preamble naming its offset (background writes drained first). */
  finish(header: IndexHeader<StoredTerms>): void {
    if (this.writing > 0) throw new Error('finish() while postings are being written: await drain() first');
    if (this.failure) throw this.failure;
    this.writeAt(this.buf.subarray(0, this.used), this.pos - this.used);
    this.used = 0;
    this.writeAt(Buffer.from(JSON.stringify(header), 'utf8'), this.pos);
    const pre = Buffer.alloc(PREAMBLE);
    pre.write(INDEX_MAGIC, 0, 'latin1');
    pre.writeDoubleLE(this.pos, 8);
    this.writeAt(pre, 0);
  }
}

/** Writes `length` bytes of `buf` at `at` on libuv's threads (short writes continued), then calls `done`. */
function writeAll(fd: number, buf: Buffer, length: number, at: number, done: (e: Error | null) => void): void {
  let written = 0;
  const next = (): void =>
    write(fd, buf, written, length - written, at + written, (e, n) => {
      if (e) return done(e);
      written += n;
      if (written < length) next();
      else done(null);
    });
  next();
}

/** Runs a `value, list(row ids)` query and writes one posting per row of its answer. */
async function postingsOf(
  conn: DuckDBConnection,
  sql: string,
  total: number,
  out: PostingWriter | null,
  onTerm: (value: Term | null, ref: PostingRef, rows: Uint32Array) => void,
  params: DuckDBValue[] = [],
): Promise<void> {
  const result = await conn.stream(sql, params);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const values = chunk.getColumnVector(0);
    const lists = chunk.getColumnVector(1) as DuckDBListVector;
    const child = lists.childVector;
    // The UINTEGER child's values as one typed array when the driver exposes it (copied per list, never held).
    const flat = (child as unknown as { items?: unknown }).items;
    const items = flat instanceof Uint32Array ? flat : null;
    for (let i = 0; i < chunk.rowCount; i++) {
      const len = lists.getEntryLength(i);
      const start = lists.getEntryOffset(i);
      let rows: Uint32Array;
      if (items) rows = items.slice(start, start + len);
      else {
        rows = new Uint32Array(len);
        for (let j = 0; j < len; j++) rows[j] = Number(child.getItem(start + j));
      }
      const v = values.getItem(i) as unknown;
      const ref: PostingRef = out ? out.write(rows, total) : [0, rows.length];
      onTerm(v === null ? null : typeof v === 'bigint' ? Number(v) : (v as Term), ref, rows);
    }
  }
}

/** Row ids of a group, in no order (a sparse posting is sorted when written; a dense one needs no order). */
const ROW_IDS = 'coalesce(list(sort_key - 1), [])::UINTEGER[]';

/** The word n-grams (1..NGRAM_MAX words) of a words key `t` split into its words, as one DuckDB list. */
function ngramsSql(t: string): string {
  const parts = [t];
  for (let n = 2; n <= NGRAM_MAX; n++) {
    const words = Array.from({ length: n }, (_, j) => `${t}[i + ${j}]`).join(` || ' ' || `);
    parts.push(`list_transform(range(1, len(${t}) - ${n - 2}), i -> ${words})`);
  }
  return `list_concat(${parts.join(', ')})`;
}

/**
 * The range blocks of an ordered column (format.ts RangesHeader): boundaries where the running row count crosses each
 * RANGE_BLOCKS-th of the rows, the rows of each block from DuckDB, and the prefixes accumulated block by block.
 */
async function rangeBlocks(
  conn: DuckDBConnection,
  table: string,
  c: string,
  t: BuiltTerms,
  total: number,
  out: PostingWriter,
): Promise<RangesHeader | undefined> {
  const at: number[] = [];
  let seen = 0;
  for (let i = 0; i < t.values.length; i++) {
    if (i > 0 && seen >= ((at.length + 1) * total) / RANGE_BLOCKS) at.push(i);
    seen += t.counts[i]!;
  }
  if (at.length === 0) return undefined;
  const p = new Params();
  const cases = at.map((i, j) => `WHEN ${c} < ${p.add(t.values[i]!)} THEN ${j}`).join(' ');
  const blocks = new Map<number, Uint32Array>();
  await postingsOf(
    conn,
    `SELECT CASE ${cases} ELSE ${at.length} END AS b, ${ROW_IDS} FROM ${table} WHERE ${c} IS NOT NULL GROUP BY 1`,
    total,
    null,
    (b, _ref, rows) => blocks.set(Number(b), rows),
    p.values,
  );
  const acc = emptyBitset(total);
  const prefix: PostingRef[] = [];
  for (let j = 0; j < at.length; j++) {
    const rows = blocks.get(j);
    if (rows) setRows(acc, rows);
    prefix.push(out.writeBits(acc, countBits(acc), total));
  }
  return { at, prefix };
}

/** Where an entity's index is built from: its release table, or (a delta's patch) a table of some of its rows. */
export interface EntitySource {
  /** The table's name (an identifier of this code, never client text). */
  table: string;
  /** Row positions of the index (the release's largest sort_key), when the table does not hold the last one. */
  rows?: number;
  /** Range blocks are cut (false: a patch merges its rows into its parent's blocks). */
  ranges?: boolean;
}

async function buildEntity(
  conn: DuckDBConnection,
  entity: Entity,
  out: PostingWriter,
  onColumn: () => void,
  source: EntitySource = { table: TABLE[entity] },
): Promise<EntityHeader<StoredTerms>> {
  const table = ident(source.table);
  const [n, top] = (await conn.runAndReadAll(`SELECT count(*), coalesce(max(sort_key), 0) FROM ${table}`))
    .getRows()[0]!
    .map(Number) as [number, number];
  // Positions run to the largest sort_key; a delta's patched release leaves some empty (format.ts `live`).
  const total = source.rows ?? top;
  const single = async (where: string): Promise<PostingRef> => {
    let ref: PostingRef = [0, 0];
    await postingsOf(conn, `SELECT 0 AS v, ${ROW_IDS} FROM ${table} WHERE ${where}`, total, out, (_, r) => {
      ref = r;
    });
    return ref;
  };
  const terms = async (sql: string): Promise<BuiltTerms | undefined> => {
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
    return {
      values: found.map((f) => f.v),
      off: out.writeArray(Float64Array.from(found, (f) => f.ref[0])),
      cnt: out.writeArray(Int32Array.from(found, (f) => f.ref[1])),
      counts: found.map((f) => f.ref[1]),
    };
  };
  const termCols = new Set(termColumns(entity).map((c) => c.name));
  const cols = columnsOf(entity).filter((c) => c.name !== 'sort_key');
  const presentSql = (name: string): string => compileWhere(entity, { field: name, op: 'exists' }, new Params());
  // One pass counts every column's present and non-null rows: a posting of no rows or of every row needs no list,
  // and a column whose present rows are all its non-null rows (present is a subset) shares one posting.
  const counted = (
    await conn.runAndReadAll(
      `SELECT ${cols
        .map((c, i) => `count(*) FILTER (WHERE ${presentSql(c.name)}) AS p${i}, count(${ident(c.name)}) AS n${i}`)
        .join(', ')} FROM ${table}`,
    )
  ).getRowObjects()[0]!;
  const columns: Record<string, ColumnHeader<StoredTerms>> = {};
  for (const [i, col] of cols.entries()) {
    const c = ident(col.name);
    const pn = Number(counted[`p${i}`]);
    const nn = Number(counted[`n${i}`]);
    const fixed = (n: number): PostingRef | null => (n === 0 || n === total ? [0, n] : null);
    const present = fixed(pn) ?? (await single(presentSql(col.name)));
    const notnull = pn === nn ? present : (fixed(nn) ?? (await single(`${c} IS NOT NULL`)));
    const head: ColumnHeader<StoredTerms> = { present, notnull };
    if (termCols.has(col.name)) {
      const v = col.storage === 'BIGINT' ? `CAST(${c} AS DOUBLE)` : c;
      const sql =
        col.storage === 'VARCHAR[]'
          ? `SELECT v, list(k)::UINTEGER[] FROM (SELECT DISTINCT unnest(${c}) AS v, sort_key - 1 AS k ` +
            `FROM ${table}) WHERE v IS NOT NULL GROUP BY v`
          : `SELECT ${v} AS v, ${ROW_IDS} FROM ${table} WHERE ${c} IS NOT NULL GROUP BY 1`;
      const t = await terms(sql);
      if (t) head.terms = stored(t);
      if (
        t &&
        source.ranges !== false &&
        isOrdered(col) &&
        col.storage !== 'VARCHAR[]' &&
        t.values.length > RANGE_TERMS_MIN
      ) {
        head.ranges = await rangeBlocks(conn, table, c, t, total, out);
      }
    }
    if (col.substrings === true && col.storage === 'VARCHAR') {
      const trigrams = await terms(
        `SELECT g AS v, list(k)::UINTEGER[] FROM (SELECT DISTINCT k, unnest(list_transform(range(1, length(l) - 1), ` +
          `i -> substring(l, i, 3))) AS g FROM (SELECT sort_key - 1 AS k, lower(${c}) AS l FROM ${table} ` +
          `WHERE ${c} IS NOT NULL AND length(${c}) >= 3)) GROUP BY g`,
      );
      if (trigrams) head.trigrams = stored(trigrams);
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
          `SELECT v, list(k)::UINTEGER[] FROM grams GROUP BY v`,
      );
      if (ngrams) head.ngrams = stored(ngrams);
    }
    columns[col.name] = head;
    onColumn();
  }
  if (n === total || source.rows !== undefined) return { rows: total, columns };
  return { rows: total, live: await single('true'), columns };
}

/**
 * Builds the bitmap index of the release open on `conn` into `file` (created or replaced). `onStep` is called
 * after each column with the columns done and the total, for the loader's progress. `sources`: other tables to build
 * it from (a delta's changed rows, which patch.ts merges into its parent's index).
 */
export async function buildBitmapIndex(
  conn: DuckDBConnection,
  file: string,
  releaseId: string,
  onStep: (done: number, total: number) => void = () => undefined,
  sources?: Record<Entity, EntitySource>,
): Promise<void> {
  const fd = openSync(file, 'w');
  try {
    const out = new PostingWriter(fd);
    const totalColumns = columnsOf('contact').length + columnsOf('company').length - 2;
    let done = 0;
    const step = (): void => onStep(++done, totalColumns);
    const contact = await buildEntity(conn, 'contact', out, step, sources?.contact);
    const company = await buildEntity(conn, 'company', out, step, sources?.company);
    const version = contact.live || company.live ? INDEX_VERSION_LIVE : INDEX_VERSION;
    out.finish({ version, releaseId, entities: { contact, company } });
  } finally {
    closeSync(fd);
  }
}
