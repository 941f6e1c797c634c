/**
 * RFC 4180 reading of an uploaded sheet: quoted fields may hold the delimiter, doubled quotes, CR and LF; records
 * end in CRLF, LF or CR. An Excel first line `sep=X` (X one of `,` `;` tab `|`) sets the delimiter and is not a
 * record: the header is the line after it. Otherwise the delimiter is the one of `,` `;` and tab that the header line
 * holds most often (outside quotes), comma when none. Blank lines are skipped. The first record is the header; a
 * header cell left blank is named `Column N`, and so is any cell beyond the header's width. A record of more than
 * MAX_COLUMNS cells refuses the file: every row is padded to the widest, so one very wide row would make every row
 * that wide.
 */

/** Cells a record may hold (a spreadsheet export of people rarely passes a few dozen). */
export const MAX_COLUMNS = 500;
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
  let field = '';
  let quoted = false;
  let afterQuote = false;
  let line = sep ? 2 : 1;
  const endRecord = () => {
    record.push(field);
    field = '';
    if (!(record.length === 1 && record[0]!.trim() === '')) records.push(record);
    record = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else {
          quoted = false;
          afterQuote = true;
        }
      } else {
        if (ch === '\n') line++;
        field += ch;
      }
      continue;
    }
    if (ch === '"' && field === '' && !afterQuote) {
      quoted = true;
    } else if (ch === delimiter) {
      record.push(field);
      field = '';
      afterQuote = false;
      if (record.length >= MAX_COLUMNS)
        return {
          ok: false,
          message: `Line ${line} has more than ${MAX_COLUMNS} columns; the file is not a sheet of people.`,
        };
    } else if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      afterQuote = false;
      line++;
      if (records.length > maxRecords) return { ok: false, message: 'too many rows', over: true };
    } else if (afterQuote) {
      return { ok: false, message: `Line ${line}: text after a closing quote; the file is not valid CSV.` };
    } else {
      field += ch;
    }
  }
  if (quoted)
    return {
      ok: false,
      message: `A quoted field opened near line ${line} is never closed; the file is not valid CSV.`,
    };
  if (field !== '' || record.length > 0) endRecord();
  if (records.length > maxRecords) return { ok: false, message: 'too many rows', over: true };
  const [head, ...rows] = records;
  if (!head) return { ok: false, message: 'The file is empty.' };
  const width = rows.reduce((w, r) => Math.max(w, r.length), head.length);
  const headers = Array.from({ length: width }, (_, i) => head[i]?.trim() || `Column ${i + 1}`);
  return {
    ok: true,
    sheet: { headers, rows: rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? '')), delimiter },
  };
}
