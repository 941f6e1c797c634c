import { extname } from 'node:path';
import type { FieldKind } from '../source-fields.js';
import { csvRowToRecord } from './csv-cells.js';
import { CsvParser, type CsvRecord } from './csv-parser.js';
import { lines, textChunks, type TextChunkSink } from './lines.js';

/** One row of a dump: the parsed record, or why it could not be parsed. */
export type RawRow = { line: number; record: Record<string, unknown> } | { line: number; error: string };

export type DumpFormat = 'jsonl' | 'csv';

export function dumpFormat(file: string): DumpFormat {
  const ext = extname(file).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson' || ext === '.json') return 'jsonl';
  if (ext === '.csv') return 'csv';
  throw new Error(`${file}: unknown dump format (use .jsonl, .ndjson, .json or .csv)`);
}

async function* readJsonl(file: string, sink: TextChunkSink): AsyncGenerator<RawRow[]> {
  for await (const batch of lines(file, sink)) {
    const out: RawRow[] = [];
    for (const { line, text } of batch) {
      if (text.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (e) {
        out.push({ line, error: `invalid JSON: ${(e as Error).message}` });
        continue;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) out.push({ line, error: 'not a JSON object' });
      else out.push({ line, record: value as Record<string, unknown> });
    }
    yield out;
  }
}

async function* readCsv(file: string, fields: Readonly<Record<string, FieldKind>>, sink: TextChunkSink): AsyncGenerator<RawRow[]> {
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

/** Rows of a JSON Lines or CSV dump (chosen by extension), in batches, with line numbers. */
export function readDump(file: string, fields: Readonly<Record<string, FieldKind>>, sink: TextChunkSink): AsyncGenerator<RawRow[]> {
  return dumpFormat(file) === 'csv' ? readCsv(file, fields, sink) : readJsonl(file, sink);
}
