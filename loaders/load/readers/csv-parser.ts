/**
 * RFC 4180 CSV parsing, incremental: quoted fields, `""` inside quotes, embedded commas and newlines,
 * CRLF or LF row ends. Each record carries the 1-based line it starts on, so rejects can point at it.
 * Lenient where the RFC is silent and real files are sloppy: a quote inside an unquoted field is kept
 * literally, and text after a closing quote is appended to the field.
 */

export interface CsvRecord {
  line: number;
  cells: string[];
  /** Set when the record cannot be parsed (an unterminated quoted field at the end of the file). */
  error?: string;
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

function countLf(s: string, from: number, to: number): number {
  let c = 0;
  for (let i = s.indexOf('\n', from); i !== -1 && i < to; i = s.indexOf('\n', i + 1)) c++;
  return c;
}

interface ParseResult {
  records: CsvRecord[];
  /** Characters of `buf` consumed by complete records. */
  consumed: number;
  /** Line number at `consumed`. */
  line: number;
}

/**
 * Parses the complete records in `buf`; an incomplete last record is left unconsumed unless `eof`.
 * Re-parsing that short remainder with the next chunk costs little and keeps the state machine simple.
 */
function parseRecords(buf: string, line: number, eof: boolean): ParseResult {
  const n = buf.length;
  const records: CsvRecord[] = [];
  let i = 0;
  let consumed = 0;
  let consumedLine = line;
  record: while (i < n) {
    const recLine = line;
    const cells: string[] = [];
    for (;;) {
      let value: string;
      if (buf.charCodeAt(i) === QUOTE) {
        let j = i + 1;
        value = '';
        for (;;) {
          const q = buf.indexOf('"', j);
          if (q === -1 || (q + 1 >= n && !eof)) {
            if (!eof) break record;
            line += countLf(buf, j, n);
            records.push({ line: recLine, cells, error: 'unterminated quoted field' });
            return { records, consumed: n, line };
          }
          line += countLf(buf, j, q);
          value += buf.slice(j, q);
          if (buf.charCodeAt(q + 1) === QUOTE) {
            value += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        // Sloppy text after the closing quote joins the field.
        let k = i;
        while (k < n) {
          const c = buf.charCodeAt(k);
          if (c === COMMA || c === LF || (c === CR && buf.charCodeAt(k + 1) === LF)) break;
          k++;
        }
        if (k >= n && !eof) break record;
        if (k > i) value += buf.slice(i, k);
        i = k;
      } else {
        let k = i;
        while (k < n) {
          const c = buf.charCodeAt(k);
          if (c === COMMA || c === LF) break;
          k++;
        }
        if (k >= n && !eof) break record;
        value = buf.slice(i, k > i && buf.charCodeAt(k - 1) === CR && buf.charCodeAt(k) === LF ? k - 1 : k);
        i = k;
      }
      cells.push(value);
      if (i >= n) break;
      const c = buf.charCodeAt(i);
      if (c === COMMA) {
        i++;
        // A comma ending the buffer still opens one more (empty) field.
        if (i >= n) {
          if (!eof) break record;
          cells.push('');
          break;
        }
        continue;
      }
      if (c === CR) i++;
      if (buf.charCodeAt(i) === LF) {
        i++;
        line++;
      }
      break;
    }
    // A blank line is not a record.
    if (!(cells.length === 1 && cells[0] === '')) records.push({ line: recLine, cells });
    consumed = i;
    consumedLine = line;
  }
  return { records, consumed, line: consumedLine };
}

export class CsvParser {
  private carry = '';
  private line = 1;

  /** Complete records in the text seen so far. */
  push(text: string): CsvRecord[] {
    const buf = this.carry + text;
    const r = parseRecords(buf, this.line, false);
    this.carry = buf.slice(r.consumed);
    this.line = r.line;
    return r.records;
  }

  /** The last record, when the file does not end with a newline. */
  end(): CsvRecord[] {
    if (this.carry === '') return [];
    const r = parseRecords(this.carry, this.line, true);
    this.carry = '';
    return r.records;
  }
}

/** Parses a whole CSV text at once (tests, small files). */
export function parseCsv(text: string): CsvRecord[] {
  const p = new CsvParser();
  return [...p.push(text), ...p.end()];
}
