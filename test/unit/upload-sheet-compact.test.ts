import { decodeUpload } from '../../src/domain/uploads/decode.js';
import {
  MAX_CELL_CHARS,
  MAX_HEADER_CHARS,
  parseSheet,
  readSheet,
  type Sheet,
} from '../../src/domain/uploads/parse-csv.js';
import { rowInput } from '../../src/domain/uploads/row-input.js';
import { readUploadedSheet } from '../../src/operations/enrichment-upload/sheet.js';

/**
 * The kept form of an uploaded sheet (issue 42 finding 3): the text once and the cells' offsets, a cell made a string
 * only when read. Its reads must be those of the sheet as written: cells written by a plain RFC 4180 writer here are
 * read back through Sheet.cell / row / cells, with every kind of cell the parser treats apart.
 */

const HOST = 'network.com';

/** RFC 4180 writing of one cell: quoted when it holds the delimiter, a quote, CR or LF, or starts with a quote. */
const field = (c: string, d = ',') => (/["\r\n]/.test(c) || c.includes(d) ? `"${c.replaceAll('"', '""')}"` : c);
const write = (rows: string[][], eol = '\r\n', d = ',') => rows.map((r) => r.map((c) => field(c, d)).join(d)).join(eol);

function sheetOf(text: string): Sheet {
  const res = readSheet(text, 1_000_000);
  if (!res.ok) throw new Error(res.message);
  return res.sheet;
}

/** Deterministic cells from an alphabet holding everything the parser treats apart (a seeded LCG). */
function cells(seed: number, rows: number): string[][] {
  let s = seed;
  const next = () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s;
  };
  const alphabet = ['a', 'Z', '0', ' ', ',', ';', '"', '""', '\r', '\n', '\r\n', 'é', '€', '😀', '@', '.', '\t'];
  const cell = () => Array.from({ length: next() % 7 }, () => alphabet[next() % alphabet.length]).join('');
  return Array.from({ length: rows }, () => {
    const width = 1 + (next() % 6);
    // A first cell that is not blank: a row of one blank cell is a blank line, which is skipped.
    return [`r${next() % 1000}${cell()}`, ...Array.from({ length: width - 1 }, cell)];
  });
}

describe('Sheet: the compact kept form', () => {
  it.each([
    ['\r\n', ','],
    ['\n', ';'],
    ['\r', '\t'],
  ])('reads back every cell as written (rows ending %j, delimiter %j), rows at their own width', (eol, d) => {
    const header = ['Email', 'Name', 'Note', 'Phone'];
    const rows = cells(eol.length * 7 + d.charCodeAt(0), 300);
    const sheet = sheetOf(`${write([header, ...rows], eol, d)}${eol}`);
    expect(sheet.delimiter).toBe(d);
    expect(sheet.rowCount).toBe(rows.length);
    const widest = Math.max(header.length, ...rows.map((r) => r.length));
    expect(sheet.headers).toEqual([
      ...header,
      ...Array.from({ length: widest - header.length }, (_, i) => `Column ${header.length + i + 1}`),
    ]);
    const columns = Array.from({ length: widest + 2 }, (_, c) => c - 1);
    expect(rows.map((_, r) => sheet.width(r))).toEqual(rows.map((row) => row.length));
    expect(rows.map((_, r) => sheet.row(r))).toEqual(rows);
    // Past a row's end (and before its start) a cell reads as empty, through cell() and through the row reader.
    const expected = rows.map((row) => columns.map((c) => row[c] ?? ''));
    expect(rows.map((_, r) => columns.map((c) => sheet.cell(r, c)))).toEqual(expected);
    expect(rows.map((_, r) => columns.map(sheet.cells(r)))).toEqual(expected);
    // The rows parseSheet makes are the same cells.
    const parsed = parseSheet(`${write([header, ...rows], eol, d)}${eol}`, 1_000_000);
    expect(parsed.ok && parsed.sheet.rows).toEqual(rows);
  });

  it('reads a last record without a line end, quoted or not, and a sep= line after a byte-order mark', () => {
    expect(sheetOf('a,b\r\n1,"x""y"').row(0)).toEqual(['1', 'x"y']);
    expect(sheetOf('a,b\r\n1,').row(0)).toEqual(['1', '']);
    expect(sheetOf('a,b\r\n"",2').row(0)).toEqual(['', '2']);
    const sep = sheetOf('\uFEFFsep=;\r\nA;B\r\n"1;2";3\r\n');
    expect([sep.headers, sep.row(0), sep.delimiter]).toEqual([['A', 'B'], ['1;2', '3'], ';']);
  });

  it('skips a line of one blank cell by the value trim() gives, quoted or not', () => {
    // Spaces, tabs, a quoted blank, a no-break space: blank lines. A control character trim() keeps is a row.
    const sheet = sheetOf('a,b\n  \n\t\n"  "\n\u00a0\n""\n\u0001\nx,y\n');
    expect(Array.from({ length: sheet.rowCount }, (_, r) => sheet.row(r))).toEqual([['\u0001'], ['x', 'y']]);
  });

  it('measures a cell against the caps by its value: doubled quotes count once, the quotes not at all', () => {
    const quotes = (n: number) => `"${'""'.repeat(n)}"`;
    expect(sheetOf(`${quotes(MAX_HEADER_CHARS)}\r\nx\r\n`).headers).toEqual(['"'.repeat(MAX_HEADER_CHARS)]);
    expect(readSheet(`${quotes(MAX_HEADER_CHARS + 1)}\r\nx\r\n`, 10)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^The header of column 1 is longer than 256/),
    });
    const atCap = sheetOf(`h,i\r\nx,${quotes(MAX_CELL_CHARS)}\r\n`);
    expect(atCap.cell(0, 1)).toBe('"'.repeat(MAX_CELL_CHARS));
    expect(readSheet(`h,i\r\nx,${quotes(MAX_CELL_CHARS + 1)}\r\n`, 10)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Line 2 column 2 holds more than 4,096/),
    });
  });

  it('answers rowInput alike from a row array and from the sheet row reader', () => {
    const text = 'Email,Site,Phone\r\nann@acme.com,acme.com,\r\n,,+14155550100\r\nnope,Acme,\r\n,,\r\n';
    const sheet = sheetOf(text);
    const parsed = parseSheet(text, 100);
    const idx = { email: 0, domain: 1, phone: 2 };
    for (let r = 0; r < sheet.rowCount; r++) {
      const fromArray = rowInput(parsed.ok ? parsed.sheet.rows[r]! : [], idx, HOST);
      expect(rowInput(sheet.cells(r), idx, HOST)).toEqual(fromArray);
    }
    expect(rowInput(sheet.cells(0), idx, HOST)).toMatchObject({ kind: 'input', domain: 'acme.com' });
    expect(rowInput(sheet.cells(3), idx, HOST)).toEqual({ kind: 'missing' });
  });
});

