/**
 * RFC 4180 reading of an uploaded sheet: quoted fields may hold the delimiter, doubled quotes, CR and LF; records
 * end in CRLF, LF or CR. An Excel first line `sep=X` (X one of `,` `;` tab `|`) sets the delimiter and is not a
 * record: the header is the line after it. Otherwise the delimiter is the one of `,` `;` and tab that the header line
 * holds most often (outside quotes), comma when none. Blank lines are skipped. The first record is the header; a
 * header cell left blank is named `Column N`, and so is any cell beyond the header's width. A record of more than
 * MAX_COLUMNS cells, a header cell longer than MAX_HEADER_CHARS or another cell longer than MAX_CELL_CHARS refuses
 * the file (memory per upload stays near the file's size: no giant header is echoed, no row is padded to the
 * widest; a short row's missing cells read as empty). A sheet read is kept as its text and the cells' offsets
 * (Sheet), a cell made a string only when it is read.
 */

/** Cells a record may hold (a spreadsheet export of people rarely passes a few dozen). */
export const MAX_COLUMNS = 500;
/** Characters a header cell may hold (it names a column; the page echoes it). */
export const MAX_HEADER_CHARS = 256;
/** Characters any other cell may hold (an address, a long profile URL and a note fit in it). */
export const MAX_CELL_CHARS = 4096;
/** A sheet with every row as an array of its cells (small sheets and tests: parseSheet). */
export interface ParsedSheet {
  headers: string[];
  rows: string[][];
  delimiter: Delimiter;
}

type Delimiter = ',' | ';' | '\t' | '|';

export type ParseOutcome = { ok: true; sheet: ParsedSheet } | { ok: false; message: string };
export type ReadOutcome = { ok: true; sheet: Sheet } | { ok: false; message: string };

/**
 * A sheet kept compact: its UTF-8 bytes once (for an uploaded UTF-8 file, the upload's own bytes: no string is made
 * of the file) and, per cell, where it ends (a Uint32Array), per row where it starts and its first cell; a cell is
 * made a string only when it is read. A file of 48,000 two-cell rows costs about 0.7 bytes of index per byte of
 * text, where a string per cell and an array per row cost 16 to 40 bytes per short cell.
 */
export class Sheet {
  /** The data rows (the header is not one). */
  readonly rowCount: number;

  /**
   * `ends[k]`: the byte offset just past cell k's raw text (its delimiter or line end); `firsts[r]` / `starts[r]`:
   * the first cell and the byte offset of record r (record 0 is the header); `firsts[records]` closes the last one.
   */
  constructor(
    private readonly text: Buffer,
    private readonly ends: Uint32Array,
    private readonly firsts: Uint32Array,
    private readonly starts: Uint32Array,
    readonly headers: string[],
    readonly delimiter: Delimiter,
  ) {
    this.rowCount = starts.length - 1;
  }

  /** How many cells data row `r` holds (its own width: rows are not padded). */
  width(r: number): number {
    return this.firsts[r + 2]! - this.firsts[r + 1]!;
  }

  /** Data row `r`'s cell `c`, empty past the row's end. */
  cell(r: number, c: number): string {
    const first = this.firsts[r + 1]!;
    if (c < 0 || c >= this.firsts[r + 2]! - first) return '';
    return cellText(this.text, c === 0 ? this.starts[r + 1]! : this.ends[first + c - 1]! + 1, this.ends[first + c]!);
  }

  /** Data row `r` as an array of its own cells. */
  row(r: number): string[] {
    return Array.from({ length: this.width(r) }, (_, c) => this.cell(r, c));
  }

  /** A reader of data row `r`'s cells (empty past its end), for code that reads a few cells of each row. */
  cells(r: number): (c: number) => string {
    return (c) => this.cell(r, c);
  }
}

/** A cell's value from its raw bytes: a quoted cell loses its quotes and its doubled quotes are single. */
function cellText(text: Buffer, start: number, end: number): string {
  if (text[start] !== QUOTE) return text.toString('utf8', start, end);
  const inner = text.toString('utf8', start + 1, end - 1);
  return inner.includes('""') ? inner.replaceAll('""', '"') : inner;
}

/** UTF-16 code units (what a string's length counts) of the UTF-8 bytes text[start, end). */
function unitsOf(text: Buffer, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const b = text[i]!;
    // A lead byte or an ASCII byte starts a character; one of four bytes is a surrogate pair (two units).
    if ((b & 0xc0) !== 0x80) n += b >= 0xf0 ? 2 : 1;
  }
  return n;
}

