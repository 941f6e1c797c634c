/**
 * CSV cells written from JavaScript, by the same rules as the engines' export writers (engine/duckdb/export-csv.ts,
 * engine/search-cluster/csv-cells.ts), which take the rule from here. The formula rule (OWASP "CSV injection"):
 *
 * 1. A text cell that is exactly a plain number — an optional `+` or `-`, digits, optionally `.` and digits, nothing
 *    else (PLAIN_NUMBER) — is written as it is: it cannot run anything. E.164 phones (`+12124435204`) and values such
 *    as `-12.5` are such cells. Anything more (`+1+1`, `-2+3`, `+1 212-443-5204`, ` -5`, `1e5` led by a sign) is not.
 * 2. Any other text cell whose first character past any FORMULA_SPACE is `=`, `+`, `-` or `@`, or which starts with a
 *    tab or CR, gets a leading `'` so spreadsheets do not run it as a formula.
 * 3. Spreadsheets in many locales split cells on `;`: each `;`-separated part after the first whose first character
 *    past any FORMULA_SPACE is a trigger gets a `'` right before that character, unless the part is, past those
 *    spaces, a plain number (so a list of phones `+1…; +4…` keeps its later phones as they are).
 *
 * Text cells are always quoted (RFC 4180, quotes doubled), so a `;` never splits one; records end in CRLF.
 */

/**
 * The spaces a spreadsheet may skip before a formula: JavaScript's `\s` (ASCII whitespace, no-break and other
 * Unicode spaces, line and paragraph separators, the byte-order mark), spelled out as the characters themselves so
 * that DuckDB's regular expressions (RE2, whose `\s` is ASCII only) read the same class.
 */
export const FORMULA_SPACE = '[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]';
/** The characters that start a formula. */
export const FORMULA_TRIGGER = '[=+\\-@]';
/**
 * A plain number, which no spreadsheet runs as a formula: an optional sign, ASCII digits, optionally a fraction. As a
 * regular expression source read the same by JavaScript and by DuckDB (RE2); unanchored.
 */
export const PLAIN_NUMBER = '[+-]?[0-9]+(?:\\.[0-9]+)?';

const FORMULA_START = new RegExp(`^(${FORMULA_SPACE}*${FORMULA_TRIGGER}|[\t\r])`);
const NUMBER_CELL = new RegExp(`^${PLAIN_NUMBER}$`);
const PART_TRIGGER = new RegExp(`^(${FORMULA_SPACE}*)(?=${FORMULA_TRIGGER})`);
const NUMBER_PART = new RegExp(`^${FORMULA_SPACE}*${PLAIN_NUMBER}$`);

/** One `;`-separated part after the first (rule 3): a `'` before its trigger unless it is a plain number. */
const neutralizePart = (part: string): string =>
  PART_TRIGGER.test(part) && !NUMBER_PART.test(part) ? part.replace(PART_TRIGGER, "$1'") : part;

/** One text cell neutralized against formula injection (the rules above). */
export function neutralizeCell(text: string): string {
  if (NUMBER_CELL.test(text)) return text;
  const inner = text.includes(';')
    ? text
        .split(';')
        .map((part, i) => (i === 0 ? part : neutralizePart(part)))
        .join(';')
    : text;
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
