import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedRelease } from '../../loaders/seed.js';
import type { Entity } from '../../src/domain/catalog/index.js';
import type { IRNode } from '../../src/domain/query/index.js';
import { parseCompanyFilter, parseContactFilter } from '../../src/domain/query/index.js';
import { type DuckDBEngine, openDuckDBEngine } from '../../src/engine/duckdb/duckdb-engine.js';
import { splitIntoRowGroups } from '../helpers/row-groups.js';
import { type Row, wordsMatch } from '../helpers/rows.js';

/**
 * Pages read in the stable order whatever the thread count: a release of many row groups is scanned in
 * parallel, and a page read without ORDER BY then returned any matches (a cursor walk over 1 M contacts
 * with 2 threads found 924 of 1,767 rows). Every page, cursor walk, offset page and export slice is
 * compared with the matches computed here from the stored rows, sorted by sort_key.
 */

const CONTACTS = 30_000;
let dataDir: string;
let contacts: Row[];
let companies: Row[];
let rowGroups: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cds-page-order-'));
  await seedRelease({ dataDir, contacts: CONTACTS, companies: 3000, seed: 11, asOf: new Date('2026-11-01T00:00:00Z') });
  rowGroups = await splitIntoRowGroups(dataDir, 2048);
  const engine = await open(1);
  contacts = await engine.run(
    'SELECT id, sort_key, title, country, company_domain, seniority FROM contacts ORDER BY sort_key',
  );
  companies = await engine.run('SELECT id, sort_key, hq_country FROM companies ORDER BY sort_key');
  await engine.close();
}, 120_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function open(threads: number): Promise<DuckDBEngine> {
  return openDuckDBEngine({ dataDir, poolSize: 2, threads, memoryLimit: '1GB', pointReaders: 1 });
}

interface Case {
  name: string;
  entity: Entity;
  ir: () => IRNode;
  expected: () => Row[];
}

/** 200 employer domains, every third one in domain order, so matches spread over every row group. */
function someDomains(): string[] {
  const all = [
    ...new Set(contacts.map((r) => r.company_domain).filter((d): d is string => typeof d === 'string')),
  ].sort();
  return all.filter((_, i) => i % 3 === 0).slice(0, 200);
}

const TITLE_COUNTRIES = ['us', 'gb', 'de', 'fr', 'ca', 'au'];
const SENIORITY = ['manager', 'senior_ic', 'director'];

const CASES: Case[] = [
  {
    name: 'two title phrases and six countries',
    entity: 'contact',
    ir: () => parseContactFilter({ filter: { title_query: ['manager', 'engineer'], countries: TITLE_COUNTRIES } }).ir,
    expected: () =>
      contacts.filter(
        (r) =>
          (wordsMatch(r.title, 'manager') || wordsMatch(r.title, 'engineer')) && TITLE_COUNTRIES.includes(r.country),
      ),
  },
  {
    name: '200 domains and a seniority list',
    entity: 'contact',
    ir: () => parseContactFilter({ filter: { domains: someDomains(), seniority: SENIORITY } }).ir,
    expected: () => {
      const domains = new Set(someDomains());
      return contacts.filter((r) => domains.has(r.company_domain) && SENIORITY.includes(r.seniority));
    },
  },
  {
    name: 'companies headquartered in the US',
    entity: 'company',
    ir: () => parseCompanyFilter({ filter: { hq_countries: ['us'] } }).ir,
    expected: () => companies.filter((r) => r.hq_country === 'us'),
  },
];

const ids = (rows: Row[]): string[] => rows.map((r) => r.id as string);

describe.each([1, 2])('pages in the stable order, %i DuckDB thread(s), many row groups', (threads) => {
  let engine: DuckDBEngine;
  beforeAll(async () => {
    engine = await open(threads);
  });
  afterAll(() => engine.close());

  it('the release has several row groups', () => {
    expect(rowGroups).toBeGreaterThanOrEqual(10);
  });

  describe.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    it('has matches on more than one page and in more than one row group', () => {
      const want = c.expected();
      expect(want.length).toBeGreaterThan(250);
      expect(Number(want.at(-1)!.sort_key) - Number(want[0]!.sort_key)).toBeGreaterThan(2048);
    });

    it('the first page is the first 100 matches in id order', async () => {
      for (let i = 0; i < 5; i++) {
        const r = await engine.query(c.entity, c.ir(), {
          countBudgetMs: 10_000,
          page: { columns: ['id'], afterSortKey: null, limit: 100, budgetMs: 10_000 },
        });
        expect(ids(r.rows)).toEqual(ids(c.expected().slice(0, 100)));
        expect(r.count).toBe(c.expected().length);
      }
    });

    it('a cursor walk returns every match exactly once, in order, and equals the count', async () => {
      const seen: string[] = [];
      let after: number | null = null;
      for (;;) {
        const r = await engine.query(c.entity, c.ir(), {
          page: { columns: ['id'], afterSortKey: after, limit: 37, budgetMs: 10_000 },
        });
        seen.push(...ids(r.rows));
        if (r.rows.length < 37) break;
        after = Number(r.rows.at(-1)!.sort_key);
      }
      expect(seen).toEqual(ids(c.expected()));
    });

    it('offset pages (family B) are slices of the matches in order', async () => {
      const want = ids(c.expected());
      for (const offset of [0, 50, 123, want.length - 20]) {
        const r = await engine.query(c.entity, c.ir(), {
          page: { columns: ['id'], afterSortKey: null, limit: 40, budgetMs: 10_000, offset },
        });
        expect(ids(r.rows)).toEqual(want.slice(offset, offset + 40));
      }
    });

    it('an export in small batches writes every match once, in order', async () => {
      const file = join(dataDir, `export-${threads}-${c.entity}-${c.name.length}.csv`);
      const res = await engine.exportCsv(c.entity, c.ir(), {
        columns: [{ name: 'id', header: 'id' }],
        maxRows: 1_000_000,
        maxPerCompany: null,
        file,
        batchRows: 53,
        budgetMs: 10_000,
      });
      const lines = readFileSync(file, 'utf8').trim().split('\r\n');
      expect(lines[0]).toBe('id');
      expect(lines.slice(1)).toEqual(ids(c.expected()));
      expect(res.rows).toBe(c.expected().length);
    });
  });
});
