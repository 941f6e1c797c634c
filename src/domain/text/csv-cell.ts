/**
 * CSV cells written from JavaScript, by the same rules as the engines' export writers (engine/duckdb/export-csv.ts,
 * engine/search-cluster/csv-cells.ts), which take the rule from here: a text cell whose first character past any
 * FORMULA_SPACE is `=`, `+`, `-` or `@`, or which starts with a tab or CR, gets a leading `'` so spreadsheets do not
 * run it as a formula (OWASP "CSV injection"), and so does such a character right after a `;`. Text cells are always
 * quoted (RFC 4180, quotes doubled), so a `;` never splits one; records end in CRLF.
 */

/**
 * The spaces a spreadsheet may skip before a formula: JavaScript's `\s` (ASCII whitespace, no-break and other
 * Unicode spaces, line and paragraph separators, the byte-order mark), spelled out as the characters themselves so
 * that DuckDB's regular expressions (RE2, whose `\s` is ASCII only) read the same class.
 */
export const FORMULA_SPACE = '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]';
/** The characters that start a formula. */
export const FORMULA_TRIGGER = '[=+\\-@]';

const FORMULA_START = new RegExp(`^(${FORMULA_SPACE}*${FORMULA_TRIGGER}|[\t\r])`);
const AFTER_SEMICOLON = new RegExp(`;(${FORMULA_SPACE}*)(${FORMULA_TRIGGER})`, 'g');

/** One text cell neutralized against formula injection. */
export function neutralizeCell(text: string): string {
  const inner = text.replace(AFTER_SEMICOLON, ";$1'$2");
  return FORMULA_START.test(text) ? `'${inner}` : inner;
}

/** A header cell of the exports (a catalog name or label): quoted by RFC 4180 only when it must be. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A text cell as the CSV writers write it: neutralized, then always quoted. */
export function textCell(text: string): string {
  return `"${neutralizeCell(text).replace(/"/g, '""')}"`;
}

/** One record: text cells neutralized and quoted, numbers and booleans as they print, null empty; ends in CRLF. */
export function csvRecord(cells: ReadonlyArray<string | number | boolean | null>): string {
  return `${cells
    .map((c) => {
      if (c === null) return '';
      if (typeof c === 'number' || typeof c === 'boolean') return String(c);
      return textCell(c);
    })
    .join(',')}\r\n`;
}
