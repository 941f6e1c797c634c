import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { findColumn } from '../../../src/domain/catalog/index.js';
import { cellSql, isTextCell } from '../../../src/engine/duckdb/export-csv.js';
import { ident } from '../../../src/engine/duckdb/schema.js';
import { csvCell } from '../../../src/engine/search-cluster/csv-cells.js';

/**
 * The Elasticsearch export writes each cell as the DuckDB export's COPY does: the same rows written by DuckDB (with
 * the DuckDB engine's cell expressions and quoting) and by csv-cells.ts give the same bytes.
 */
const COLUMNS = ['name', 'skills', 'experience', 'company_employee_count', 'company_employee_growth_pct', 'has_phone'];
const cols = COLUMNS.map((n) => findColumn('contact', n, true)!);

const ROWS: unknown[][] = [
  ['Ada "The Countess" Lovelace', ['python', 'sql'], '{"title":"CTO"}', 50, 12.5, true],
  ['=cmd|calc', ['+1', 'a;=b', 'c; -d'], '[]', 0, 3, false],
  ['  @mention', [], '{"x":"=1"}', null, -0.25, null],
  ['\tTabbed', null, null, 123456789, 100, true],
  ['line\r\nbreak, comma', ['x, y', '"q"'], '{"a":"b;@c"}', 7, 0.1, false],
  ['', ['', 'ünïcödé'], '', -5, null, true],
  [null, ['-'], 'null', 1, 2.75, false],
  // Spaces a spreadsheet may skip before a formula, past ASCII: no-break, ideographic, em space, byte-order mark.
  ['\u00a0=1+1', ['\ufeff@x', 'a;\u3000=b'], '{"k":"\u2003-1"}', 2, 1, true],
  ['\u2028+2', ['ok'], '\u00a0', 3, 0.5, false],
  // Plain numbers (E.164 phones, -12.5) are written as they are, as a whole cell and as a `;`-separated part.
  ['+12124435204', ['+12124435204', '+16465550100'], '-12.5', 4, -12.5, true],
  ['-12.5', ['a', '+1', '-2.25', '+1+1'], '+7', 5, 0, false],
  ['+1+1', ['-2+3', '@SUM(A1)'], '=HYPERLINK("http://x.example","y")', 6, 1, true],
  ['+1 212-443-5204', ['\t-1', '\r+1'], ' -12.5', 7, 1, null],
  ['a;+1;+2;+3', [';-1;', "'+1"], 'x;\u00a0+5;\u00a0+5x', 8, 1, true],
  ['-12.5 ', ['-1e5', '+', '-.5', ''], '+1;=2', 9, 1, false],
];

const sqlValue = (v: unknown): string => {
  if (v === null) return 'NULL';
  if (Array.isArray(v)) return `[${v.map(sqlValue).join(', ')}]::VARCHAR[]`;
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  return String(v);
};

it('writes every cell as DuckDB COPY writes it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cds-csv-cells-'));
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  try {
    const ddl = cols.map((c) => `${ident(c.name)} ${c.storage === 'JSON' ? 'VARCHAR' : c.storage}`).join(', ');
    await conn.run(`CREATE TABLE t (i INTEGER, ${ddl})`);
    for (const [i, r] of ROWS.entries()) await conn.run(`INSERT INTO t VALUES (${i}, ${r.map(sqlValue).join(', ')})`);
    const file = join(dir, 'out.csv');
    const quoted = cols.flatMap((c, i) => (isTextCell(c) ? [ident(`c${i}`)] : []));
    await conn.run(
      `COPY (SELECT ${cols.map((c, i) => cellSql(c, `c${i}`)).join(', ')} FROM t ORDER BY i) TO '${file}' (FORMAT csv, ` +
        `HEADER false, NEW_LINE '\\r\\n', FORCE_QUOTE (${quoted.join(', ')}))`,
    );
    const duck = readFileSync(file, 'utf8');
    const ours = ROWS.map((r) => `${cols.map((c, i) => csvCell(c, r[i])).join(',')}\r\n`).join('');
    expect(ours).toBe(duck);
    expect(duck).toContain(`\r\n"'\u00a0=1+1","'\ufeff@x; a;\u3000'=b","{""k"":""\u2003-1""}",2,1.0,true\r\n`);
    expect(duck).toContain(`\r\n"'\u2028+2","ok","\u00a0",3,0.5,false\r\n`);
    expect(duck).toContain(`\r\n"+12124435204","'+12124435204; +16465550100","-12.5",4,-12.5,true\r\n`);
    expect(duck).toContain(`\r\n"-12.5","a; +1; -2.25; '+1+1","+7",5,0.0,false\r\n`);
    expect(duck).toContain(`\r\n"'+1+1","'-2+3; '@SUM(A1)","'=HYPERLINK(""http://x.example"",""y"")",6,1.0,true\r\n`);
    expect(duck).toContain(`\r\n"a;+1;+2;+3",";-1;; '+1","x;\u00a0+5;\u00a0'+5x",8,1.0,true\r\n`);
  } finally {
    conn.closeSync();
    db.closeSync();
    rmSync(dir, { recursive: true, force: true });
  }
});
