import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBValue, listValue } from '@duckdb/node-api';
import { MATCH_ALL } from '../../src/domain/query/index.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { publishCurrent, releaseFile, releasesDir } from '../../src/engine/duckdb/release-store.js';
import { releaseDdl } from '../../src/engine/duckdb/schema.js';
import { parseCsv } from '../helpers/csv.js';

/**
 * The engine's bulk CSV writer over a release written by hand with hostile values: formula triggers,
 * RFC 4180 specials (commas, quotes, CR/LF), lists, records, booleans, numbers and nulls. The file is read
 * back with an independent RFC 4180 parser (test/helpers/csv.ts).
 */
interface Person {
  id: string;
  name: string;
  title: string | null;
  domain: string | null;
  skills: string[] | null;
  experience: string | null;
  hasPhone: boolean;
  employees: number | null;
  growth: number | null;
  phone: string | null;
}

const P = (i: number, o: Partial<Person>): Person => ({
  id: `per_${String(i).padStart(3, '0')}`,
  name: `Person ${i}`,
  title: 'Engineer',
  domain: 'acme.com',
  skills: null,
  experience: null,
  hasPhone: false,
  employees: null,
  growth: null,
  phone: null,
  ...o,
});

const PEOPLE: Person[] = [
  P(1, {
    title: '=HYPERLINK("http://evil.example","click")',
    skills: ['sql', 'python'],
    hasPhone: true,
    employees: 250,
    growth: 12.5,
    phone: '+14155550100',
  }),
  P(2, {
    title: '+1 is a formula',
    domain: 'beta.io',
    skills: ['=cmd|calc'],
    experience: '[{"title":"CTO","company":"Beta, Inc."}]',
  }),
  P(3, { title: '-2+3', domain: null, employees: -7, phone: '+1+1' }),
  P(4, { title: '@SUM(A1:A2)', domain: 'acme.com', skills: ['ok', '=bad', ' @spaced'] }),
  P(5, { title: '\tTabbed', domain: 'acme.com', phone: '-12.5' }),
  P(6, { title: '\rCarriage', domain: 'beta.io', phone: '+1 415-555-0100' }),
  P(7, { title: '   =spaced formula', domain: null }),
  P(8, { title: 'Plain, with comma', domain: 'acme.com', name: 'Jane "JJ" Doe' }),
  P(9, { title: 'Line one\nline two', domain: 'gamma.dev', skills: [] }),
  P(10, { title: null, domain: 'acme.com', name: 'Zoë Ångström – 東京' }),
  P(11, { title: 'VP = Sales', domain: 'gamma.dev' }),
  P(12, { title: 'Safe; =cmd|calc;+1', domain: null, skills: ['+14155550101', '-3', '+1+1'] }),
];

async function makeRelease(dataDir: string, id: string): Promise<void> {
  mkdirSync(releasesDir(dataDir), { recursive: true });
  const inst = await DuckDBInstance.create(releaseFile(dataDir, id));
  const c = await inst.connect();
  for (const sql of releaseDdl()) await c.run(sql);
  for (const [i, p] of PEOPLE.entries()) {
    const values: DuckDBValue[] = [
      p.id,
      p.name,
      p.title,
      p.domain,
      p.skills?.length ? listValue(p.skills) : null,
      p.experience,
      p.hasPhone,
      p.employees,
      p.growth,
      p.phone,
      i + 1,
      p.skills !== null && p.skills.length === 0,
    ];
    await c.run(
      `INSERT INTO contacts (id, name, title, company_domain, skills, experience, has_phone, company_employee_count, company_employee_growth_pct, mobile_phone, sort_key,
                             seniority, last_updated, "function", has_work_email, signals)
       VALUES ($1, $2, $3, $4, CASE WHEN $12 THEN []::VARCHAR[] ELSE $5::VARCHAR[] END, $6, $7, $8, $9, $10, $11, 'manager', '2026-01', 'engineering', false, [])`,
      values,
    );
  }
  await c.run(`INSERT INTO meta VALUES ('release_id', $1)`, [id]);
  c.closeSync();
  inst.closeSync();
  await publishCurrent(dataDir, {
    id,
    file: `${id}.duckdb`,
    createdAt: new Date().toISOString(),
    contacts: PEOPLE.length,
    companies: 0,
    source: {},
  });
}

