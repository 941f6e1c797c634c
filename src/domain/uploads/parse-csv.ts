/**
 * RFC 4180 reading of an uploaded sheet: quoted fields may hold the delimiter, doubled quotes, CR and LF; records
 * end in CRLF, LF or CR. An Excel first line `sep=X` (X one of `,` `;` tab `|`) sets the delimiter and is not a
 * record: the header is the line after it. Otherwise the delimiter is the one of `,` `;` and tab that the header line
 * holds most often (outside quotes), comma when none. Blank lines are skipped. The first record is the header; a
 * header cell left blank is named `Column N`, and so is any cell beyond the header's width. A record of more than
 * MAX_COLUMNS cells, a header cell longer than MAX_HEADER_CHARS or another cell longer than MAX_CELL_CHARS refuses
 * the file (memory per upload stays near the file's size: no giant header is echoed, no row is padded to the
 * widest; a short row's missing cells read as empty).
 */

/** Cells a record may hold (a spreadsheet export of people rarely passes a few dozen). */
export const MAX_COLUMNS = 500;
/** Characters a header cell may hold (it names a column; the page echoes it). */
export const MAX_HEADER_CHARS = 256;
/** Characters any other cell may hold (an address, a long profile URL and a note fit in it). */
export const MAX_CELL_CHARS = 4096;
export interface ParsedSheet {
  headers: string[];
  rows: string[][];
  delimiter: Delimiter;
}

type Delimiter = ',' | ';' | '\t' | '|';

export type ParseOutcome = { ok: true; sheet: ParsedSheet } | { ok: false; message: string };

/**
 * Excel's `sep=;` first line (a byte-order mark may precede it; Excel never quotes it, other tools may, and some pad
 * it with the delimiter to the sheet's width), ended by CRLF, LF, CR or the end of the file.
 */
const SEP_LINE = /^\uFEFF?("?)sep=([,;\t|])\1\2*[ ]*(?:\r\n|\n|\r|$)/i;

function pickDelimiter(text: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of text.slice(0, 65_536)) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === '\n' || ch === '\r')) break;
    else if (!quoted && (ch === ',' || ch === ';' || ch === '\t')) counts[ch]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[',']) return '\t';
  return ',';
}

/** Reads records until `maxRecords` (header included) is passed; `over` tells the caller there were more. */
export function parseSheet(whole: string, maxRecords: number): ParseOutcome & { over?: boolean } {
  const sep = SEP_LINE.exec(whole);
  const text = sep ? whole.slice(sep[0].length) : whole;
  const delimiter: Delimiter = sep ? (sep[2] as Delimiter) : pickDelimiter(text);
  const records: string[][] = [];
  let record: string[] = [];
  // A field is sliced from the text (not built a character at a time): a cell costs its own characters once.
  let field = '';
  let start = 0;
  let quoted = false;
  let afterQuote = false;
  let line = sep ? 2 : 1;
  let tooLong: string | null = null;
  const push = (value: string) => {
    const limit = records.length === 0 ? MAX_HEADER_CHARS : MAX_CELL_CHARS;
    if (value.length > limit && tooLong === null)
      tooLong =
        records.length === 0
          ? `The header of column ${record.length + 1} is longer than ${MAX_HEADER_CHARS.toLocaleString('en-US')} characters; the first line must name the columns.`
          : `Line ${line} column ${record.length + 1} holds more than ${MAX_CELL_CHARS.toLocaleString('en-US')} characters; a cell of a sheet of people is shorter.`;
    record.push(value);
  };
  const endRecord = () => {
    push(field);
    field = '';
    if (!(record.length === 1 && record[0]!.trim() === '')) records.push(record);
    record = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (quoted) {
      if (ch === QUOTE) {
        if (text.charCodeAt(i + 1) === QUOTE) {
          field += text.slice(start, i + 1);
          i++;
          start = i + 1;
        } else {
          field += text.slice(start, i);
          quoted = false;
          afterQuote = true;
        }
      } else if (ch === LF) line++;
      continue;
    }
    if (ch === QUOTE && field === '' && i === start && !afterQuote) {
      quoted = true;
      start = i + 1;
    } else if (ch === delimiter.charCodeAt(0)) {
      if (!afterQuote) field = text.slice(start, i);
      push(field);
      field = '';
      start = i + 1;
      afterQuote = false;
      if (tooLong) return { ok: false, message: tooLong };
      if (record.length >= MAX_COLUMNS)
        return {
          ok: false,
          message: `Line ${line} has more than ${MAX_COLUMNS} columns; the file is not a sheet of people.`,
        };
    } else if (ch === CR || ch === LF) {
      if (!afterQuote) field = text.slice(start, i);
      if (ch === CR && text.charCodeAt(i + 1) === LF) i++;
      endRecord();
      start = i + 1;
      afterQuote = false;
      if (tooLong) return { ok: false, message: tooLong };
      line++;
      if (records.length > maxRecords) return { ok: false, message: 'too many rows', over: true };
    } else if (afterQuote) {
      return { ok: false, message: `Line ${line}: text after a closing quote; the file is not valid CSV.` };
    }
  }
  if (quoted)
    return {
      ok: false,
      message: `A quoted field opened near line ${line} is never closed; the file is not valid CSV.`,
    };
  if (!afterQuote) field = text.slice(start);
  if (field !== '' || record.length > 0 || afterQuote) endRecord();
  if (tooLong) return { ok: false, message: tooLong };
  if (records.length > maxRecords) return { ok: false, message: 'too many rows', over: true };
  const [head, ...rows] = records;
  if (!head) return { ok: false, message: 'The file is empty.' };
  const width = rows.reduce((w, r) => Math.max(w, r.length), head.length);
  const headers = Array.from({ length: width }, (_, i) => head[i]?.trim() || `Column ${i + 1}`);
  // Rows are not padded to the widest: a missing cell reads as empty (cellOf) wherever a row is read.
  return { ok: true, sheet: { headers, rows, delimiter } };
}

/** A row's cell `i`, empty past the row's end (rows keep their own width). */
export const cellOf = (row: readonly string[], i: number): string => row[i] ?? '';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
