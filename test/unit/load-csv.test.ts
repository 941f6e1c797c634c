import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { csvRowToRecord } from '../../loaders/load/readers/csv-cells.js';
import { CsvParser, parseCsv } from '../../loaders/load/readers/csv-parser.js';
import { type RawRow, readDump } from '../../loaders/load/readers/index.js';
import { PERSON_FIELDS } from '../../loaders/load/source-fields.js';

describe('CSV parser (RFC 4180)', () => {
  it('splits plain fields and numbers records by line', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['1', '2', '3'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and embedded newlines', () => {
    const recs = parseCsv('id,text\n1,"a, b"\n2,"say ""hi"""\n3,"two\nlines"\n4,after\n');
    expect(recs.map((r) => r.cells)).toEqual([
      ['id', 'text'],
      ['1', 'a, b'],
      ['2', 'say "hi"'],
      ['3', 'two\nlines'],
      ['4', 'after'],
    ]);
    // The record after a multi-line field starts on the right physical line.
    expect(recs.map((r) => r.line)).toEqual([1, 2, 3, 4, 6]);
  });

  it('accepts CRLF, a missing final newline, empty fields and blank lines', () => {
    expect(parseCsv('a,b\r\n,x\r\n\r\n"",\r\nlast,one').map((r) => r.cells)).toEqual([
      ['a', 'b'],
      ['', 'x'],
      ['', ''],
      ['last', 'one'],
    ]);
  });

  it('keeps a CR inside a quoted field', () => {
    expect(parseCsv('"a\r\nb",c\n')[0]!.cells).toEqual(['a\r\nb', 'c']);
  });

  it('gives the same records whatever the chunk boundaries', () => {
    const text = 'h1,h2\n"x,""y""\nz",2\nplain,"q"\n"end",\n';
    const whole = parseCsv(text);
    for (let size = 1; size <= 7; size++) {
      const p = new CsvParser();
      const got = [];
      for (let i = 0; i < text.length; i += size) got.push(...p.push(text.slice(i, i + size)));
      got.push(...p.end());
      expect(got).toEqual(whole);
    }
  });

  it('reports an unterminated quoted field at the end of the file', () => {
    const recs = parseCsv('a,b\n1,"open\nnever closed');
    expect(recs[1]).toMatchObject({ line: 2, error: 'unterminated quoted field' });
  });
});

describe('CSV cells -> source record', () => {
  const header = [
    'person_id',
    'skills',
    'languages',
    'roles',
    'job_location.city',
    'job_location.country',
    'updated_at',
  ];

  it('types lists (JSON or a;b;c), objects (JSON) and dotted headers', () => {
    const r = csvRowToRecord(
      header,
      ['per_1', 'Go; Rust ;', '["English","French"]', '[{"title":"CTO"}]', 'Berlin', 'DE', '2026-01-02'],
      PERSON_FIELDS,
    );
    expect(r).toEqual({
      record: {
        person_id: 'per_1',
        skills: ['Go', 'Rust'],
        languages: ['English', 'French'],
        roles: [{ title: 'CTO' }],
        job_location: { city: 'Berlin', country: 'DE' },
        updated_at: '2026-01-02',
      },
    });
  });

  it('treats an empty cell as absent', () => {
    const r = csvRowToRecord(header, ['per_1', '', '', '', '', '', '2026-01-02'], PERSON_FIELDS);
    expect(r).toEqual({ record: { person_id: 'per_1', updated_at: '2026-01-02' } });
  });

  it('names the field of a bad JSON cell and a wrong cell count', () => {
    expect(csvRowToRecord(header, ['per_1', '', '', '[{"title":', '', '', '2026-01-02'], PERSON_FIELDS)).toEqual({
      error: 'roles: invalid JSON',
    });
    expect(csvRowToRecord(header, ['per_1'], PERSON_FIELDS)).toEqual({ error: 'expected 7 cells, found 1' });
  });
});

describe('readDump', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'cds-csv-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function all(file: string): Promise<RawRow[]> {
    const out: RawRow[] = [];
    for await (const batch of readDump(file, PERSON_FIELDS, { bytes: 0 })) out.push(...batch);
    return out;
  }

  it('reads a CSV file with a BOM and a quoted multi-line cell, tracking lines', async () => {
    const file = join(dir, 'people.csv');
    writeFileSync(
      file,
      '\ufeffperson_id,summary,updated_at\nper_1,"line one\nline two",2026-01-01\nper_2,plain,2026-02-01\n',
    );
    const rows = await all(file);
    expect(rows).toEqual([
      { line: 2, record: { person_id: 'per_1', summary: 'line one\nline two', updated_at: '2026-01-01' } },
      { line: 4, record: { person_id: 'per_2', summary: 'plain', updated_at: '2026-02-01' } },
    ]);
  });

  it('reads JSON Lines with a BOM, skipping blank lines and reporting bad ones by line', async () => {
    const file = join(dir, 'people.ndjson');
    writeFileSync(file, '\ufeff{"person_id":"per_1"}\n\n{oops\n[1,2]\r\n{"person_id":"per_2"}');
    const rows = await all(file);
    expect(rows.map((r) => r.line)).toEqual([1, 3, 4, 5]);
    expect(rows[0]).toEqual({ line: 1, record: { person_id: 'per_1' } });
    expect(rows[1]).toMatchObject({ error: expect.stringMatching(/^invalid JSON/) });
    expect(rows[2]).toEqual({ line: 4, error: 'not a JSON object' });
    expect(rows[3]).toEqual({ line: 5, record: { person_id: 'per_2' } });
  });

  it('numbers lines across read chunks of a large JSON Lines file', async () => {
    const file = join(dir, 'big.jsonl');
    const pad = 'x'.repeat(200);
    const lines = Array.from({ length: 12_000 }, (_, i) =>
      i === 9_999 ? '{broken' : JSON.stringify({ person_id: `per_${i + 1}`, pad }),
    );
    writeFileSync(file, `${lines.join('\r\n')}\r\n`);
    const rows = await all(file);
    expect(rows).toHaveLength(12_000);
    expect(rows.map((r) => r.line)).toEqual(Array.from({ length: 12_000 }, (_, i) => i + 1));
    expect(rows[9_999]).toMatchObject({ line: 10_000, error: expect.stringMatching(/^invalid JSON/) });
    expect(rows[11_999]).toEqual({ line: 12_000, record: { person_id: 'per_12000', pad } });
  });

  it('refuses an unknown extension', () => {
    expect(() => readDump(join(dir, 'x.xml'), PERSON_FIELDS, { bytes: 0 })).toThrow(/unknown dump format/);
  });
});
