/** Type guards and wording for raw JSON input, shared by the filter and where parsers. */

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `null` and a missing member mean the same: not sent (clients often serialize unset options as null). */
export function isAbsent(v: unknown): v is null | undefined {
  return v === undefined || v === null;
}

export function hasOwn(o: JsonObject, key: string): boolean {
  return Object.hasOwn(o, key);
}

/** "a string", "an array", ... for messages naming what was received. */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  const t = typeof v;
  return t === 'object' || t === 'undefined' ? `an ${t}` : `a ${t}`;
}

/** Quotes user input for a message, cut short so an error never echoes a huge value. */
export function quote(v: unknown, max = 60): string {
  const s = typeof v === 'string' ? v : String(v);
  return JSON.stringify(s.length > max ? `${s.slice(0, max)}…` : s);
}

export function member(path: string, key: string): string {
  return `${path}.${key}`;
}

export function item(path: string, index: number): string {
  return `${path}[${index}]`;
}

export function isYearMonth(s: string): boolean {
  return /^\d{4}-(0[1-9]|1[0-2])$/.test(s);
}

/** A real calendar day in `YYYY-MM-DD` (rejects 2024-02-30). */
export function isIsoDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

export function hasEdgeWildcard(s: string): { leading: boolean; trailing: boolean } {
  return { leading: /^[*%]/.test(s), trailing: /[*%]$/.test(s) };
}

export function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