const COLUMNS = [
  'id',
  'name',
  'title',
  'company_domain',
  'skills',
  'experience',
  'has_phone',
  'company_employee_count',
  'company_employee_growth_pct',
  'mobile_phone',
];

let dataDir: string;
let engine: DuckDBEngine;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cds-csv-'));
  await makeRelease(dataDir, 'r20260101T000000-csv1');
  engine = await openDuckDBEngine({ dataDir, poolSize: 2, threads: 1 });
});
afterAll(async () => {
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let n = 0;
async function exportRows(
  opts: {
    maxRows?: number;
    maxPerCompany?: number | null;
    batchRows?: number;
    headers?: (name: string) => string;
  } = {},
) {
  const file = join(dataDir, `out-${++n}.csv`);
  const batches: number[] = [];
  const res = await engine.exportCsv('contact', MATCH_ALL, {
    columns: COLUMNS.map((name) => ({ name, header: opts.headers ? opts.headers(name) : name })),
    maxRows: opts.maxRows ?? 1000,
    maxPerCompany: opts.maxPerCompany ?? null,
    file,
    batchRows: opts.batchRows ?? 100,
    budgetMs: 10_000,
    onBatch: (rows) => void batches.push(rows),
  });
  const text = readFileSync(file, 'utf8');
  const [header, ...rows] = parseCsv(text);
  return { res, text, header: header!, rows, batches, byId: new Map(rows.map((r) => [r[0]!, r])) };
}

describe('engine CSV export (DuckDB)', () => {
  it('writes a header row and one line per row in the stable order, CRLF line ends', async () => {
    const { res, text, header, rows } = await exportRows();
    expect(res).toMatchObject({ releaseId: 'r20260101T000000-csv1', rows: PEOPLE.length });
    expect(res.bytes).toBe(Buffer.byteLength(text, 'utf8'));
    expect(header).toEqual(COLUMNS);
    expect(rows.map((r) => r[0])).toEqual(PEOPLE.map((p) => p.id));
    expect(text.startsWith('id,name,title,')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    // every record separator is CRLF; the only bare LF sits inside the quoted two-line title
    expect(text.replace(/\r\n/g, '').match(/\n/g)).toHaveLength(1);
  });

  it('neutralizes formula triggers in text, list and record cells with a leading quote', async () => {
    const { byId } = await exportRows();
    const title = (i: number) => byId.get(PEOPLE[i - 1]!.id)![2];
    expect(title(1)).toBe(`'=HYPERLINK("http://evil.example","click")`);
    expect(title(2)).toBe("'+1 is a formula");
    expect(title(3)).toBe("'-2+3");
    expect(title(4)).toBe("'@SUM(A1:A2)");
    expect(title(5)).toBe("'\tTabbed");
    expect(title(6)).toBe("'\rCarriage");
    expect(title(7)).toBe("'   =spaced formula");
    expect(title(11)).toBe('VP = Sales'); // a trigger later in the text is harmless
    // after a `;` (a cell separator in many locales) a trigger is neutralized too, unless the part is a plain number
    expect(title(12)).toBe("Safe; '=cmd|calc;+1");
    expect(byId.get('per_004')![4]).toBe("ok; '=bad;  '@spaced");
    // list cell: joined, then neutralized as one cell
    expect(byId.get('per_002')![4]).toBe("'=cmd|calc");
    // a cell that is exactly a plain number cannot start a formula: E.164 phones and -12.5 are written as they are
    expect(byId.get('per_001')![9]).toBe('+14155550100');
    expect(byId.get('per_005')![9]).toBe('-12.5');
    // anything more is a formula: +1+1, and a phone written with spaces and dashes
    expect(byId.get('per_003')![9]).toBe("'+1+1");
    expect(byId.get('per_006')![9]).toBe("'+1 415-555-0100");
    // a list led by a phone: the cell is neutralized, later parts only when they are not plain numbers
    expect(byId.get('per_012')![4]).toBe("'+14155550101; -3; '+1+1");
    // numbers are not text: a negative count stays a number
    expect(byId.get('per_003')![7]).toBe('-7');
  });

  it('quotes every text, list and record cell, so a `;` never splits one; numbers and booleans stay bare', async () => {
    const { text } = await exportRows();
    const line = text.split('\r\n').find((l) => l.startsWith('"per_012"'))!;
    expect(line).toContain(`"Safe; '=cmd|calc;+1"`);
    const first = text.split('\r\n').find((l) => l.startsWith('"per_001"'))!;
    expect(first).toMatch(/,true,250,12\.5,"\+14155550100"$/);
  });

  it('quotes commas, quotes and newlines (RFC 4180) and keeps UTF-8 text intact', async () => {
    const { byId, text } = await exportRows();
    expect(byId.get('per_008')!.slice(1, 3)).toEqual(['Jane "JJ" Doe', 'Plain, with comma']);
    expect(text).toContain('"Jane ""JJ"" Doe","Plain, with comma"');
    expect(byId.get('per_009')![2]).toBe('Line one\nline two');
    expect(byId.get('per_010')![1]).toBe('Zoë Ångström – 東京');
    expect(byId.get('per_002')![5]).toBe('[{"title":"CTO","company":"Beta, Inc."}]');
  });

  it('writes lists joined with "; ", booleans as true/false, numbers, and nulls as empty cells', async () => {
    const { byId } = await exportRows();
    expect(byId.get('per_001')!.slice(4)).toEqual(['sql; python', '', 'true', '250', '12.5', '+14155550100']);
    expect(byId.get('per_009')![4]).toBe(''); // empty list
    expect(byId.get('per_010')!.slice(2, 4)).toEqual(['', 'acme.com']); // null title
    expect(byId.get('per_003')!.slice(3, 9)).toEqual(['', '', '', 'false', '-7', '']);
  });

  it('uses the given header text (labels for family B), quoted when needed', async () => {
    const { header, text } = await exportRows({
      headers: (name) => (name === 'company_domain' ? 'Company Domain' : name === 'name' ? 'Name, full' : name),
    });
    expect(header.slice(0, 4)).toEqual(['id', 'Name, full', 'title', 'Company Domain']);
    expect(text.startsWith('id,"Name, full",title,Company Domain,')).toBe(true);
  });

  it('pages in batches without losing or repeating rows, and stops at maxRows', async () => {
    const all = await exportRows({ batchRows: 5 });
    expect(all.rows.map((r) => r[0])).toEqual(PEOPLE.map((p) => p.id));
    expect(all.batches).toEqual([5, 10, 12]);
    const seven = await exportRows({ batchRows: 3, maxRows: 7 });
    expect(seven.res.rows).toBe(7);
    expect(seven.rows.map((r) => r[0])).toEqual(PEOPLE.slice(0, 7).map((p) => p.id));
  });

  it('caps rows per company_domain in the stable order; rows without a domain are not capped', async () => {
    for (const batchRows of [100, 2]) {
      const { rows } = await exportRows({ maxPerCompany: 1, batchRows });
      const expected: string[] = [];
      const seen = new Set<string>();
      for (const p of PEOPLE) {
        if (p.domain !== null && seen.has(p.domain)) continue;
        if (p.domain !== null) seen.add(p.domain);
        expected.push(p.id);
      }
      expect(rows.map((r) => r[0])).toEqual(expected);
    }
    const count = await engine.exportCount('contact', MATCH_ALL, { maxPerCompany: 1, budgetMs: 10_000 });
    expect(count).toEqual({ releaseId: 'r20260101T000000-csv1', matches: 12, capped: 3 + 3 }); // 3 domains + 3 rows without one
    const two = await engine.exportCount(
      'contact',
      { field: 'company_domain', op: 'eq', value: 'acme.com' },
      { maxPerCompany: 2, budgetMs: 10_000 },
    );
    expect(two).toMatchObject({ matches: 5, capped: 2 });
  });

  it('writes only the header when nothing matches', async () => {
    const file = join(dataDir, 'empty.csv');
    const res = await engine.exportCsv(
      'contact',
      { field: 'id', op: 'eq', value: 'per_none' },
      {
        columns: [{ name: 'id', header: 'id' }],
        maxRows: 10,
        maxPerCompany: null,
        file,
        batchRows: 10,
        budgetMs: 10_000,
      },
    );
    expect(res.rows).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('id\r\n');
  });
});
