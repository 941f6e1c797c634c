import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { AppError } from '../../src/domain/errors/index.js';
import { WHERE_SQL_MAX_CHARS } from '../../src/domain/family-b/index.js';
import type { IRNode } from '../../src/domain/query/index.js';
import { compileWhere } from '../../src/engine/duckdb/compile/compile-where.js';
import { Params } from '../../src/engine/duckdb/compile/params.js';
import { createTableSql } from '../../src/engine/duckdb/schema.js';
import { parseWhereSql, type RunSql } from '../../src/engine/duckdb/where-sql/parse-where-sql.js';

let instance: DuckDBInstance;
let conn: DuckDBConnection;
let dir: string;
/** Every statement `run` was handed, to show the client's text only ever travels as a parameter. */
const statements: string[] = [];

const run: RunSql = async (sql, params) => {
  statements.push(sql);
  const reader = await conn.runAndReadAll(sql, params as string[]);
  return reader.getRowObjects() as Record<string, unknown>[];
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cds-where-sql-'));
  instance = await DuckDBInstance.create(':memory:');
  conn = await instance.connect();
  await conn.run("CREATE TABLE contacts (id VARCHAR, title VARCHAR); INSERT INTO contacts VALUES ('per_1', 'CTO')");
  await conn.run(createTableSql('contact', 'engine_contacts'));
});

afterAll(() => {
  conn.closeSync();
  instance.closeSync();
  rmSync(dir, { recursive: true, force: true });
});

const parse = (sql: string): Promise<IRNode> => parseWhereSql(sql, run);

