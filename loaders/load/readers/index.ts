import { extname } from 'node:path';
import type { FieldKind } from '../source-fields.js';
import { csvRowToRecord } from './csv-cells.js';
import { CsvParser, type CsvRecord } from './csv-parser.js';
import { type LineChunk, lineChunks, splitLines, type TextChunkSink, textChunks } from './lines.js';

/** One row of a dump: the parsed record, or why it could not be parsed. */
export type RawRow = { line: number; record: Record<string, unknown> } | { line: number; error: string };

/** A row that may still be unparsed JSON text, so parsing can happen on a worker thread. */
export type UnparsedRow = RawRow | { line: number; text: string };

export type DumpFormat = 'jsonl' | 'csv';
export type { LineChunk } from './lines.js';
export { splitLines } from './lines.js';

/** The format by extension; a `.gz` after it is read through gunzip (readers/lines.ts). */
export function dumpFormat(file: string): DumpFormat {
  const ext = extname(file.replace(/\.gz$/i, '')).toLowerCase();
  // Parquet is read through its JSON Lines form (parquet.ts) before it gets here.
  if (ext === '.parquet') return 'jsonl';
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  if (ext === '.csv') return 'csv';
  throw new Error(`${file}: unknown dump format (use .jsonl, .ndjson, .json, .csv, optionally .gz, or .parquet)`);
}

/** Parses a JSON Lines row; blank lines come back as null. */
export function parseRow(row: UnparsedRow): RawRow | null {
  if (!('text' in row)) return row;
  const { line, text } = row;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (text.trim() === '') return null;
    return { line, error: `invalid JSON: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { line, error: 'not a JSON object' };
  return { line, record: value as Record<string, unknown> };
}

async function* readJsonl(file: string, sink: TextChunkSink): AsyncGenerator<UnparsedRow[]> {
  for await (const chunk of lineChunks(file, sink)) yield splitLines(chunk);
}

/**
 * Rows of a dump for worker threads: JSON Lines as raw line chunks (split and parsed by the worker),
 * CSV as parsed rows (records may span lines, so they are found in order on the reading thread).
 */
export async function* readDumpForWorkers(
  file: string,
  fields: Readonly<Record<string, FieldKind>>,
  sink: TextChunkSink,
): AsyncGenerator<LineChunk | UnparsedRow[]> {
  if (dumpFormat(file) === 'csv') yield* readCsv(file, fields, sink);
  else yield* lineChunks(file, sink);
}

async function* readCsv(
  file: string,
  fields: Readonly<Record<string, FieldKind>>,
  sink: TextChunkSink,
): AsyncGenerator<RawRow[]> {
  const parser = new CsvParser();
  let header: string[] | null = null;
  const convert = (recs: CsvRecord[]): RawRow[] => {
    const out: RawRow[] = [];
    for (const r of recs) {
      if (!header) {
        header = r.cells.map((h) => h.trim());
        continue;
      }
      if (r.error) {
        out.push({ line: r.line, error: r.error });
        continue;
      }
      const row = csvRowToRecord(header, r.cells, fields);
      out.push('error' in row ? { line: r.line, error: row.error } : { line: r.line, record: row.record });
    }
    return out;
  };
  for await (const text of textChunks(file, sink)) yield convert(parser.push(text));
  yield convert(parser.end());
}

/** Rows of a JSON Lines or CSV dump (chosen by extension), in batches, with line numbers; JSON Lines rows unparsed. */
function readDumpUnparsed(
  file: string,
  fields: Readonly<Record<string, FieldKind>>,
  sink: TextChunkSink,
): AsyncGenerator<UnparsedRow[]> {
  return dumpFormat(file) === 'csv' ? readCsv(file, fields, sink) : readJsonl(file, sink);
}

/** Rows of a JSON Lines or CSV dump (chosen by extension), in batches, with line numbers, parsed. */
export function readDump(
  file: string,
  fields: Readonly<Record<string, FieldKind>>,
  sink: TextChunkSink,
): AsyncGenerator<RawRow[]> {
  return parsed(readDumpUnparsed(file, fields, sink));
}

async function* parsed(rows: AsyncGenerator<UnparsedRow[]>): AsyncGenerator<RawRow[]> {
  for await (const batch of rows) {
    const out: RawRow[] = [];
    for (const row of batch) {
      const p = parseRow(row);
      if (p) out.push(p);
    }
    yield out;
  }
}