describe('readUploadedSheet: what is stored', () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  it('stores a UTF-8 file as its own bytes (less its byte-order mark), the text of the sheet', () => {
    const file = utf8('Email,Name\r\nzoë@example.com,Zoë 😀\r\n');
    const got = readUploadedSheet(file, 100);
    // The upload's own bytes, not a copy.
    expect(got.stored.buffer).toBe(file.buffer);
    expect(Buffer.from(got.stored).toString('utf8')).toBe((decodeUpload(file) as { text: string }).text);
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...file]);
    const withBom = readUploadedSheet(bom, 100);
    expect(withBom.encoding).toBe('utf-8-bom');
    expect(Buffer.from(withBom.stored).equals(Buffer.from(file))).toBe(true);
    expect(withBom.sheet.row(0)).toEqual(['zoë@example.com', 'Zoë 😀']);
  });
  it('stores a Windows-1252 file as its decoded text in UTF-8', () => {
    const file = Uint8Array.from([...utf8('Email,Name\r\nzoe@example.com,Zo'), 0xeb, 0x80, 0x0d, 0x0a]);
    const got = readUploadedSheet(file, 100);
    expect(got.encoding).toBe('windows-1252');
    expect(Buffer.from(got.stored).toString('utf8')).toBe('Email,Name\r\nzoe@example.com,Zoë€\r\n');
    expect(got.sheet.row(0)).toEqual(['zoe@example.com', 'Zoë€']);
  });
});
