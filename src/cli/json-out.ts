/**
 * The JSON the CLI prints and the report files it writes use snake_case keys, as the REST API does. Internal records
 * keep their TypeScript (camelCase) fields; they are converted here, at the output boundary.
 */

/** A camelCase identifier (`releaseId`, `rowsPerSecond`); other keys are data (column names, reasons, codes). */
const CAMEL = /^[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*$/;

/** `releaseId` → `release_id`, `rowsPerSecond` → `rows_per_second`; keys that are not camelCase stay as they are. */
export function snakeKey(key: string): string {
  if (!CAMEL.test(key)) return key;
  return key
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase();
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (x === null || typeof x !== 'object') return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

/** A copy of `x` with every camelCase key of every plain object, at any depth, in snake_case. */
export function snakeKeys(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(snakeKeys);
  if (!isPlainObject(x)) return x;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(x)) out[snakeKey(k)] = snakeKeys(v);
  return out;
}

/** One JSON line with snake_case keys. */
export function jsonLine(x: unknown): string {
  return `${JSON.stringify(snakeKeys(x))}\n`;
}

/** Prints one JSON line with snake_case keys on stdout. */
export function printJson(x: unknown): void {
  process.stdout.write(jsonLine(x));
}
