import type { DuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import type { TestApp } from './test-app.js';

export type Row = Record<string, any>;

/** Every stored row of a table with plain SQL (no filter compiler), for independent expectations. */
export async function allRows(app: TestApp, table: 'contacts' | 'companies'): Promise<Row[]> {
  const engine = app.services.engine as DuckDBEngine;
  const rows = await engine.run(`SELECT * FROM ${table} ORDER BY sort_key`);
  return rows.map((r) => {
    const out: Row = { ...r };
    for (const k of ['experience', 'education', 'certifications', 'social', 'locations']) {
      if (typeof out[k] === 'string') out[k] = JSON.parse(out[k]);
    }
    return out;
  });
}

export const has = (v: unknown): boolean =>
  v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);
export const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
/**
 * Lowercased as the Query IR documents it: each code point by Unicode's simple mapping (`Σ` is always `σ`, `İ` is
 * `i`), written independently of the engines' own helper.
 */
export function foldCase(text: string): string {
  return Array.from(text, (ch) => (ch === '\u0130' ? 'i' : ch.toLowerCase())).join('');
}

/** Whole-word phrase test written independently of the engine's regular expression. */
export function wordsMatch(text: unknown, phrase: string): boolean {
  if (typeof text !== 'string') return false;
  const words = foldCase(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const want = foldCase(phrase)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  for (let i = 0; i + want.length <= words.length; i++) if (want.every((w, j) => words[i + j] === w)) return true;
  return false;
}
