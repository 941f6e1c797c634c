import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Entity } from '../../../src/domain/catalog/index.js';
import type { IRNode } from '../../../src/domain/query/index.js';
import { parseCompanyFilter, parseContactFilter } from '../../../src/domain/query/index.js';
import type { SearchEngine } from '../../../src/engine/port.js';
import { parseCsv } from '../../helpers/csv.js';
import { type Row, wordsMatch } from '../../helpers/rows.js';
import { ENGINES } from './engines.js';
import { type ConformanceRelease, conformanceRelease } from './release.js';

/**
 * Engine conformance, paging: pages read in the stable order whatever the engine and its thread count. A
 * release of many row groups is scanned in parallel, and a page read without ORDER BY then returned any
 * matches (a cursor walk over 1 M contacts with 2 threads found 924 of 1,767 rows). Every first page, cursor
 * walk, offset page, export (with and without a per-company cap) and export count is compared with the matches
 * computed here from the stored rows, sorted by sort_key.
 */

let rel: ConformanceRelease;
let dataDir: string;
let contacts: Row[];
let companies: Row[];
let rowGroups: number;

beforeAll(async () => {
  rel = await conformanceRelease(30_000, 3000, 11);
  ({ dataDir, contacts, companies, rowGroups } = rel);
}, 300_000);

afterAll(() => rel?.remove());

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

describe.each(ENGINES.map((e) => [e.name, e] as const))(
  'pages in the stable order, %s, many row groups',
  (engineName, e) => {
    let engine: SearchEngine;
    // Opening the search-cluster engine indexes the 30,000-contact release first: over a minute on a slow day.
    beforeAll(async () => {
      engine = await e.open(dataDir);
    }, 300_000);
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

      it('pages of card columns and others (read from the release) hold the stored values', async () => {
        // A family B page shows its filters' columns; cards hold the default set, so the rest come from the columns.
        const columns =
          c.entity === 'contact'
            ? ['id', 'name', 'company_domain', 'company_employee_count', 'skills', 'experience', 'has_work_email']
            : ['id', 'name', 'domain', 'employee_count'];
        const want = c.expected();
        for (const [offset, limit] of [
          [0, 100],
          [want.length - 30, 40],
        ] as const) {
          const r = await engine.query(c.entity, c.ir(), {
            page: { columns, afterSortKey: null, limit, budgetMs: 10_000, offset },
          });
          const cells = (rows: Row[]) => rows.map((row) => Object.fromEntries(columns.map((k) => [k, row[k] ?? null])));
          expect(cells(r.rows)).toEqual(cells(want.slice(offset, offset + limit)));
        }
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
        const file = join(dataDir, `export-${engineName.replace(/\W+/g, '-')}-${c.entity}-${c.name.length}.csv`);
        const res = await engine.exportCsv(c.entity, c.ir(), {
          columns: [{ name: 'id', header: 'id' }],
          maxRows: 1_000_000,
          maxPerCompany: null,
          file,
          batchRows: 53,
          budgetMs: 10_000,
        });
        const lines = parseCsv(readFileSync(file, 'utf8')).map((r) => r[0]);
        expect(lines[0]).toBe('id');
        expect(lines.slice(1)).toEqual(ids(c.expected()));
        expect(res.rows).toBe(c.expected().length);
      });

      it('an export capped per company keeps the first rows of each domain (rows without one all stay)', async () => {
        if (c.entity !== 'contact') return;
        const seen = new Map<string, number>();
        const want = c.expected().filter((r) => {
          const d = r.company_domain as string | null;
          if (!d) return true;
          seen.set(d, (seen.get(d) ?? 0) + 1);
          return seen.get(d)! <= 2;
        });
        expect(want.length).toBeLessThan(c.expected().length);
        const counted = await engine.exportCount(c.entity, c.ir(), { maxPerCompany: 2, budgetMs: 10_000 });
        expect({ matches: counted.matches, capped: counted.capped }).toEqual({
          matches: c.expected().length,
          capped: want.length,
        });
        const file = join(dataDir, `capped-${engineName.replace(/\W+/g, '-')}-${c.name.length}.csv`);
        const res = await engine.exportCsv(c.entity, c.ir(), {
          columns: [{ name: 'id', header: 'id' }],
          maxRows: 1_000_000,
          maxPerCompany: 2,
          file,
          batchRows: 41,
          budgetMs: 10_000,
        });
        const lines = parseCsv(readFileSync(file, 'utf8')).map((r) => r[0]);
        expect(lines.slice(1)).toEqual(ids(want));
        expect(res.rows).toBe(want.length);
      });
    });
  },
);
