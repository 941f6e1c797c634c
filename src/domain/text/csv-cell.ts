/**
 * CSV cells written from JavaScript, by the same rules as the engine's export writer (engine/duckdb/export-csv.ts):
 * a text cell whose first non-space character is `=`, `+`, `-` or `@`, or which starts with a tab or CR, gets a
 * leading `'` so spreadsheets do not run it as a formula (OWASP "CSV injection"), and so does such a character
 * right after a `;`. Quoting is RFC 4180 (quotes doubled); records end in CRLF.
 */

const FORMULA_START = /^(\s*[=+\-@]|[\t\r])/;
const AFTER_SEMICOLON = /;(\s*)([=+\-@])/g;

/** One text cell neutralized against formula injection. */
export function neutralizeCell(text: string): string {
  const inner = text.replace(AFTER_SEMICOLON, ";$1'$2");
  return FORMULA_START.test(text) ? `'${inner}` : inner;
}

/** RFC 4180 quoting of one field: quoted when it holds a quote, comma, CR or LF. */
export function quoteField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: text cells neutralized and quoted, numbers and booleans as they print, null empty; ends in CRLF. */
export function csvRecord(cells: ReadonlyArray<string | number | boolean | null>): string {
  return `${cells
    .map((c) => {
      if (c === null) return '';
      if (typeof c === 'number' || typeof c === 'boolean') return String(c);
      return quoteField(neutralizeCell(c));
    })
    .join(',')}\r\n`;
}