/**
 * Excel's `sep=;` first line (a byte-order mark may precede it; Excel never quotes it, other tools may, and some pad
 * it with the delimiter to the sheet's width), ended by CRLF, LF, CR or the end of the file.
 */
const SEP_LINE = /^\uFEFF?("?)sep=([,;\t|])\1\2*[ ]*(?:\r\n|\n|\r|$)/i;

/** The sep= line at the start of the bytes, as SEP_LINE matches it (only a start that can be one is decoded). */
function sepLine(text: Buffer): { length: number; delimiter: Delimiter } | null {
  if (!/^\uFEFF?"?sep=/i.test(text.toString('utf8', 0, 9))) return null;
  let end = 0;
  while (end < text.length && text[end] !== LF && text[end] !== CR) end++;
  const m = SEP_LINE.exec(text.toString('utf8', 0, end + 2));
  return m ? { length: Buffer.byteLength(m[0]), delimiter: m[2] as Delimiter } : null;
}

/** The header line's most frequent of `,` `;` tab outside quotes, in the first 65,536 characters. */
function pickDelimiter(text: Buffer): ',' | ';' | '\t' {
  let comma = 0;
  let semicolon = 0;
  let tab = 0;
  let quoted = false;
  for (let i = 0, units = 0; i < text.length && units < 65_536; i++) {
    const b = text[i]!;
    if ((b & 0xc0) !== 0x80) units += b >= 0xf0 ? 2 : 1;
    if (b === QUOTE) quoted = !quoted;
    else if (!quoted && (b === LF || b === CR)) break;
    else if (!quoted && b === 0x2c) comma++;
    else if (!quoted && b === 0x3b) semicolon++;
    else if (!quoted && b === 0x09) tab++;
  }
  if (semicolon > comma && semicolon >= tab) return ';';
  if (tab > comma) return '\t';
  return ',';
}

/** A Uint32Array that grows by doubling; `view()` is its filled part (no copy). */
class Offsets {
  private a: Uint32Array;
  length = 0;
  constructor(capacity: number) {
    this.a = new Uint32Array(Math.max(16, capacity));
  }
  push(v: number): void {
    if (this.length === this.a.length) {
      const next = new Uint32Array(this.a.length * 2);
      next.set(this.a);
      this.a = next;
    }
    this.a[this.length++] = v;
  }
  view(): Uint32Array {
    return this.a.subarray(0, this.length);
  }
}

/**
 * Reads records until `maxRecords` (header included) is passed; `over` tells the caller there were more. The sheet
 * keeps the UTF-8 bytes (a text is encoded; bytes are kept as they are, not copied) and the cells' offsets (Sheet):
 * no cell is made a string while reading. Every character the rules name is ASCII, so the bytes are read directly.
 */
export function readSheet(whole: string | Uint8Array, maxRecords: number): ReadOutcome & { over?: boolean } {
  const all =
    typeof whole === 'string'
      ? Buffer.from(whole, 'utf8')
      : Buffer.isBuffer(whole)
        ? whole
        : Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength);
  const sep = sepLine(all);
  const text = sep ? all.subarray(sep.length) : all;
  const delimiter: Delimiter = sep ? sep.delimiter : pickDelimiter(text);
  const delim = delimiter.charCodeAt(0);
  // Capacity guessed from the text (a cell per 8 characters, a row per 32); it doubles when short.
  const ends = new Offsets(text.length >>> 3);
  const firsts = new Offsets(text.length >>> 5);
  const starts = new Offsets(text.length >>> 5);
  let records = 0;
  /** Cells of the record being read, and the widest record. */
  let cellsInRecord = 0;
  let recordStart = 0;
  let widest = 0;
  /** Where the current field's raw text starts (its opening quote, when quoted), and its doubled quotes. */
  let start = 0;
  let escapes = 0;
  let quoted = false;
  let afterQuote = false;
  let line = sep ? 2 : 1;
  let tooLong: string | null = null;
  // A cell is checked on its length (the raw text less the quotes and the doubled quotes' halves), not made a string;
  // its characters are counted only when its bytes pass the limit (a character is at least one byte).
  const push = (end: number) => {
    const bytes = afterQuote ? end - start - 2 - escapes : end - start;
    const limit = records === 0 ? MAX_HEADER_CHARS : MAX_CELL_CHARS;
    if (
      bytes > limit &&
      tooLong === null &&
      (afterQuote ? unitsOf(text, start + 1, end - 1) - escapes : unitsOf(text, start, end)) > limit
    )
      tooLong =
        records === 0
          ? `The header of column ${cellsInRecord + 1} is longer than ${MAX_HEADER_CHARS.toLocaleString('en-US')} characters; the first line must name the columns.`
          : `Line ${line} column ${cellsInRecord + 1} holds more than ${MAX_CELL_CHARS.toLocaleString('en-US')} characters; a cell of a sheet of people is shorter.`;
    if (cellsInRecord === 0) {
      firsts.push(ends.length);
      starts.push(start);
      recordStart = start;
    }
    ends.push(end);
    cellsInRecord++;
    escapes = 0;
  };
  /** Ends the record at `end`; a record of one blank cell (a blank line) is dropped. */
  const endRecord = (end: number) => {
    push(end);
    if (cellsInRecord === 1 && isBlank(text, recordStart, end)) {
      ends.length--;
      firsts.length--;
      starts.length--;
    } else {
      records++;
      if (records > 1 && cellsInRecord > widest) widest = cellsInRecord;
    }
    cellsInRecord = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === QUOTE) {
        if (text[i + 1] === QUOTE) {
          escapes++;
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else if (ch === LF) line++;
      continue;
    }
    if (ch === QUOTE && i === start && !afterQuote) {
      quoted = true;
    } else if (ch === delim) {
      push(i);
      start = i + 1;
      afterQuote = false;
      if (tooLong) return { ok: false, message: tooLong };
      if (cellsInRecord >= MAX_COLUMNS)
        return {
          ok: false,
          message: `Line ${line} has more than ${MAX_COLUMNS} columns; the file is not a sheet of people.`,
        };
    } else if (ch === CR || ch === LF) {
      endRecord(i);
      if (ch === CR && text[i + 1] === LF) i++;
      start = i + 1;
      afterQuote = false;
      if (tooLong) return { ok: false, message: tooLong };
      line++;
      if (records > maxRecords) return { ok: false, message: 'too many rows', over: true };
    } else if (afterQuote) {
      return { ok: false, message: `Line ${line}: text after a closing quote; the file is not valid CSV.` };
    }
  }
  if (quoted)
    return {
      ok: false,
      message: `A quoted field opened near line ${line} is never closed; the file is not valid CSV.`,
    };
  if (start < text.length || cellsInRecord > 0 || afterQuote) endRecord(text.length);
  if (tooLong) return { ok: false, message: tooLong };
  if (records > maxRecords) return { ok: false, message: 'too many rows', over: true };
  if (records === 0) return { ok: false, message: 'The file is empty.' };
  // The closing entry: the cell after the last record's.
  firsts.push(ends.length);
  const e = ends.view();
  const f = firsts.view();
  const st = starts.view();
  const headWidth = f[1]! - f[0]!;
  const width = Math.max(widest, headWidth);
  const headers = Array.from(
    { length: width },
    (_, c) =>
      (c < headWidth ? cellText(text, c === 0 ? st[0]! : e[c - 1]! + 1, e[c]!).trim() : '') || `Column ${c + 1}`,
  );
  // Rows are not padded to the widest: a missing cell reads as empty (Sheet.cell) wherever a row is read.
  return { ok: true, sheet: new Sheet(text, e, f, st, headers, delimiter) };
}

/** Whether text[start, end), one cell, is blank (`trim` leaves nothing): no string is made for a plain cell. */
function isBlank(text: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text[i]!;
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) continue;
    // A quote or a character past ASCII (trim drops some): the cell's value decides.
    if (c === QUOTE || c >= 0x80) return cellText(text, start, end).trim() === '';
    return false;
  }
  return true;
}

/**
 * readSheet with every row made an array of its cells: for small sheets and tests (the service keeps a Sheet). The
 * text is a decoded file's (it holds no lone surrogate, which UTF-8 cannot carry).
 */
export function parseSheet(whole: string, maxRecords: number): ParseOutcome & { over?: boolean } {
  const res = readSheet(whole, maxRecords);
  if (!res.ok) return res;
  const s = res.sheet;
  return {
    ok: true,
    sheet: { headers: s.headers, rows: Array.from({ length: s.rowCount }, (_, r) => s.row(r)), delimiter: s.delimiter },
  };
}

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