async function refused(sql: string): Promise<AppError> {
  try {
    await parse(sql);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error(`expected ${JSON.stringify(sql)} to be refused`);
}

describe('accepted forms give the exact IR', () => {
  const cases: Array<[string, IRNode]> = [
    ["title = 'CTO'", { field: 'title', op: 'eq', value: 'CTO' }],
    ['"Title" = \'CTO\'', { field: 'title', op: 'eq', value: 'CTO' }],
    ["country = 'USA'", { field: 'country', op: 'eq', value: 'us' }],
    ["country <> 'de'", { field: 'country', op: 'neq', value: 'de' }],
    ["country != 'de'", { field: 'country', op: 'neq', value: 'de' }],
    ['company_employee_count < 10', { field: 'company_employee_count', op: 'lt', value: 10 }],
    ['company_employee_count <= 10', { field: 'company_employee_count', op: 'lte', value: 10 }],
    ['company_employee_count > 10', { field: 'company_employee_count', op: 'gt', value: 10 }],
    ['company_employee_count >= 10', { field: 'company_employee_count', op: 'gte', value: 10 }],
    ['50 <= company_employee_count', { field: 'company_employee_count', op: 'gte', value: 50 }],
    ['company_employee_growth_pct > 2.5', { field: 'company_employee_growth_pct', op: 'gt', value: 2.5 }],
    ['company_employee_growth_pct >= -1.25', { field: 'company_employee_growth_pct', op: 'gte', value: -1.25 }],
    ['company_revenue_usd >= 1e6', { field: 'company_revenue_usd', op: 'gte', value: 1_000_000 }],
    [
      'company_total_funding_usd > 12345678901234',
      { field: 'company_total_funding_usd', op: 'gt', value: 12345678901234 },
    ],
    ["seniority IN ('vp', 'Director', 'vp')", { field: 'seniority', op: 'in', value: ['vp', 'director'] }],
    ["country NOT IN ('us', 'Germany')", { field: 'country', op: 'not_in', value: ['us', 'de'] }],
    ['company_founded_year IN (1999, 2000)', { field: 'company_founded_year', op: 'in', value: [1999, 2000] }],
    ['work_email IS NULL', { field: 'work_email', op: 'exists', value: false }],
    ['network IS NOT NULL', { field: 'network', op: 'exists', value: true }],
    ['skills IS NOT NULL', { field: 'skills', op: 'exists', value: true }],
    ["title LIKE '%sales%'", { field: 'title', op: 'contains', value: 'sales' }],
    ["title ILIKE '%Sales Ops%'", { field: 'title', op: 'contains', value: 'Sales Ops' }],
    ["title ILIKE 'head of%'", { field: 'title', op: 'prefix', value: 'head of' }],
    ["company_domain LIKE 'acme.com'", { field: 'company_domain', op: 'eq', value: 'acme.com' }],
    ["title NOT ILIKE '%intern%'", { not: { field: 'title', op: 'contains', value: 'intern' } }],
    ["title NOT LIKE 'Chief%'", { not: { field: 'title', op: 'prefix', value: 'Chief' } }],
    ["experience ILIKE '%acme%'", { field: 'experience', op: 'contains', value: 'acme' }],
    ["skills LIKE '%py%'", { field: 'skills', op: 'contains', value: 'py' }],
    [
      'company_employee_count BETWEEN 10 AND 50',
      {
        and: [
          { field: 'company_employee_count', op: 'gte', value: 10 },
          { field: 'company_employee_count', op: 'lte', value: 50 },
        ],
      },
    ],
    [
      'company_employee_count NOT BETWEEN 10 AND 50',
      {
        not: {
          and: [
            { field: 'company_employee_count', op: 'gte', value: 10 },
            { field: 'company_employee_count', op: 'lte', value: 50 },
          ],
        },
      },
    ],
    ["role_since >= DATE '2024-01-01'", { field: 'role_since', op: 'gte', value: '2024-01-01' }],
    ["role_since < '2024-06-01'", { field: 'role_since', op: 'lt', value: '2024-06-01' }],
    ["last_updated >= '2024-01'", { field: 'last_updated', op: 'gte', value: '2024-01' }],
    ['has_phone = TRUE', { field: 'has_phone', op: 'eq', value: true }],
    ['has_phone <> false', { field: 'has_phone', op: 'neq', value: false }],
    ['has_phone', { field: 'has_phone', op: 'eq', value: true }],
    ['NOT has_work_email', { not: { field: 'has_work_email', op: 'eq', value: true } }],
    ["list_contains(skills, 'Python')", { field: 'skills', op: 'eq', value: 'python' }],
    ["array_contains(languages, 'German')", { field: 'languages', op: 'eq', value: 'German' }],
    ["skills = 'sql'", { field: 'skills', op: 'eq', value: 'sql' }],
    [
      "company_industries IN ('Software Development')",
      { field: 'company_industries', op: 'in', value: ['software_development'] },
    ],
    ["email_status = 'VALID'", { field: 'email_status', op: 'eq', value: 'valid' }],
    ["title = 'it''s'", { field: 'title', op: 'eq', value: "it's" }],
    ['title = $$CEO$$;', { field: 'title', op: 'eq', value: 'CEO' }],
    ["title = 'a--b/*c*/'", { field: 'title', op: 'eq', value: 'a--b/*c*/' }],
    ["title = 'systems engineer'", { field: 'title', op: 'eq', value: 'systems engineer' }],
    [
      "(seniority = 'vp' OR seniority = 'director') AND NOT country = 'us' AND company_employee_count >= 50",
      {
        and: [
          {
            or: [
              { field: 'seniority', op: 'eq', value: 'vp' },
              { field: 'seniority', op: 'eq', value: 'director' },
            ],
          },
          { field: 'country', op: 'neq', value: 'us' },
          { field: 'company_employee_count', op: 'gte', value: 50 },
        ],
      },
    ],
    [
      "NOT (title ILIKE '%sales%' OR title ILIKE '%account%')",
      {
        not: {
          or: [
            { field: 'title', op: 'contains', value: 'sales' },
            { field: 'title', op: 'contains', value: 'account' },
          ],
        },
      },
    ],
  ];

  it.each(cases)('%s', async (sql, expected) => {
    const node = await parse(sql);
    expect(node).toEqual(expected);
    // The IR also compiles and binds on the engine's contact table.
    const params = new Params();
    const where = compileWhere('contact', node, params);
    expect(
      (
        await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM engine_contacts WHERE ${where}`, params.values)
      ).getRowObjects(),
    ).toEqual([{ n: 0 }]);
  });
});

describe('refusals name what was refused (400 request.invalid on where_sql)', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['unknown column', "titel = 'CTO'", /"titel" is not a contact column/],
    ['internal helper column', "network_slug = 'x'", /"network_slug" is not a contact column/],
    ['qualified column', "contacts.title = 'x'", /without a table/],
    ['syntax error', 'title = ', /not a valid SQL condition: syntax error at end of input/],
    ['unterminated string', "title = 'abc", /unterminated quoted string/],
    ['star', "title = 'x' AND *", /does not accept \*/],
    ['cast', 'title::INTEGER = 1', /must name a contact column; found a cast/],
    ['cast on the value', "company_employee_count = '5'::INTEGER", /a cast; only constants/],
    ['window function', 'row_number() OVER () = 1', /window function/],
    ['CASE', "CASE WHEN title = 'x' THEN true ELSE false END", /CASE/],
    ['unknown function', "md5(title) = 'x'", /md5\(\)/],
    ['function as value', "title = concat('a', 'b')", /concat\(\)/],
    ['operator expression', "title = 'a' || 'b'", /operator "\|\|"/],
    ['arithmetic', 'company_employee_count + 1 > 5', /operator "\+"/],
    ['two columns', 'first_name = last_name', /compares two columns/],
    ['no column', '1 = 1', /must name a contact column; it compares two constants/],
    ['constant alone', 'TRUE', /a constant alone is not a condition/],
    ['NULL comparison', 'title = NULL', /NULL/],
    ['IS DISTINCT FROM', "title IS DISTINCT FROM 'x'", /DISTINCT FROM/],
    [
      'string on a number column',
      "company_employee_count > '5'",
      /company_employee_count is compared with the text "5"/,
    ],
    ['number on a text column', 'title = 5', /title is compared with the number 5/],
    ['bad date', "role_since > '2024-13-01'", /role_since is compared with the text/],
    ['bad month', "last_updated = '2024'", /last_updated is compared with the text/],
    ['boolean column with IS NULL', 'has_phone IS NULL', /has_phone does not take IS \[NOT\] NULL/],
    ['LIKE on a number column', "company_employee_count LIKE '1%'", /does not take LIKE 'x%'/],
    ['= on a record column', "education = 'MIT'", /education does not take =/],
    ['underscore wildcard', "title LIKE 'c_o'", /_ wildcard/],
    ['leading wildcard only', "title LIKE '%officer'", /leading wildcard/],
    ['inner wildcard', "title LIKE 'chief%officer'", /% inside/],
    ['empty pattern', "title LIKE '%%'", /no text/],
    ['ILIKE without wildcard', "title ILIKE 'cto'", /Case-insensitive equality/],
    ['lower()', "lower(title) = 'cto'", /Case-insensitive equality/],
    ['list_contains on a text column', "list_contains(title, 'x')", /takes a list column/],
    ['LIKE ESCAPE', "title LIKE 'a%' ESCAPE '!'", /like_escape\(\)/],
    ['COLLATE', "title = 'x' COLLATE nocase", /COLLATE/],
    ['regex', "title ~ 'c.o'", /regexp_full_match\(\)/],
    ['GLOB', "title GLOB 'c*'", /operator "~~~"/],
    ['parameter', 'title = $1', /parameter placeholder/],
    ['ORDER BY', "title = 'x' ORDER BY id", /continues past a condition/],
    ['LIMIT', "title = 'x' LIMIT 1", /continues past a condition/],
    ['GROUP BY', "title = 'x' GROUP BY id", /continues past a condition/],
    ['blank', '   ', /blank/],
    ['keyword guard', "title ILIKE '%system%'", /bare word "system"/],
    ['keyword guard, any case and place', "title IN ('IT System Admin')", /bare word "system"/],
    ['keyword guard in a date literal position', "title = 'operating-SYSTEM'", /bare word "system"/],
    ['blank literal', "title = ' '", /blank text/],
    ['huge number', 'company_revenue_usd > 123456789012345678901234567890', /too large or too precise/],
    ['NUL, which would end the text', 'has_phone\u0000 OR TRUE', /control character U\+0000/],
    ['another control character', "title = 'a'\u001b AND has_phone", /control character U\+001B/],
    ['a WINDOW clause', 'has_phone WINDOW w AS ()', /WINDOW clause/],
    ['a WINDOW clause, any case', 'has_phone window w as (partition by id)', /WINDOW clause/],
    [
      'more conditions than family A takes',
      Array.from({ length: 26 }, (_, i) => `title ILIKE '%term${i}x%'`).join(' OR '),
      /26 conditions; at most 25/,
    ],
  ];

  it.each(cases)('%s', async (_label, sql, message) => {
    const e = await refused(sql);
    expect(e.code).toBe('request.invalid');
    expect(e.status).toBe(400);
    expect(e.field).toBe('where_sql');
    expect(e.message).toMatch(message);
    expect(e.hint).toBeTruthy();
  });

  it('the keyword guard hint names a longer substring or job_titles', async () => {
    expect((await refused("title = 'system'")).hint).toMatch(/longer substring.*job_titles/);
  });

  it('an unknown closed-list value is 400 filter.unknown_value on where_sql', async () => {
    const e = await refused("seniority = 'boss'");
    expect(e.code).toBe('filter.unknown_value');
    expect(e.status).toBe(400);
    expect(e.field).toBe('where_sql');
  });

  it(`refuses more than ${WHERE_SQL_MAX_CHARS} characters before parsing`, async () => {
    const before = statements.length;
    const sql = `title = '${'a'.repeat(WHERE_SQL_MAX_CHARS)}'`;
    expect((await refused(sql)).message).toMatch(/longer than 4000 characters/);
    expect(statements.length).toBe(before);
    const exact = `title = '${'a'.repeat(WHERE_SQL_MAX_CHARS - 10)}'`;
    expect(exact.length).toBe(WHERE_SQL_MAX_CHARS);
    expect(await parse(exact)).toEqual({ field: 'title', op: 'eq', value: 'a'.repeat(WHERE_SQL_MAX_CHARS - 10) });
  });

  it('takes 25 conditions, tabs and line breaks, and the word window inside a literal', async () => {
    const ors = Array.from({ length: 25 }, (_, i) => `title ILIKE '%term${i}x%'`).join(' OR\n\t');
    const ir = await parse(ors);
    expect('or' in ir && ir.or.length).toBe(25);
    expect(await parse("title ILIKE '%window%'")).toEqual({ field: 'title', op: 'contains', value: 'window' });
  });

  it('refuses nesting deeper than its limit', async () => {
    const deep = `${'NOT ('.repeat(40)}has_phone${')'.repeat(40)}`;
    expect((await refused(deep)).message).toMatch(/nested deeper/);
  });
});

describe('injection forms are refused and never executed', () => {
  const target = () => join(dir, 'leak.csv');
  const MORE_THAN_ONE = /more than one statement/;
  const PAST = /continues past a condition/;
  const SUBQUERY = /(does not accept|compares a column with) (a subquery|EXISTS \(subquery\))/;
  const COMMENT = /holds a comment/;
  const SYNTAX = /not a valid SQL condition: syntax error/;
  // [label, text, why it is refused]
  const forms: Array<[string, () => string, RegExp]> = [
    ['stacked DROP', () => '1=1; DROP TABLE contacts', MORE_THAN_ONE],
    ['stacked DROP after a valid condition', () => "title = 'x'; DROP TABLE contacts", MORE_THAN_ONE],
    ['stacked SELECT', () => "title = 'x'; SELECT * FROM contacts", MORE_THAN_ONE],
    ['line comment', () => "title = 'x' -- AND seniority = 'vp'", COMMENT],
    ['block comment', () => "title = 'x' /* hidden */ OR has_phone", COMMENT],
    ['comment closing a quote trick', () => "title = 'x\\' OR 1=1 --'", COMMENT],
    ['read_csv', () => "read_csv('/etc/passwd') IS NOT NULL", /found the function read_csv\(\)/],
    ['read_csv as a value', () => "title IN (SELECT * FROM read_csv('/etc/passwd'))", SUBQUERY],
    ['COPY', () => `title = 'x'; COPY contacts TO '${target()}'`, MORE_THAN_ONE],
    ['COPY alone', () => `COPY contacts TO '${target()}'`, SYNTAX],
    ['ATTACH', () => `1=1; ATTACH '${join(dir, 'x.db')}' AS x`, MORE_THAN_ONE],
    ['PRAGMA', () => '1=1; PRAGMA database_list', MORE_THAN_ONE],
    ['SET', () => '1=1; SET enable_external_access = true', MORE_THAN_ONE],
    ['INSTALL', () => '1=1; INSTALL httpfs', MORE_THAN_ONE],
    ['UNION SELECT', () => "title = 'x' UNION SELECT * FROM contacts", PAST],
    ['UNION ALL SELECT of another table', () => '1=1 UNION ALL SELECT * FROM duckdb_settings()', PAST],
    ['subquery IN', () => 'id IN (SELECT id FROM contacts)', SUBQUERY],
    ['scalar subquery', () => 'title = (SELECT title FROM contacts LIMIT 1)', SUBQUERY],
    ['EXISTS', () => 'EXISTS (SELECT 1 FROM contacts)', SUBQUERY],
    ['NOT EXISTS', () => 'NOT EXISTS (SELECT 1)', SUBQUERY],
    ['ANY subquery', () => 'title = ANY (SELECT title FROM contacts)', SUBQUERY],
    ['getenv', () => "getenv('HOME') = '/root'", /getenv\(\)/],
    ['getenv as a value', () => "title = getenv('HOME')", /getenv\(\)/],
    ['table function', () => "title IN (SELECT name FROM glob('/etc/*'))", SUBQUERY],
    ['quoted tautology', () => "title = 'x' OR '1'='1'", /compares two constants/],
    ['quoted identifier smuggling', () => '"title; DROP TABLE contacts" = 1', /is not a contact column/],
    ['quoted qualified name', () => '"contacts"."title" = \'x\'', /without a table/],
    ['CTE', () => "title = 'x') WITH t AS (SELECT 1) SELECT * FROM t --", SYNTAX],
    ['closing parenthesis', () => "title = 'x') OR (1=1", SYNTAX],
  ];

  it.each(forms)('%s', async (_label, sql, why) => {
    const e = await refused(sql());
    expect(e.code).toBe('request.invalid');
    expect(e.field).toBe('where_sql');
    expect(e.message).toMatch(why);
  });

  it('an escaped quote stays inside one literal (E-strings and doubled quotes)', async () => {
    expect(await parse("title = E'x\\' OR 1=1'")).toEqual({ field: 'title', op: 'eq', value: "x' OR 1=1" });
    expect(await parse("title = 'x'' OR ''1''=''1'")).toEqual({ field: 'title', op: 'eq', value: "x' OR '1'='1" });
  });

  it('left the database untouched and only ever ran the fixed serialize statement', async () => {
    const rows = (await conn.runAndReadAll('SELECT count(*)::INTEGER AS n FROM contacts')).getRowObjects();
    expect(rows).toEqual([{ n: 1 }]);
    expect(existsSync(target())).toBe(false);
    expect(existsSync(join(dir, 'x.db'))).toBe(false);
    const attached = (
      await conn.runAndReadAll("SELECT count(*)::INTEGER AS n FROM duckdb_databases() WHERE database_name = 'x'")
    ).getRowObjects();
    expect(attached).toEqual([{ n: 0 }]);
    expect(statements.length).toBeGreaterThan(0);
    expect(new Set(statements).size).toBe(1);
    expect(statements[0]).toMatch(/^SELECT json_serialize_sql\(\$1::VARCHAR\) AS j, /);
  });
});
